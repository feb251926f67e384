import { getDb } from "@/lib/db/client";
import { readJudgeCsv } from "./read";
import { judgeRowsRejected, writeJudgeScores, type WriteJudgeScoresResult } from "./write";

/**
 * The real demo of automated judges: GPT-4o's own scores of the chattogovar
 * answers (mitsuhashi/chattogovar, Apache-2.0), as the judge-scores CSV made by
 * scripts/realdata/chattogovar-judge.py (tests/fixtures/realdata/chattogovar/gpt-4o-judge.csv).
 * For a study with the chattogovar rubric whose items are the study's item_id
 * (1-150) and whose models are the three systems. Registers the judge once;
 * importing again changes nothing.
 */
export const CHATTOGOVAR_JUDGE = {
  name: "GPT-4o (chattogovar authors' run)",
  model: "gpt-4o",
  version: "",
  prompt: "The chattogovar authors' LLM evaluation: GPT-4o scored each answer 0-10 on Accuracy, Completeness, Logical Consistency, Clarity and Conciseness, Evidence Support.",
} as const;

export async function importChattogovarJudge(studyId: string, csv: string, actorId: string | null = null): Promise<WriteJudgeScoresResult> {
  const db = getDb();
  const judge = await db.automatedJudge.upsert({
    where: { studyId_name: { studyId, name: CHATTOGOVAR_JUDGE.name } },
    create: { studyId, ...CHATTOGOVAR_JUDGE, createdById: actorId },
    update: {},
    select: { id: true },
  });
  const read = readJudgeCsv(csv);
  if (read.problems.length) throw judgeRowsRejected(read.problems);
  return writeJudgeScores({ studyId, judgeId: judge.id, rows: read.rows, rowNumber: (i) => read.rowNumbers[i], actorId });
}
