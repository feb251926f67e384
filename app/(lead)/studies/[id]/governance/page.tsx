import type { Metadata } from "next";
import Link from "next/link";
import { DecisionForm } from "@/components/governance/decision-form";
import { RuleForm } from "@/components/governance/rule-form";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { triageReport, type TriageRow } from "@/lib/governance/service";
import { DEFAULT_TRIAGE_RULE } from "@/lib/governance/triage";
import { loadStudyForPage } from "@/lib/studies/page-access";

export const metadata: Metadata = { title: "Governance" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const VERDICT: Record<NonNullable<TriageRow["verdict"]>, { label: string; variant: "success" | "warning" | "default" }> = {
  accept: { label: "accept", variant: "success" },
  review: { label: "review", variant: "warning" },
  reject: { label: "reject", variant: "default" },
};
const FILTERS = [
  { value: "", label: "All" },
  { value: "review", label: "To review" },
  { value: "reject", label: "To reject" },
  { value: "accept", label: "To accept" },
  { value: "undecided", label: "Not decided" },
] as const;

const pct = (x: number) => `${Math.round(x * 100)}%`;
const graders = (n: number) => `${n} grader${n === 1 ? "" : "s"}`;
const flagRule = (review: number | null, reject: number | null) =>
  [review !== null ? `review from ${graders(review)} flagging a contradiction` : null, reject !== null ? `reject from ${graders(reject)}` : null].filter(Boolean).join(", ") ||
  "contradiction flags shown but not escalating";
const fmt = (v: number | null) => (v === null ? "—" : Number.isInteger(v) ? String(v) : v.toFixed(2));

export default async function GovernancePage({ params, searchParams }: Props) {
  const { id } = await params;
  const { study } = await loadStudyForPage(id);
  const raw = (await searchParams).verdict;
  const filter = FILTERS.some((f) => f.value === raw) ? (raw as string) : "";
  const report = await triageReport(study.id);
  if (report.repetitions < 2) {
    return <p className="max-w-3xl text-sm text-muted-foreground">The stability triage compares a question&apos;s answers: this study has one answer per question and model, so there is nothing to triage.</p>;
  }
  const rows = report.sets.filter((s) => (filter === "" ? true : filter === "undecided" ? s.decision === null : s.verdict === filter));
  return (
    <div className="flex flex-col gap-6">
      <section className="flex max-w-3xl flex-col gap-2 text-sm text-muted-foreground">
        <p>
          Every final set is triaged by how much its {report.repetitions} answers drift: the largest spread of a dimension scored on each answer (the
          largest final value minus the smallest), or how far a dimension graded across the answers sits below the top of its scale, each as a share of
          its scale. Consistent sets are proposed for acceptance, minor drift for review, major drift for rejection; you decide each set with a note
          (kept in the audit log). Beside each verdict, how alike the answers read (the mean ROUGE-L F1 between each pair of answers, 0-1): word
          overlap, which cannot tell a reworded answer from a contradicting one, so it informs your review and does not decide it.
        </p>
        <p>
          Contradictions escalate: {report.askContradictions ? "each grader is asked" : "graders were asked (this study no longer asks)"} whether the
          set&apos;s answers contradict each other, and the number who said so can only make a set&apos;s verdict worse.
        </p>
        <p>
          {report.defaultRule ? "The default rule" : "This study's rule"}: accept at most {pct(report.rule.acceptAtMost)} of the scale, review up to{" "}
          {pct(report.rule.reviewAtMost)}, reject above; {flagRule(report.rule.reviewAtFlags, report.rule.rejectAtFlags)}.
          {report.defaultRule ? null : (
            <>
              {" "}
              The defaults: accept at most {pct(DEFAULT_TRIAGE_RULE.acceptAtMost)}, review up to {pct(DEFAULT_TRIAGE_RULE.reviewAtMost)};{" "}
              {flagRule(DEFAULT_TRIAGE_RULE.reviewAtFlags, DEFAULT_TRIAGE_RULE.rejectAtFlags)}.
            </>
          )}
        </p>
        <RuleForm studyId={study.id} rule={report.rule} isDefault={report.defaultRule} />
      </section>

      <section className="flex flex-col gap-2">
        <h2 className="text-base font-semibold">Per model and specialty</h2>
        <Table aria-label="Triage per model and specialty">
          <TableHeader>
            <TableRow>
              {["Model", "Specialty", "Accept", "Review", "Reject", "No verdict", "Flagged contradicting", "Accepted", "Rejected"].map((h) => (
                <TableHead key={h}>{h}</TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {report.counts.map((c) => (
              <TableRow key={`${c.model}-${c.specialty}`}>
                <TableCell>{c.model}</TableCell>
                <TableCell>{c.specialty}</TableCell>
                <TableCell>{c.accept}</TableCell>
                <TableCell>{c.review}</TableCell>
                <TableCell>{c.reject}</TableCell>
                <TableCell>{c.unread}</TableCell>
                <TableCell>{c.contradicted}</TableCell>
                <TableCell>{c.accepted}</TableCell>
                <TableCell>{c.rejected}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </section>

      <section className="flex flex-col gap-2">
        <h2 className="text-base font-semibold">Queue</h2>
        <nav aria-label="Filter the queue" className="flex flex-wrap gap-2 text-sm">
          {FILTERS.map((f) => (
            <Link
              key={f.value}
              href={f.value ? `?verdict=${f.value}` : "?"}
              aria-current={filter === f.value ? "page" : undefined}
              className={filter === f.value ? "font-medium underline" : "text-muted-foreground hover:text-foreground"}
            >
              {f.label}
            </Link>
          ))}
        </nav>
        <Table aria-label="Triage queue">
          <TableHeader>
            <TableRow>
              {["Item", "Specialty", "Model", "Drift", "Contradiction flags", "Proposed", "Read from", "Answers alike (ROUGE-L)", "Decision"].map((h) => (
                <TableHead key={h}>{h}</TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((s) => {
              const top = s.sources[0];
              const label = `${s.itemId}, ${s.model}`;
              return (
                <TableRow key={s.setId}>
                  <TableCell>
                    <Link className="underline" href={`/studies/${study.id}/results/${s.setId}`}>
                      {s.itemId}
                    </Link>
                  </TableCell>
                  <TableCell>{s.specialty}</TableCell>
                  <TableCell>{s.model}</TableCell>
                  <TableCell>{s.drift === null ? "—" : pct(s.drift)}</TableCell>
                  <TableCell className="text-xs" data-testid="contradiction-flags">
                    <span className={s.contradictions > 0 ? "font-medium text-foreground" : "text-muted-foreground"}>
                      {s.contradictions} of {graders(s.graders)}
                    </span>
                    {s.contradictionNotes.length ? (
                      <ul className="mt-1 list-disc pl-4 text-muted-foreground">
                        {s.contradictionNotes.map((n, i) => (
                          <li key={i}>{n}</li>
                        ))}
                      </ul>
                    ) : null}
                  </TableCell>
                  <TableCell>{s.verdict ? <Badge variant={VERDICT[s.verdict].variant}>{VERDICT[s.verdict].label}</Badge> : "no dimension to read"}</TableCell>
                  <TableCell className="text-xs">
                    {top ? (top.kind === "spread" ? `${top.name}: answers ${top.values.map(fmt).join(", ")}` : `${top.name}: ${fmt(top.values[0])} across the answers`) : "—"}
                  </TableCell>
                  <TableCell>{s.mutualRougeL === null ? "—" : s.mutualRougeL.toFixed(2)}</TableCell>
                  <TableCell>
                    {s.decision ? (
                      <p className="mb-1 text-xs text-muted-foreground">
                        {s.decision.decision === "ACCEPTED" ? "Accepted" : "Rejected"}: {s.decision.note}
                      </p>
                    ) : null}
                    <DecisionForm studyId={study.id} setId={s.setId} label={label} current={s.decision} />
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
        {rows.length === 0 ? <p className="text-sm text-muted-foreground">No final set in this view.</p> : null}
      </section>
    </div>
  );
}
