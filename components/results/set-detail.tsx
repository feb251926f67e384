import { Markdown } from "@/components/grading/markdown";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { RubricDimension, RubricDocument } from "@/lib/rubrics/document";
import type { SetDetail, SetDetailCell, SetDetailGrader } from "@/lib/results/set-detail";

/**
 * A set's detail for its lead (server component): the graders side by side,
 * one table per rubric with a row per dimension (and answer), labels from the
 * study's rubric documents; then harm flags, the escalation, and the audit
 * timeline.
 */

const f2 = (v: unknown) => (typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : v === null || v === undefined ? "—" : String(v));
const when = (iso: string) => new Date(iso).toISOString().replace("T", " ").slice(0, 16) + " UTC";

/** A cell as the grader gave it: the level's value (nominal: its label), N/A, or a criterion's met/not met. */
function cellText(dim: RubricDimension, c: SetDetailCell | undefined): string {
  if (!c) return "—";
  if (c.na) return "N/A";
  if (dim.scale.kind === "criteria") return c.score === null ? "—" : c.score > 0 ? "met" : "not met";
  if (c.category !== null) return dim.scale.levels?.find((l) => l.value === c.category)?.label ?? c.category;
  return c.score === null ? "—" : String(c.score);
}

/** A final value as the lead reads it: a number to two places, a nominal level by its label, N/A. */
function finalText(dim: RubricDimension, v: number | string | null | undefined): string {
  if (typeof v === "string" && v !== "N/A") return dim.scale.levels?.find((l) => l.value === v)?.label ?? v;
  return f2(v);
}

type Row = { key: string; label: string; dim: RubricDimension; repetition: number; criterion: string; acrossAnswers?: boolean };

/**
 * The rows a rubric shows: each dimension once, or once per answer when graded
 * on each answer (then a row for its value over the answers); criteria per criterion.
 */
function rowsOf(doc: RubricDocument, graders: SetDetailGrader[], repetitions: number) {
  const rows: Row[] = [];
  for (const dim of doc.dimensions) {
    if (dim.scale.kind === "criteria") {
      const criteria = [...new Set(graders.flatMap((g) => g.cells.filter((c) => c.rubric === doc.key && c.dimension === dim.key).map((c) => c.criterion)))].sort();
      for (const cr of criteria) rows.push({ key: `${dim.key}:${cr}`, label: `${dim.name} · ${cr}`, dim, repetition: -1, criterion: cr });
    } else if (dim.scope === "each_answer") {
      for (let r = 1; r <= repetitions; r++) rows.push({ key: `${dim.key}:${r}`, label: `${dim.name} · answer ${r}`, dim, repetition: r, criterion: "" });
      if (repetitions > 1) rows.push({ key: `${dim.key}:all`, label: `${dim.name} · over the ${repetitions} answers`, dim, repetition: -1, criterion: "", acrossAnswers: true });
    } else rows.push({ key: dim.key, label: dim.name, dim, repetition: -1, criterion: "" });
  }
  return rows;
}

/** The Final column of a row: per answer from finalPerAnswer, else the dimension's final score; criteria have none of their own. */
function finalOf(d: SetDetail, rubric: string, row: Row): string {
  if (!d.finalScores || row.criterion) return row.criterion ? "" : "—";
  if (row.repetition > 0) return finalText(row.dim, d.finalPerAnswer?.[rubric]?.[row.dim.key]?.[row.repetition - 1]);
  return finalText(row.dim, d.finalScores[rubric]?.[row.dim.key]);
}

const cellOf = (g: SetDetailGrader, rubric: string, row: Row) =>
  g.cells.find((c) => c.rubric === rubric && c.dimension === row.dim.key && c.criterion === row.criterion && (row.repetition === -1 || c.repetition === row.repetition));

const metric = (v: number | null) => (v === null ? "–" : v.toFixed(3));

/**
 * Each answer's BLEU, ROUGE-1 and ROUGE-L against the reference answer, and its embedding
 * similarity once a run computed it; nothing when the question has no reference answer.
 */
function ReferenceMetrics({ answers }: { answers: SetDetail["answers"] }) {
  if (!answers.some((a) => a.bleu !== null)) return null;
  const embedded = answers.some((a) => a.embeddingSimilarity !== null);
  return (
    <table className="w-fit text-sm" data-testid="reference-metrics">
      <caption className="mb-1 text-left text-sm font-medium">Against the reference answer (0-1{embedded ? "; embedding similarity: cosine, -1 to 1" : ""})</caption>
      <thead>
        <tr className="text-left text-muted-foreground">
          <th scope="col" className="pr-4 font-medium">Answer</th>
          <th scope="col" className="pr-4 font-medium">BLEU</th>
          <th scope="col" className="pr-4 font-medium">ROUGE-1</th>
          <th scope="col" className="pr-4 font-medium">ROUGE-L</th>
          {embedded ? (
            <th scope="col" className="font-medium">
              Embedding similarity
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {answers.map((a) => (
          <tr key={a.repetition}>
            <th scope="row" className="pr-4 text-left font-normal">{a.repetition}</th>
            <td className="pr-4 tabular-nums">{metric(a.bleu)}</td>
            <td className="pr-4 tabular-nums">{metric(a.rouge1)}</td>
            <td className="pr-4 tabular-nums">{metric(a.rougeL)}</td>
            {embedded ? <td className="tabular-nums">{metric(a.embeddingSimilarity)}</td> : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function SetDetailView({ detail: d, rubrics, repetitions }: { detail: SetDetail; rubrics: RubricDocument[]; repetitions: number }) {
  const comments = d.graders.flatMap((g) => g.cells.filter((c) => c.comment).map((c) => ({ g, c })));
  return (
    <div className="flex flex-col gap-6" data-testid="set-detail">
      <Card>
        <CardHeader>
          <CardTitle>
            {d.externalId} · {d.model.name} <span className="font-normal text-muted-foreground">{d.model.version}</span>
          </CardTitle>
          <p className="text-sm text-muted-foreground">
            {d.specialty} · <Badge variant="outline">{d.status.toLowerCase().replaceAll("_", " ")}</Badge>
          </p>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          <p className="whitespace-pre-wrap text-sm">{d.question}</p>
          <details>
            <summary className="cursor-pointer text-sm font-medium">The {d.answers.length} answers</summary>
            <ol className="mt-2 flex flex-col gap-3">
              {d.answers.map((a) => (
                <li key={a.repetition} className="rounded-md border border-border p-3">
                  <p className="mb-1 text-xs font-medium text-muted-foreground">Answer {a.repetition}</p>
                  <Markdown>{a.text}</Markdown>
                </li>
              ))}
            </ol>
          </details>
          <ReferenceMetrics answers={d.answers} />
        </CardContent>
      </Card>

      <section aria-labelledby="scores-h" className="flex flex-col gap-3">
        <h2 id="scores-h" className="text-lg font-semibold">
          Scores by grader
        </h2>
        {d.graders.length === 0 ? <p className="text-sm text-muted-foreground">No grader has this set yet.</p> : null}
        {d.graders.length > 0 &&
          rubrics.map((doc) => (
            <Table key={doc.key} aria-label={`${doc.name} scores`}>
              <caption className="p-2 text-left font-medium">{doc.name}</caption>
              <TableHeader>
                <TableRow>
                  <TableHead>Dimension</TableHead>
                  {d.graders.map((g) => (
                    <TableHead key={g.assignmentId} className="text-right">
                      {g.grader}
                      <span className="block text-xs font-normal text-muted-foreground">
                        {g.kind === "ADJUDICATOR" ? "adjudicator" : "primary"} · {g.status.toLowerCase().replaceAll("_", " ")}
                      </span>
                    </TableHead>
                  ))}
                  <TableHead className="text-right">Final</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rowsOf(doc, d.graders, repetitions).map((row) => (
                  <TableRow key={row.key} className={row.acrossAnswers ? "bg-muted/20" : undefined}>
                    <TableCell>{row.label}</TableCell>
                    {d.graders.map((g) => (
                      <TableCell key={g.assignmentId} className="text-right tabular-nums">
                        {row.acrossAnswers ? "" : cellText(row.dim, cellOf(g, doc.key, row))}
                      </TableCell>
                    ))}
                    <TableCell className="text-right font-medium tabular-nums" data-testid={`final-${doc.key}-dim-${row.key}`}>
                      {finalOf(d, doc.key, row)}
                    </TableCell>
                  </TableRow>
                ))}
                {doc.totals.map((t) => (
                  <TableRow key={`total:${t.key}`} className="bg-muted/30">
                    <TableCell className="font-medium">{t.name}</TableCell>
                    {d.graders.map((g) => (
                      <TableCell key={g.assignmentId} />
                    ))}
                    <TableCell className="text-right font-semibold tabular-nums" data-testid={`final-${doc.key}-${t.key}`}>
                      {f2(d.totals?.[doc.key]?.[t.key])}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          ))}
        {d.graders.length > 0 && !d.finalScores ? <p className="text-sm text-muted-foreground">Final scores exist once the set is agreed or adjudicated.</p> : null}
      </section>

      {comments.length > 0 ? (
        <section aria-labelledby="comments-h" className="flex flex-col gap-2">
          <h2 id="comments-h" className="text-lg font-semibold">
            Comments
          </h2>
          <ul className="flex flex-col gap-2 text-sm">
            {comments.map(({ g, c }) => {
              const doc = rubrics.find((r) => r.key === c.rubric);
              const dim = doc?.dimensions.find((x) => x.key === c.dimension);
              return (
                <li key={`${g.assignmentId}:${c.rubric}:${c.dimension}:${c.repetition}:${c.criterion}`} className="rounded-md border border-border p-2">
                  <span className="font-medium">{g.grader}</span> on {doc?.name ?? c.rubric} · {dim?.name ?? c.dimension}
                  {c.repetition > 0 && dim?.scope === "each_answer" ? ` · answer ${c.repetition}` : ""}: <span className="whitespace-pre-wrap">{c.comment}</span>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="harm-h" className="flex flex-col gap-2">
        <h2 id="harm-h" className="text-lg font-semibold">
          Harm flags
        </h2>
        {d.graders.some((g) => g.harm) ? (
          <ul className="flex flex-col gap-2 text-sm" data-testid="set-harm-flags">
            {d.graders.map((g) =>
              g.harm ? (
                <li key={g.assignmentId} className="rounded-md border border-destructive/40 p-2">
                  <span className="font-medium">{g.grader}</span>: <span className="whitespace-pre-wrap">{g.harm.comment}</span>
                  <span className="block text-muted-foreground">
                    Review: {g.harm.review.status.toLowerCase()}
                    {g.harm.review.note ? ` — ${g.harm.review.note}` : ""}
                    {g.harm.review.reviewer ? ` (${g.harm.review.reviewer}, ${when(g.harm.review.reviewedAt!)})` : ""}
                  </span>
                </li>
              ) : null,
            )}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">No grader flagged potential harm.</p>
        )}
      </section>

      {d.answers.length >= 2 ? (
        <section aria-labelledby="contra-h" className="flex flex-col gap-2">
          <h2 id="contra-h" className="text-lg font-semibold">
            Contradiction flags
          </h2>
          {d.graders.some((g) => g.contradiction) ? (
            <ul className="flex flex-col gap-2 text-sm" data-testid="set-contradiction-flags">
              {d.graders.map((g) =>
                g.contradiction ? (
                  <li key={g.assignmentId} className="rounded-md border border-border p-2">
                    <span className="font-medium">{g.grader}</span>: the answers contradict each other
                    {g.contradiction.note ? <span className="whitespace-pre-wrap"> — {g.contradiction.note}</span> : null}
                  </li>
                ) : null,
              )}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">No grader flagged the answers as contradicting each other.</p>
          )}
        </section>
      ) : null}

      <section aria-labelledby="esc-h" className="flex flex-col gap-2">
        <h2 id="esc-h" className="text-lg font-semibold">
          Escalation and adjudication
        </h2>
        {d.escalation ? (
          <div className="text-sm" data-testid="set-escalation">
            <p>
              {d.escalation.status.toLowerCase().replaceAll("_", " ")} · escalated {when(d.escalation.createdAt)}
              {d.escalation.resolvedAt ? ` · closed ${when(d.escalation.resolvedAt)}` : ""} · adjudicator: {d.escalation.adjudicator ?? "none yet"}
            </p>
            <ul className="mt-1 list-disc pl-5">
              {d.escalation.dimensions.map((x) => {
                const doc = rubrics.find((r) => r.key === x.rubric);
                return (
                  <li key={`${x.rubric}:${x.dimension}`}>
                    {doc?.name ?? x.rubric} · {doc?.dimensions.find((dd) => dd.key === x.dimension)?.name ?? x.dimension}: {x.values.map((v) => `${v.grader} ${v.value}`).join(", ")}
 ({x.reason})
                  </li>
                );
              })}
            </ul>
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">Not escalated.</p>
        )}
      </section>

      <section aria-labelledby="timeline-h" className="flex flex-col gap-2">
        <h2 id="timeline-h" className="text-lg font-semibold">
          Audit timeline
        </h2>
        {d.timeline.length === 0 ? <p className="text-sm text-muted-foreground">Nothing recorded about this set yet.</p> : null}
        <ol className="flex flex-col gap-2 text-sm" data-testid="set-timeline">
          {d.timeline.map((e) => (
            <li key={e.id} className="border-l-2 border-border pl-3">
              <p>
                <time dateTime={e.createdAt} className="text-muted-foreground">
                  {when(e.createdAt)}
                </time>{" "}
                <span className="font-mono text-xs">{e.action}</span> · {e.about} · by {e.actor ?? "the system"}
              </p>
              {e.changes.length > 0 ? (
                <details>
                  <summary className="cursor-pointer text-xs text-muted-foreground">{e.changes.length} changes</summary>
                  <ul className="text-xs">
                    {e.changes.map((c) => (
                      <li key={c.field}>
                        {c.field}: {c.before ?? "—"} → {c.after ?? "—"}
                      </li>
                    ))}
                  </ul>
                </details>
              ) : null}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
