import pg from "pg";
import { databaseUrl } from "@/lib/db/url";
import { ApiError } from "@/lib/errors/api-error";
import { ScreenMatcher, type RuleHit } from "./match";
import type { ScreenRule } from "./rules";

/**
 * The screen's worker thread (./worker.ts): reads the study's answers a page
 * at a time on a connection of its own (no Prisma in the thread) and matches
 * the rules against each; the parent stores what it answers (./service.ts).
 */

export interface ScreenJob {
  studyId: string;
  rules: ScreenRule[];
  budgetMs: number;
  /** Shared with the parent, which stops the thread when one match outlasts the budget (./run.ts). */
  progress: SharedArrayBuffer;
}

export interface AnswerHits {
  responseId: string;
  hits: RuleHit[];
}

export interface ScreenJobResult {
  answers: number;
  screened: AnswerHits[];
}

const PAGE = 2000;
/** Answer x rule hits one screen may store: past this the rules are too broad to read as a screen. */
export const MAX_SCREEN_HITS = 200_000;

export async function runScreenJob(job: ScreenJob): Promise<ScreenJobResult> {
  const matcher = new ScreenMatcher(job.rules, job.budgetMs, new Int32Array(job.progress));
  const client = new pg.Client({ connectionString: databaseUrl(), application_name: "clingrade-screen" });
  client.on("error", () => undefined);
  await client.connect();
  try {
    const screened: AnswerHits[] = [];
    let answers = 0;
    let hits = 0;
    let after = "00000000-0000-0000-0000-000000000000";
    for (;;) {
      // Keyset pages: memory stays one page of answers, whatever the study's size.
      const { rows } = await client.query<{ id: string; text: string }>(
        `SELECT r.id, r.text FROM "Response" r JOIN "ResponseSet" rs ON rs.id = r."responseSetId"
         WHERE rs."studyId" = $1::uuid AND r.id > $2::uuid ORDER BY r.id LIMIT ${PAGE}`,
        [job.studyId, after],
      );
      for (const r of rows) {
        const found = matcher.match(r.text);
        if (found.length) {
          screened.push({ responseId: r.id, hits: found });
          hits += found.length;
          if (hits > MAX_SCREEN_HITS) {
            throw new ApiError(422, `the rules match more than ${MAX_SCREEN_HITS.toLocaleString("en")} times over the study's answers: narrow them; nothing was stored`, {
              errors: [{ path: "rules", message: "too many hits" }],
              total: 1,
            });
          }
        }
      }
      answers += rows.length;
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1].id;
    }
    return { answers, screened };
  } finally {
    await client.end().catch(() => undefined);
  }
}
