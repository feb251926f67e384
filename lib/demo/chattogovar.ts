import { createReadStream, readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { recordAudit } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { guessLongMapping } from "@/lib/grade-import/mapping";
import { importGrades } from "@/lib/grade-import/service";
import { fileTables } from "@/lib/grade-import/tables";
import { importIntoStudy } from "@/lib/import/service";
import { DEFAULT_THRESHOLDS } from "@/lib/rubrics/thresholds";
import { ApiError } from "@/lib/errors/api-error";
import { CHATTOGOVAR_RUBRIC } from "./data/chattogovar/rubric";
import { importChattogovarJudge } from "@/lib/judges/chattogovar";
import { appDir } from "@/lib/build/app-dir";

/**
 * The second demo study, from real published data: the chattogovar study
 * (mitsuhashi/chattogovar, Apache-2.0; lib/demo/data/chattogovar/LICENSE).
 * 150 genomic-variant questions, the answers of three systems, and the two
 * human raters' scores on five criteria (0-10, total /50), imported through
 * the same answer and grade imports a lead uses, so the raters are external
 * graders and the study's dashboard shows real-world agreement at once.
 */

export const CHATTOGOVAR_STUDY_SLUG = "demo-chattogovar";
export const CHATTOGOVAR_ATTRIBUTION =
  "Data: the chattogovar study by Mitsuhashi et al. (github.com/mitsuhashi/chattogovar), Apache License 2.0: questions, the answers of ChatTogoVar, GPT-4o and VarChat, and two human raters' scores.";

const DATA = path.join(appDir(), "lib/demo/data/chattogovar");

interface JsonlItem {
  item_id: number;
  question: string;
  answers: Record<string, { text: string }>;
}

/** The questions and answers as the answer import's JSON rows, streamed from the JSONL file. */
async function* answerRows(): AsyncGenerator<Uint8Array> {
  const lines = createInterface({ input: createReadStream(path.join(DATA, "items_with_answers.jsonl"), "utf8"), crlfDelay: Infinity });
  let first = true;
  yield Buffer.from("[");
  for await (const line of lines) {
    if (!line.trim()) continue;
    const item = JSON.parse(line) as JsonlItem;
    for (const [model, a] of Object.entries(item.answers)) {
      const row = { item_id: String(item.item_id), specialty: "Genomics", question: item.question, reference_answer: "", model, repetition: 1, response: a.text };
      yield Buffer.from(`${first ? "" : ","}${JSON.stringify(row)}`);
      first = false;
    }
  }
  yield Buffer.from("]");
}

/** Seeds the study once (its slug); an interrupted seed is finished on the next start, since both imports are idempotent. */
export async function seedChattogovar(leadId: string): Promise<{ created: boolean; studyId: string }> {
  const db = getDb();
  let created = false;
  let study = await db.study.findUnique({ where: { slug: CHATTOGOVAR_STUDY_SLUG }, select: { id: true, status: true } });
  if (!study) {
    try {
      study = await db.study.create({
        data: {
          name: "ChatTogoVar: genomic-variant answers rated by two experts (real data)",
          slug: CHATTOGOVAR_STUDY_SLUG,
          description: `150 questions about genomic variants answered by three systems and scored 0-10 on five criteria by two human raters, imported as published. ${CHATTOGOVAR_ATTRIBUTION}`,
          rubrics: [CHATTOGOVAR_RUBRIC],
          repetitions: 1,
          gradersPerSet: 2,
          thresholds: DEFAULT_THRESHOLDS,
          status: "OPEN",
          openedAt: new Date(),
          createdById: leadId,
          members: { create: { userId: leadId, role: "LEAD" } },
        },
        select: { id: true, status: true },
      });
      created = true;
    } catch (err) {
      if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
        study = await db.study.findUniqueOrThrow({ where: { slug: CHATTOGOVAR_STUDY_SLUG }, select: { id: true, status: true } });
      } else throw err;
    }
  }
  if (study.status === "CLOSED") return { created, studyId: study.id };
  try {
    await importIntoStudy({ study: { id: study.id, status: "OPEN", repetitions: 1 }, actorId: leadId, contentType: "application/json", body: answerRows(), maxBytes: 64 * 1024 * 1024 });
    const ratings = path.join(DATA, "ratings_long.csv");
    const header = readFileSync(ratings, "utf8").split("\n", 1)[0].split(",");
    await importGrades({ study: { id: study.id }, actorId: leadId, mapping: guessLongMapping(header)!, tables: fileTables(ratings, "csv") });
    // GPT-4o's own scores of the same answers, as an automated judge beside the two raters.
    await importChattogovarJudge(study.id, readFileSync(path.join(DATA, "gpt-4o-judge.csv"), "utf8"), leadId);
  } catch (err) {
    // Two starts seeding at once: the other finished and closed the study first.
    if (err instanceof ApiError && err.status === 409) return { created, studyId: study.id };
    throw err;
  }
  await db.$transaction(async (tx) => {
    const { count } = await tx.study.updateMany({ where: { id: study.id, status: "OPEN" }, data: { status: "CLOSED", closedAt: new Date() } });
    if (count === 0) return;
    await recordAudit(tx, { actorId: leadId, action: "study.status", entityType: "Study", entityId: study.id, studyId: study.id, before: { status: "OPEN" }, after: { status: "CLOSED" } });
  });
  return { created, studyId: study.id };
}
