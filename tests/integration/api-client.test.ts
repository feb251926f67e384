import { readFileSync } from "node:fs";
import openapiTS, { astToString } from "openapi-typescript";
import { describe, expect, it } from "vitest";
import { clingradeClient } from "@/lib/api-client";
import { OPENAPI_FILE, openApiText } from "@/lib/api-client/document-file";
import { CANNOT_ADD } from "@/lib/graders/service";
import { makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { apiRoutes } from "./helpers/routes";

useIsolatedDatabase();

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** A fetch that answers from the route handlers under app/api, as Next would route the request to them. */
async function routeFetch(req: Request): Promise<Response> {
  const { pathname } = new URL(req.url);
  for (const route of apiRoutes) {
    const names: string[] = [];
    const pattern = new RegExp(`^${route.url.replace(/\[(\w+)\]/g, (_, n: string) => (names.push(n), "([^/]+)"))}$`);
    const m = pattern.exec(pathname);
    if (!m) continue;
    const handler = ((await import(route.file)) as Record<string, Handler | undefined>)[req.method];
    if (!handler) return new Response(null, { status: 405 });
    const params = Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
    return handler(req, { params: Promise.resolve(params) });
  }
  return new Response(null, { status: 404 });
}

describe("the TypeScript client generated from the API description", () => {
  it("is generated from the committed document, which is the one the server serves", async () => {
    expect(readFileSync(OPENAPI_FILE, "utf8"), "run `npm run openapi:write`").toBe(openApiText());
    const generated = astToString(await openapiTS(JSON.parse(openApiText())));
    expect(readFileSync("lib/api-client/schema.d.ts", "utf8"), "run `npm run openapi:client`").toContain(generated.trim());
  });

  it("creates a study, reads it, adds graders and reads its errors, every call typed by the document", async () => {
    const lead = await makeUser("LEAD", "client-lead");
    const grader = await makeUser("GRADER", "client-grader");
    const api = clingradeClient({ baseUrl: "http://localhost", token: lead.token, fetch: routeFetch });

    const created = await api.POST("/api/v1/studies", {
      body: {
        name: "Oncology survey (client)",
        graderTitle: "Oncologist",
        description: "Typed from the document",
        rubrics: ["discern"],
        repetitions: 1,
        gradersPerSet: 2,
        showReferenceAnswer: false,
        askContradictions: false,
        matchSpecialty: false,
        safeLlmScoring: "OVERALL",
        design: "scoring",
        tieDisagrees: false,
      },
    });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const id = created.data!.id;

    const study = await api.GET("/api/v1/studies/{id}", { params: { path: { id } } });
    expect(study.data).toMatchObject({ id, name: "Oncology survey (client)", status: "DRAFT", repetitions: 1 });

    const added = await api.POST("/api/v1/studies/{id}/graders", { params: { path: { id } }, body: { email: grader.email } });
    expect(added.response.status).toBe(201);
    expect(added.data).toMatchObject({ userId: grader.id, accountCreated: false });

    // An error answer is typed too: the one message for an email that cannot be added.
    const refused = await api.POST("/api/v1/studies/{id}/graders", { params: { path: { id } }, body: { email: "nobody-yet@client.example" } });
    expect(refused.response.status).toBe(409);
    expect(refused.error).toEqual({ error: CANNOT_ADD });

    const graders = await api.GET("/api/v1/studies/{id}/graders", { params: { path: { id }, query: { sort: "email" } } });
    expect(graders.data?.graders.map((g) => g.email)).toEqual([grader.email]);

    const other = clingradeClient({ baseUrl: "http://localhost", token: grader.token, fetch: routeFetch });
    expect((await other.GET("/api/v1/studies/{id}", { params: { path: { id } } })).response.status).toBe(403);
  });
});
