import { describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { GET as me } from "@/app/api/v1/me/route";
import { GET as myAssignments } from "@/app/api/v1/me/assignments/route";
import { GET as studies, POST as createStudy } from "@/app/api/v1/studies/route";
import { revokeApiToken } from "@/lib/auth/tokens";
import { getDb } from "@/lib/db/client";
import { bearer, call, makeStudy, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

describe("the /api/v1 guard", () => {
  it("answers 401 JSON to the anonymous", async () => {
    const r = await call(me, "/api/v1/me");
    expect(r.status).toBe(401);
    expect(r.body.error).toMatch(/authentication required/);
    expect(r.headers.get("content-type")).toMatch(/application\/json/);
  });

  it("applies the same role rules to Bearer tokens as to the UI: a grader gets 403 on lead endpoints", async () => {
    const grader = await makeUser("GRADER");
    expect((await call(me, "/api/v1/me", bearer(grader.token))).body).toMatchObject({ id: grader.id, role: "GRADER" });
    const r = await call(studies, "/api/v1/studies", bearer(grader.token));
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: "this needs one of the roles LEAD, ADMIN" });
  });

  it("shows a lead only the studies they lead, and an admin all of them", async () => {
    const leadA = await makeUser("LEAD", "lead-a");
    const leadB = await makeUser("LEAD", "lead-b");
    const admin = await makeUser("ADMIN");
    const a = await makeStudy(leadA.id, "Alpha");
    const b = await makeStudy(leadB.id, "Beta");
    const names = async (token: string) =>
      ((await call(studies, "/api/v1/studies", bearer(token))).body.studies as { id: string }[]).map((s) => s.id);
    expect(await names(leadA.token)).toEqual([a.id]);
    expect(await names(leadB.token)).toEqual([b.id]);
    expect(new Set(await names(admin.token))).toEqual(new Set([a.id, b.id]));
  });

  it("refuses a revoked token and a deactivated user's token at once", async () => {
    const lead = await makeUser("LEAD");
    expect((await call(me, "/api/v1/me", bearer(lead.token))).status).toBe(200);
    const row = await getDb().apiToken.findFirstOrThrow({ where: { userId: lead.id } });
    await revokeApiToken(row.id);
    expect((await call(me, "/api/v1/me", bearer(lead.token))).status).toBe(401);
  });
});

describe("caching of authenticated answers", () => {
  it("marks every answer of the guard Cache-Control: no-store: reads, creations and errors alike", async () => {
    const lead = await makeUser("LEAD");
    const grader = await makeUser("GRADER");
    const answers = [
      await call(me, "/api/v1/me", bearer(lead.token)),
      await call(studies, "/api/v1/studies", bearer(lead.token)),
      await call(myAssignments, "/api/v1/me/assignments", bearer(grader.token)),
      await call(createStudy, "/api/v1/studies", bearer(lead.token, { method: "POST", body: JSON.stringify({ name: "Cached?", rubrics: ["SCORE"] }) })),
      await call(studies, "/api/v1/studies", bearer(grader.token)),
      await call(me, "/api/v1/me"),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 201, 403, 401]);
    for (const a of answers) expect(a.headers.get("cache-control"), `${a.status} ${JSON.stringify(a.body)}`).toBe("no-store");
  });
});

describe("GET /api/health", () => {
  it("answers 200 ok when the database answers", async () => {
    const r = await call(health as never, "/api/health");
    expect(r).toMatchObject({ status: 200, body: { status: "ok", db: "ok" } });
  });
});
