import type { Metadata } from "next";
import Link from "next/link";
import { myCalibrations } from "@/lib/quality-tasks/calibration";
import { GRADER_ROLES, requireUser } from "@/lib/server/page-guard";

export const metadata: Metadata = { title: "My calibration" };

const pct = (x: number | null) => (x === null ? "–" : `${Math.round(x * 100)}%`);

/**
 * The grader's own calibration feedback (GET /api/v1/me/calibration): per completed round and
 * set, each dimension's score, the expected one and the lead's rationale. Sets are numbered, never
 * named; nothing of another grader's is shown.
 */
export default async function CalibrationPage() {
  const user = await requireUser(GRADER_ROLES);
  const studies = await myCalibrations(user.id);
  return (
    <section className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">My calibration</h1>
        <p className="mt-1 max-w-2xl text-sm text-muted-foreground">
          Before real work, some studies ask you to grade a few calibration sets whose expected scores a panel agreed on. After each round you see your score,
          the expected one and why. <Link className="text-foreground underline" href="/queue">Back to my queue</Link>
        </p>
      </div>
      {studies.length === 0 ? <p className="text-sm text-muted-foreground">None of your studies asks for calibration.</p> : null}
      {studies.map((s) => (
        <section key={s.studyId} aria-labelledby={`cal-${s.studyId}`} className="flex flex-col gap-3">
          <h2 id={`cal-${s.studyId}`} className="text-lg font-semibold">
            {s.title}: {s.passed ? "passed" : s.required ? "not passed yet" : "optional"}
          </h2>
          <p className="text-sm text-muted-foreground">To pass a round, at least {pct(s.passShare)} of its scores must be within the tolerance of the expected ones.</p>
          {s.rounds.map((r) => (
            <div key={r.round} className="flex flex-col gap-2 rounded-lg border p-4">
              <h3 className="font-medium">
                Round {r.round}: {r.complete ? `${pct(r.share)} within tolerance, ${r.passed ? "passed" : "not passed: a new round is in your queue"}` : "in your queue"}
              </h3>
              {r.sets.map((set) => (
                <div key={set.number} className="flex flex-col gap-1">
                  <table className="w-full text-sm">
                    <caption className="text-left font-medium">
                      Calibration set {set.number} (tolerance ±{set.tolerance})
                    </caption>
                    <thead>
                      <tr className="border-b text-left">
                        <th scope="col" className="py-1 pr-3 font-medium">Dimension</th>
                        <th scope="col" className="py-1 pr-3 font-medium">Answer</th>
                        <th scope="col" className="py-1 pr-3 text-right font-medium">Your score</th>
                        <th scope="col" className="py-1 pr-3 text-right font-medium">Expected</th>
                        <th scope="col" className="py-1 pr-3 font-medium">Within tolerance</th>
                      </tr>
                    </thead>
                    <tbody>
                      {set.cells.map((c) => (
                        <tr key={`${c.rubric}/${c.dimension}/${c.repetition}`} className="border-b last:border-0">
                          <td className="py-1 pr-3">{c.dimensionName}</td>
                          <td className="py-1 pr-3">{c.repetition === null ? "whole set" : `Answer ${c.repetition}`}</td>
                          <td className="py-1 pr-3 text-right tabular-nums">{c.score ?? "–"}</td>
                          <td className="py-1 pr-3 text-right tabular-nums">{c.expected}</td>
                          <td className="py-1 pr-3">{c.within ? "yes" : "no"}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                  {set.rationale ? <p className="text-sm text-muted-foreground">Why: {set.rationale}</p> : null}
                </div>
              ))}
            </div>
          ))}
        </section>
      ))}
    </section>
  );
}
