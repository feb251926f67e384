import { esc } from "./format";
import type { ReportModel, ReportTable } from "./types";

/** The report as one self-contained HTML page (figures inline as SVG); every text escaped. */
export function reportHtml(model: ReportModel): string {
  const table = (t: ReportTable) =>
    `<figure class="table" id="table-${esc(t.id)}"><table><caption>${esc(t.caption)}</caption><thead><tr>${t.columns.map((c) => `<th scope="col">${esc(c)}</th>`).join("")}</tr></thead><tbody>${t.rows
      .map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`)
      .join("")}</tbody></table>${t.note ? `<p class="note">${esc(t.note)}</p>` : ""}</figure>`;
  const sections = model.sections
    .map(
      (s) =>
        `<section><h2>${esc(s.heading)}</h2>${s.paragraphs.map((p) => `<p>${esc(p)}</p>`).join("")}${s.bullets?.length ? `<ul>${s.bullets.map((b) => `<li>${esc(b)}</li>`).join("")}</ul>` : ""}${s.tables.map(table).join("")}${s.figures
          .map((f) => `<figure id="figure-${esc(f.id)}">${f.svg}<figcaption>${esc(f.caption)}</figcaption></figure>`)
          .join("")}</section>`,
    )
    .join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(model.title)}: study report</title><meta name="viewport" content="width=device-width, initial-scale=1"><style>
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#0f172a;line-height:1.5}
table{border-collapse:collapse;font-size:.85rem;width:100%}caption{text-align:left;font-weight:600;padding:.5rem 0}
th,td{border-bottom:1px solid #cbd5e1;padding:.25rem .5rem;text-align:left;vertical-align:top}th{background:#f1f5f9}
.note,figcaption{font-size:.8rem;color:#334155}figure{margin:1.5rem 0}svg{max-width:100%;height:auto}
</style></head><body><main><h1>${esc(model.title)}</h1><p>${esc(model.subtitle)}</p><p class="note">Generated ${esc(model.generatedAt)}</p>${sections}</main></body></html>`;
}
