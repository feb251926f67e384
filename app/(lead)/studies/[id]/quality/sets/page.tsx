import type { Metadata } from "next";
import Link from "next/link";
import { qualitySetLists, type QualitySetRow } from "@/lib/quality-tasks/sets";
import { loadStudyForPage } from "@/lib/studies/page-access";

export const metadata: Metadata = { title: "Calibration and gold sets" };

const PURPOSE = { CALIBRATION: "Calibration", GOLD: "Gold" } as const;
const firstLine = (q: string) => (q.length > 120 ? `${q.slice(0, 117)}…` : q);

function SetTable({ rows, caption, studyId, action }: { rows: QualitySetRow[]; caption: string; studyId: string; action: (r: QualitySetRow) => string }) {
  return (
    <div tabIndex={0} role="region" aria-label={caption} className="overflow-auto rounded-md border border-border focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b text-left">
            <th scope="col" className="px-2 py-2 font-medium">Question</th>
            <th scope="col" className="px-2 py-2 font-medium">Model</th>
            <th scope="col" className="px-2 py-2 font-medium">Purpose</th>
            <th scope="col" className="px-2 py-2 text-right font-medium">Expected scores</th>
            <th scope="col" className="px-2 py-2 text-right font-medium">Tasks dealt</th>
            <th scope="col" className="px-2 py-2 font-medium">
              <span className="sr-only">Action</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} className="border-b last:border-0" data-set={r.id}>
              <th scope="row" className="px-2 py-2 text-left font-normal">
                <span className="font-mono text-xs">{r.externalId}</span> {firstLine(r.question)}
              </th>
              <td className="px-2 py-2">{r.model}</td>
              <td className="px-2 py-2">{r.purpose ? PURPOSE[r.purpose] : "–"}</td>
              <td className="px-2 py-2 text-right tabular-nums">{r.purpose ? `${r.cells} (±${r.tolerance})` : "–"}</td>
              <td className="px-2 py-2 text-right tabular-nums">{r.tasks}</td>
              <td className="px-2 py-2">
                <Link className="underline" href={`/studies/${studyId}/quality/sets/${r.id}`}>
                  {action(r)}
                  <span className="sr-only">
                    {" "}
                    {r.externalId}, {r.model}
                  </span>
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The study's calibration and gold sets (leads of the study and admins): those marked, and the
 * sets nobody was given that can be marked (a set already dealt as real work cannot: its grades count).
 */
export default async function QualitySetsPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { id } = await params;
  const raw = (await searchParams).q;
  const q = (typeof raw === "string" ? raw : "").slice(0, 200);
  const { study } = await loadStudyForPage(id);
  const { marked, candidates, more } = await qualitySetLists(study.id, q);
  return (
    <div className="flex flex-col gap-6">
      <p className="text-sm">
        <Link href={`/studies/${study.id}/quality`} className="text-muted-foreground underline hover:text-foreground">
          ← Graders&apos; quality
        </Link>
      </p>
      <section aria-labelledby="marked" className="flex flex-col gap-3">
        <h2 id="marked" className="text-lg font-semibold">
          Calibration and gold sets
        </h2>
        <p className="text-sm text-muted-foreground">
          A calibration set is graded before real work, and the grader then sees the expected scores and why. A gold set is slipped into graders&apos; queues looking like any
          other set. Neither is dealt as real work, and their grades never count in results.
        </p>
        {marked.length ? <SetTable rows={marked} caption="Marked calibration and gold sets" studyId={study.id} action={() => "Change"} /> : <p className="text-sm text-muted-foreground">No set marked yet.</p>}
      </section>
      <section aria-labelledby="candidates" className="flex flex-col gap-3">
        <h2 id="candidates" className="text-lg font-semibold">
          Sets that can be marked
        </h2>
        <p className="text-sm text-muted-foreground">Only a set nobody was given can be marked. Mark sets before assigning graders, or add questions kept apart for this.</p>
        <form className="flex flex-wrap items-end gap-2" role="search">
          <label htmlFor="q" className="flex flex-col gap-1 text-sm">
            Find by question id or text
            <input id="q" name="q" defaultValue={q} className="h-9 rounded-md border border-border bg-background px-3 text-sm" />
          </label>
          <button type="submit" className="h-9 rounded-md border border-border px-3 text-sm">
            Find
          </button>
        </form>
        {candidates.length ? (
          <SetTable rows={candidates} caption="Sets nobody was given" studyId={study.id} action={() => "Mark"} />
        ) : (
          <p className="text-sm text-muted-foreground">{q ? "No unassigned set matches." : "Every set is assigned as real work."}</p>
        )}
        {more ? <p className="text-sm text-muted-foreground">Showing the first {candidates.length}: narrow the search to find others.</p> : null}
      </section>
    </div>
  );
}
