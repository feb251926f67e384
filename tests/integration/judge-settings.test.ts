import { describe, expect, it } from "vitest";
import { GET as listJudges, POST as createJudge } from "@/app/api/v1/studies/[id]/judges/route";
import { getDb } from "@/lib/db/client";
import { bearer, call, makeStudy, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

const post = (token: string, id: string, body: unknown) =>
  call(createJudge, `/api/v1/studies/${id}/judges`, bearer(token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }), { id });

describe("POST /api/v1/studies/{id}/judges: settings never hold a secret", () => {
  it("refuses a setting whose name looks like a secret with a 422 naming it and the judge endpoint, and stores nothing", async () => {
    const lead = await makeUser("LEAD", "lead");
    const study = await makeStudy(lead.id, "Judge settings");
    const base = { name: "Judge", model: "gpt-4o", version: "2024-08-06", prompt: "Grade the answer" };
    for (const name of ["apiKey", "api_key", "key", "X-API-Key", "token", "access_token", "password", "PASSWORD", "secret", "clientSecret", "authorization", "Authorization", "bearer", "credentials"]) {
      const res = await post(lead.token, study.id, { ...base, settings: { temperature: 0, [name]: "sk-live-0123456789" } });
      expect(res.status, name).toBe(422);
      const details = res.body.details as { path: string; message: string }[];
      expect(details, name).toEqual([{ path: `settings.${name}`, message: expect.stringMatching(/looks like a secret.*judge endpoint.*encrypted/) }]);
    }
    expect(await getDb().automatedJudge.count({ where: { studyId: study.id } })).toBe(0);

    // Ordinary settings, max_tokens among them, are kept.
    const ok = await post(lead.token, study.id, { ...base, settings: { temperature: 0.2, max_tokens: 800, endpoint: "local", samples: 5, top_p: 1 } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const list = await call(listJudges, `/api/v1/studies/${study.id}/judges`, bearer(lead.token), { id: study.id });
    expect(JSON.stringify(list.body)).not.toContain("sk-live");
  });
});
