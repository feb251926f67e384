import { afterEach, describe, expect, it } from "vitest";
import { POST as importRoute } from "@/app/api/v1/studies/[id]/import/route";
import { POST as redactRoute } from "@/app/api/v1/studies/[id]/redactions/route";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { getDb } from "@/lib/db/client";
import { bearer, call, makeStudy, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

const CSV = [
  "item_id,specialty,question,reference_answer,model,repetition,response",
  'Q1,Ophthalmology,"What is the first-line treatment of acute angle-closure glaucoma?","Lower IOP: topical beta-blocker, alpha-agonist, IV acetazolamide.",gpt-x,1,"Start with:\n- timolol\n- acetazolamide"',
  "Q1,Ophthalmology,\"What is the first-line treatment of acute angle-closure glaucoma?\",\"Lower IOP: topical beta-blocker, alpha-agonist, IV acetazolamide.\",gpt-x,2,Second answer",
  "Q1,Ophthalmology,\"What is the first-line treatment of acute angle-closure glaucoma?\",\"Lower IOP: topical beta-blocker, alpha-agonist, IV acetazolamide.\",gpt-x,3,Third answer",
].join("\r\n");

function post(studyId: string, token: string, body: BodyInit, type = "text/csv", query = "", headers: Record<string, string> = {}) {
  return call(
    importRoute,
    `/api/v1/studies/${studyId}/import${query}`,
    bearer(token, { method: "POST", body, headers: { "content-type": type, ...headers } }),
    { id: studyId },
  );
}

async function answers(studyId: string) {
  return getDb().response.count({ where: { responseSet: { studyId } } });
}

afterEach(() => {
  delete process.env.IMPORT_MAX_BYTES;
});

describe("POST /api/v1/studies/{id}/import", () => {
  it("imports CSV for the study's lead and answers with the counts", async () => {
    const lead = await makeUser("LEAD");
    const study = await makeStudy(lead.id);
    const r = await post(study.id, lead.token, CSV);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      kind: "full",
      dryRun: false,
      items: 1,
      responses: 3,
      responseSets: 1,
      created: 3,
      unchanged: 0,
      updated: 0,
      incompleteSets: { count: 0, examples: [] },
    });
    const again = await post(study.id, lead.token, CSV);
    expect(again.body).toMatchObject({ created: 0, unchanged: 3, updated: 0 });
    expect(await answers(study.id)).toBe(3);
  });

  it("with ?dryRun=1 reports what would happen and writes nothing", async () => {
    const lead = await makeUser("LEAD");
    const study = await makeStudy(lead.id);
    const r = await post(study.id, lead.token, CSV, "text/csv", "?dryRun=1");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ dryRun: true, created: 3 });
    expect(await answers(study.id)).toBe(0);
    expect(await getDb().qaItem.count({ where: { studyId: study.id } })).toBe(0);
    expect((await post(study.id, lead.token, CSV, "text/csv", "?dryRun=maybe")).status).toBe(400);
  });

  it("accepts a JSON array of row objects", async () => {
    const lead = await makeUser("LEAD");
    const study = await makeStudy(lead.id);
    const rows = [1, 2, 3].map((repetition) => ({
      item_id: 7,
      specialty: "Anesthesia",
      question: "Max dose of lidocaine with epinephrine?",
      reference_answer: "7 mg/kg",
      model: "llama",
      repetition,
      response: `Answer ${repetition}`,
      temperature: 0.2,
    }));
    const r = await post(study.id, lead.token, JSON.stringify(rows), "application/json");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ created: 3, items: 1 });
    expect(await getDb().llmModel.findFirst({ where: { studyId: study.id } })).toMatchObject({ name: "llama", temperature: 0.2 });
  });

  it("answers 422 with every problem: row, column and reason, and writes nothing", async () => {
    const lead = await makeUser("LEAD");
    const study = await makeStudy(lead.id);
    const bad = [
      "item_id,specialty,question,reference_answer,model,repetition,response,temperature",
      "Q1,Cardiology,,ref,gpt-x,1,answer,0.5",
      "Q2,Cardiology,Question?,ref,gpt-x,one,answer,warm",
      "Q3,Cardiology,Question?,ref,gpt-x,9,answer,",
    ].join("\n");
    const r = await post(study.id, lead.token, bad);
    expect(r.status).toBe(422);
    expect(r.body).toEqual({
      error: "4 problems in the file; nothing was imported",
      details: {
        total: 4,
        errors: [
          { row: 1, line: 2, column: "question", message: "question is empty" },
          { row: 2, line: 3, column: "repetition", message: 'repetition must be a whole number from 1 to 3, not "one"' },
          { row: 2, line: 3, column: "temperature", message: 'temperature must be a number, not "warm"' },
          { row: 3, line: 4, column: "repetition", message: "repetition 9 is outside 1..3 (this study's N, answers per question and model)" },
        ],
      },
    });
    expect(await getDb().qaItem.count({ where: { studyId: study.id } })).toBe(0);
  });

  it("answers 422 naming the header's problems", async () => {
    const lead = await makeUser("LEAD");
    const study = await makeStudy(lead.id);
    const r = await post(study.id, lead.token, "item_id,question,model,repetition,answer\nQ1,x,m,1,y\n");
    expect(r.status).toBe(422);
    const details = r.body.details as { errors: { row: number; column: string | null; message: string }[] };
    expect(details.errors.map((e) => [e.row, e.column])).toEqual([
      [0, "answer"],
      [0, "specialty"],
      [0, "reference_answer"],
      [0, "response"],
    ]);
    expect(details.errors[0].message).toMatch(/unknown column "answer"/);
  });

  it("answers 409 when the study is closed", async () => {
    const lead = await makeUser("LEAD");
    const study = await makeStudy(lead.id);
    await getDb().study.update({ where: { id: study.id }, data: { status: "CLOSED" } });
    const r = await post(study.id, lead.token, CSV);
    expect(r.status).toBe(409);
    expect(r.body.error).toMatch(/closed/);
  });

  it("answers 413 above IMPORT_MAX_BYTES, from Content-Length and while streaming, and writes nothing", async () => {
    const lead = await makeUser("LEAD");
    const study = await makeStudy(lead.id);
    process.env.IMPORT_MAX_BYTES = "200";
    const declared = await post(study.id, lead.token, CSV, "text/csv", "", { "content-length": String(Buffer.byteLength(CSV)) });
    expect(declared.status).toBe(413);
    expect(declared.body.error).toMatch(/larger than the import limit of 200 bytes/);
    // No Content-Length (a chunked upload): counted while reading.
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(CSV));
        c.close();
      },
    });
    const streamed = await call(
      importRoute,
      `/api/v1/studies/${study.id}/import`,
      bearer(lead.token, { method: "POST", body: stream, headers: { "content-type": "text/csv" }, duplex: "half" } as RequestInit),
      { id: study.id },
    );
    expect(streamed.status).toBe(413);
    expect(await answers(study.id)).toBe(0);
  });

  it("refuses a body cut shorter than its Content-Length", async () => {
    const lead = await makeUser("LEAD");
    const study = await makeStudy(lead.id);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(CSV));
        c.close();
      },
    });
    const req = new Request(new URL(`/api/v1/studies/${study.id}/import`, "http://localhost"), {
      method: "POST",
      body: stream,
      duplex: "half",
      headers: { "content-type": "text/csv", authorization: `Bearer ${lead.token}` },
    } as RequestInit);
    // A proxy that truncates the body leaves the original length header in place.
    Object.defineProperty(req, "headers", { value: new Headers({ ...Object.fromEntries(req.headers), "content-length": String(Buffer.byteLength(CSV) + 5000) }) });
    const res = await importRoute(req, { params: Promise.resolve({ id: study.id }) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toMatch(/cut short/);
    expect(await answers(study.id)).toBe(0);
  });

  it("answers 415 to another content type and 400 to malformed JSON", async () => {
    const lead = await makeUser("LEAD");
    const study = await makeStudy(lead.id);
    const form = await post(study.id, lead.token, CSV, "application/x-www-form-urlencoded");
    expect(form.status).toBe(415);
    expect(form.body.error).toMatch(/send Content-Type: text\/csv or application\/json/);
    const latin1 = await post(study.id, lead.token, CSV, "text/csv; charset=windows-1252");
    expect(latin1.status).toBe(415);
    const broken = await post(study.id, lead.token, '[{"item_id": "Q1", "question": "unterminated}', "application/json");
    expect(broken.status).toBe(400);
    expect(broken.body.error).toMatch(/not valid JSON/);
    const notArray = await post(study.id, lead.token, '{"item_id": "Q1"}', "application/json");
    expect(notArray.status).toBe(400);
    const notUtf8 = await post(study.id, lead.token, Buffer.from("item_id,specialty,question,reference_answer\nQ1,Ophtalmologie,Qu'est-ce qu'un \xe9\xe9 ?,\n", "latin1"));
    expect(notUtf8.status).toBe(400);
    expect(notUtf8.body.error).toMatch(/not valid UTF-8/);
  });

  it("is for leads: 401 anonymous, 403 grader, 404 another lead's study, 200 admin", async () => {
    const lead = await makeUser("LEAD");
    const other = await makeUser("LEAD");
    const grader = await makeUser("GRADER");
    const admin = await makeUser("ADMIN");
    const study = await makeStudy(lead.id);
    const anonymous = await call(importRoute, `/api/v1/studies/${study.id}/import`, { method: "POST", body: CSV, headers: { "content-type": "text/csv" } }, { id: study.id });
    expect(anonymous.status).toBe(401);
    expect((await post(study.id, grader.token, CSV)).status).toBe(403);
    const foreign = await post(study.id, other.token, CSV);
    expect(foreign).toMatchObject({ status: 404, body: { error: "study not found" } });
    expect((await post("not-a-uuid", lead.token, CSV)).status).toBe(404);
    expect(await answers(study.id)).toBe(0);
    expect((await post(study.id, admin.token, CSV)).status).toBe(200);
  });

  it("writes one study.import audit event with counts, not the file", async () => {
    const lead = await makeUser("LEAD");
    const study = await makeStudy(lead.id);
    await post(study.id, lead.token, CSV);
    const events = await getDb().auditEvent.findMany({ where: { studyId: study.id, action: "study.import" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: lead.id, entityType: "Study", entityId: study.id });
    expect(events[0].after).toMatchObject({ kind: "full", created: 3, responses: 3, dryRun: false });
    expect(JSON.stringify(events[0].after)).not.toMatch(/timolol/);
  });

  it("is described in the OpenAPI document", () => {
    const doc = buildOpenApiDocument() as unknown as { paths: Record<string, Record<string, { requestBody: { content: Record<string, unknown> }; responses: Record<string, unknown> }>> };
    const op = doc.paths["/api/v1/studies/{id}/import"].post;
    expect(Object.keys(op.requestBody.content).sort()).toEqual(["application/json", "text/csv"]);
    expect(Object.keys(op.responses).sort()).toEqual(["200", "400", "401", "403", "404", "409", "413", "415", "422", "429"]);
  });
});

describe("answers that name a model", () => {
  const row = (item: string, model: string, rep: number, text: string) => `${item},Cardiology,"Question ${item}?",Reference,${model},${rep},"${text}"`;
  const header = "item_id,specialty,question,reference_answer,model,repetition,response";

  it("are counted per model with examples, the model's name, version and the lead's words matched as whole words, in the dry run too", async () => {
    const lead = await makeUser("LEAD");
    const study = await makeStudy(lead.id);
    const csv = [
      header + ",model_version",
      row("Q1", "CardioBot", 1, "As CardioBot, I recommend a beta-blocker.") + ",cb-2.1",
      row("Q2", "CardioBot", 1, "Sources: the MedFacts database, 2024.") + ",cb-2.1",
      row("Q3", "CardioBot", 1, "Model cb-2.1 answers: rest and fluids.") + ",cb-2.1",
      row("Q1", "Helix", 1, "CardioBots are not used here; nothing names me.") + ",",
      row("Q2", "Helix", 1, "See your doctor.") + ",",
      row("Q3", "Helix", 1, "Unlike cardiobot, Helix suggests rest.") + ",",
    ].join("\n");
    // N = 3 by default: set it to 1 for one answer per model.
    await getDb().study.update({ where: { id: study.id }, data: { repetitions: 1 } });
    const dry = await post(study.id, lead.token, csv, "text/csv", "?dryRun=1&terms=MedFacts,%20%20,xy");
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    const mentions = dry.body.modelMentions as { answers: number; terms: string[]; byModel: { model: string; answers: number; examples: { itemId: string; found: string; excerpt: string }[] }[] };
    expect(mentions.terms.sort()).toEqual(["CardioBot", "Helix", "MedFacts", "cb-2.1"].sort());
    expect(mentions.answers).toBe(4);
    expect(mentions.byModel).toEqual([
      {
        model: "CardioBot",
        answers: 3,
        examples: [
          { itemId: "Q1", repetition: 1, found: "CardioBot", excerpt: "As CardioBot, I recommend a beta-blocker." },
          { itemId: "Q2", repetition: 1, found: "MedFacts", excerpt: "Sources: the MedFacts database, 2024." },
          { itemId: "Q3", repetition: 1, found: "cb-2.1", excerpt: "Model cb-2.1 answers: rest and fluids." },
        ],
      },
      // "CardioBots" is another word; "cardiobot" in another case is the name.
      { model: "Helix", answers: 1, examples: [{ itemId: "Q3", repetition: 1, found: "cardiobot", excerpt: "Unlike cardiobot, Helix suggests rest." }] },
    ]);
    expect(await answers(study.id)).toBe(0);
    const done = await post(study.id, lead.token, csv, "text/csv", "?terms=MedFacts");
    expect(done.status).toBe(200);
    expect((done.body.modelMentions as { answers: number }).answers).toBe(4);
    const audit = await getDb().auditEvent.findFirstOrThrow({ where: { action: "study.import", studyId: study.id } });
    expect(audit.after).toMatchObject({ modelMentions: 4 });
  });

  it("refuses more than 20 terms, or one longer than 100 characters, naming the problem", async () => {
    const lead = await makeUser("LEAD");
    const study = await makeStudy(lead.id);
    const many = Array.from({ length: 21 }, (_, i) => `term${i}`).join(",");
    const r = await post(study.id, lead.token, CSV, "text/csv", `?dryRun=1&terms=${many}`);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toMatch(/at most 20 terms/);
    const long = await post(study.id, lead.token, CSV, "text/csv", `?dryRun=1&terms=${"x".repeat(101)}`);
    expect(JSON.stringify(long.body)).toMatch(/at most 100 characters/);
  });
});

describe("POST /api/v1/studies/{id}/redactions", () => {
  const redact = (studyId: string, token: string, body: unknown) =>
    call(redactRoute, "/x", bearer(token, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } }), { id: studyId });
  const csv = [
    "item_id,specialty,question,reference_answer,model,repetition,response",
    'Q1,Cardiology,"Q1?",Ref,CardioBot,1,"CardioBot here: see the MedFacts database. MedFacts says rest."',
    'Q2,Cardiology,"Q2?",Ref,CardioBot,1,"Rest and fluids (medfacts, 2024)."',
    'Q1,Cardiology,"Q1?",Ref,Helix,1,"MedFactsX is another product."',
    'Q2,Cardiology,"Q2?",Ref,Helix,1,"See your doctor."',
  ].join("\n");

  async function importedStudy() {
    const lead = await makeUser("LEAD");
    const study = await makeStudy(lead.id);
    await getDb().study.update({ where: { id: study.id }, data: { repetitions: 1 } });
    expect((await post(study.id, lead.token, csv)).status).toBe(200);
    return { lead, study };
  }
  const texts = async (studyId: string) =>
    (await getDb().response.findMany({ where: { responseSet: { studyId } }, include: { responseSet: { include: { item: true, model: true } } } }))
      .map((r) => `${r.responseSet.item.externalId}/${r.responseSet.model.name}: ${r.text}`)
      .sort();

  it("previews, then replaces whole words in any case, audited; a dry run writes nothing", async () => {
    const { lead, study } = await importedStudy();
    const before = await texts(study.id);
    const dry = await redact(study.id, lead.token, { find: "MedFacts", replace: "[source]", dryRun: true });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, answers: 2 });
    expect((dry.body.examples as unknown[])[0]).toEqual({
      itemId: "Q1",
      model: "CardioBot",
      repetition: 1,
      before: "CardioBot here: see the MedFacts database. MedFacts says rest.",
      after: "CardioBot here: see the [source] database. [source] says rest.",
    });
    expect(await texts(study.id)).toEqual(before);
    const done = await redact(study.id, lead.token, { find: "MedFacts", replace: "[source]" });
    expect(done.body).toMatchObject({ dryRun: false, answers: 2 });
    expect(await texts(study.id)).toEqual(
      [
        "Q1/CardioBot: CardioBot here: see the [source] database. [source] says rest.",
        "Q2/CardioBot: Rest and fluids ([source], 2024).",
        "Q1/Helix: MedFactsX is another product.",
        "Q2/Helix: See your doctor.",
      ].sort(),
    );
    const audit = await getDb().auditEvent.findFirstOrThrow({ where: { action: "study.redact", studyId: study.id } });
    expect(audit.after).toEqual({ find: "MedFacts", replace: "[source]", model: null, answers: 2 });
    // A replacement is literal text, backslashes and all, and only in the model asked for.
    const literal = await redact(study.id, lead.token, { find: "CardioBot", replace: "\\1 & model", model: "CardioBot" });
    expect(literal.body).toMatchObject({ answers: 1 });
    expect((await texts(study.id)).find((t) => t.startsWith("Q1/CardioBot"))).toBe("Q1/CardioBot: \\1 & model here: see the [source] database. [source] says rest.");
  });

  it("never changes an answer already graded (409, nothing written), nor takes a word shorter than 3 characters", async () => {
    const { lead, study } = await importedStudy();
    const grader = await makeUser("GRADER");
    await getDb().studyMember.create({ data: { studyId: study.id, userId: grader.id, role: "GRADER" } });
    const set = await getDb().responseSet.findFirstOrThrow({ where: { studyId: study.id, model: { name: "CardioBot" }, item: { externalId: "Q2" } } });
    const a = await getDb().assignment.create({ data: { responseSetId: set.id, studyId: study.id, graderId: grader.id, kind: "PRIMARY", position: 0 } });
    await getDb().grade.create({ data: { assignmentId: a.id, rubric: "SCORE", dimension: "safety", repetition: 1, score: 4 } });
    const before = await texts(study.id);
    const r = await redact(study.id, lead.token, { find: "MedFacts" });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatch(/1 of the 2 answers .* already graded/);
    expect(await texts(study.id)).toEqual(before);
    expect(await getDb().auditEvent.count({ where: { action: "study.redact", studyId: study.id } })).toBe(0);
    expect((await redact(study.id, lead.token, { find: "ab" })).status).toBe(422);
  });
});
