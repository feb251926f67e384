import { describe, expect, it } from "vitest";
import { GET as previewRoute } from "@/app/api/v1/studies/[id]/mail-preview/route";
import { graderFacingTitle } from "@/lib/blinding/grader-title";
import { getDb } from "@/lib/db/client";
import { bearer, call, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();

const STUDY_NAME = "Zeta-Model-Alpha vs Omega-LLM-Beta trial";
type Template = { kind: string; label: string; subject: string; text: string; html: string };

describe("the lead's preview of every message", () => {
  it("renders each template in plain text and HTML under the grader-facing title, never the study's name or a model's", async () => {
    const f = await makeGradableStudy({ items: 1, models: 2, graders: 1 });
    await getDb().study.update({ where: { id: f.study.id }, data: { name: STUDY_NAME, graderTitle: "Chest pain answers", deadline: new Date("2027-05-20T00:00:00Z"), reminderDaysBefore: 4 } });
    const res = await call(previewRoute, "/x", bearer(f.lead.token), { id: f.study.id });
    expect(res.status).toBe(200);
    const templates = res.body.templates as Template[];
    expect(templates.map((t) => t.kind)).toEqual(["invitation", "reminder-before", "reminder-due", "digest", "lead-digest", "departure"]);
    const secrets = [STUDY_NAME, "Zeta-Model-Alpha", ...f.models.flatMap((m) => [m.name, m.version])];
    for (const t of templates) {
      expect(t.subject.length).toBeGreaterThan(0);
      expect(t.text).toContain("Hello Dr. Sample");
      expect(t.html).toMatch(/^<!doctype html>/);
      expect(t.html).toContain("Hello Dr. Sample");
      for (const secret of secrets) expect(`${t.subject}\n${t.text}\n${t.html}`).not.toContain(secret);
    }
    const byKind = Object.fromEntries(templates.map((t) => [t.kind, t]));
    expect(byKind.invitation.subject).toBe("Invitation to grade: Chest pain answers");
    expect(byKind["reminder-before"].subject).toBe("Reminder: Chest pain answers is due on 2027-05-20");
    expect(byKind["reminder-due"].subject).toBe("Due today: Chest pain answers");
    expect(byKind.digest.text).toContain('"Chest pain answers": 12 open assignments, due on 2027-05-20.');
    expect(byKind.digest.text).toContain("Stop these weekly messages");
    expect(byKind["lead-digest"].text).toContain("140 of 200 assignments submitted");
    expect(byKind.departure.text).toContain("33 open assignments (1 an adjudication)");
    // Sample links open nothing: no real token is minted for a preview.
    expect(await getDb().invitation.count()).toBe(0);
    expect(await getDb().mailMessage.count()).toBe(0);
  });

  it("without a grader-facing title, the neutral one graders see", async () => {
    const f = await makeGradableStudy({ items: 1, models: 1, graders: 1 });
    const study = await getDb().study.update({ where: { id: f.study.id }, data: { name: STUDY_NAME, graderTitle: "" } });
    const res = await call(previewRoute, "/x", bearer(f.lead.token), { id: f.study.id });
    const templates = res.body.templates as Template[];
    expect(templates.find((t) => t.kind === "reminder-due")!.subject).toBe(`Due today: ${graderFacingTitle(study)}`);
    for (const t of templates) expect(`${t.subject}\n${t.text}\n${t.html}`).not.toContain("Zeta");
  });

  it("is the study's leads' only: another lead gets 404, a grader 403, no one signed in 401", async () => {
    const f = await makeGradableStudy({ items: 1, models: 1, graders: 1 });
    const otherLead = await makeUser("LEAD");
    const other = await call(previewRoute, "/x", bearer(otherLead.token), { id: f.study.id });
    expect(other.status).toBe(404);
    const grader = await call(previewRoute, "/x", bearer(f.graders[0].token), { id: f.study.id });
    expect(grader.status).toBe(403);
    expect(JSON.stringify(grader.body)).not.toContain("Hello");
    expect((await call(previewRoute, "/x", {}, { id: f.study.id })).status).toBe(401);
    expect((await call(previewRoute, "/x", bearer(f.lead.token), { id: "not-a-uuid" })).status).toBe(404);
  });
});
