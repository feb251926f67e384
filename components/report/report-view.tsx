import type { ReportModel } from "@/lib/report/types";

/** The study report on a page: the same sections, tables and figures as the PDF and Word files. */
export function ReportView({ model }: { model: ReportModel }) {
  return (
    <article className="flex max-w-4xl flex-col gap-6" aria-label="Study report">
      {model.sections.map((s) => (
        <section key={s.heading} className="flex flex-col gap-3">
          <h3 className="text-lg font-semibold">{s.heading}</h3>
          {s.paragraphs.map((p) => (
            <p key={p} className="text-sm leading-relaxed">
              {p}
            </p>
          ))}
          {s.bullets?.length ? (
            <ul className="list-disc pl-5 text-sm">
              {s.bullets.map((b) => (
                <li key={b}>{b}</li>
              ))}
            </ul>
          ) : null}
          {s.tables.map((t) => (
            <div key={t.id} className="overflow-x-auto">
              <table className="w-full text-xs">
                <caption className="pb-1 text-left text-sm font-medium">{t.caption}</caption>
                <thead>
                  <tr>
                    {t.columns.map((c) => (
                      <th key={c} scope="col" className="border-b border-border bg-muted px-2 py-1 text-left">
                        {c}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {t.rows.map((r, i) => (
                    <tr key={i}>
                      {r.map((c, j) => (
                        <td key={j} className="border-b border-border px-2 py-1 align-top tabular-nums">
                          {c}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
              {t.note ? <p className="pt-1 text-xs text-muted-foreground">{t.note}</p> : null}
            </div>
          ))}
          {s.figures.map((f) => (
            <figure key={f.id} className="flex flex-col gap-1">
              {/* eslint-disable-next-line @next/next/no-img-element -- an inline SVG of our own, as a data URL (no markup injected into the page) */}
              <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(f.svg)}`} alt={f.caption} width={f.width} height={f.height} className="h-auto max-w-full" />
              <figcaption className="text-xs text-muted-foreground">{f.caption}</figcaption>
            </figure>
          ))}
        </section>
      ))}
    </article>
  );
}
