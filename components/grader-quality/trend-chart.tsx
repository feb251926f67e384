"use client";

import { useId, useState } from "react";
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import type { GraderQualityReport } from "@/lib/grader-quality/contract";

/** One grader's drift: leave-one-out bias and straight-lining per block of sets, the grader chosen from a list. */
export function TrendChart({ report }: { report: GraderQualityReport }) {
  const graders = report.graders.filter((g) => g.trend.length > 0);
  const [chosen, setChosen] = useState(graders[0]?.graderId ?? "");
  const id = useId();
  const g = graders.find((x) => x.graderId === chosen);
  if (!g) return <p className="text-sm text-muted-foreground">No submitted sets yet.</p>;
  const data = g.trend.map((b) => ({ block: `${b.block}`, bias: b.bias, straightLining: b.straightLining }));
  return (
    <figure className="flex flex-col gap-2">
      <div className="flex items-center gap-2 text-sm">
        <label htmlFor={id}>Grader</label>
        <select id={id} value={chosen} onChange={(e) => setChosen(e.target.value)} className="rounded border border-input bg-background px-2 py-1">
          {graders.map((x) => (
            <option key={x.graderId} value={x.graderId}>
              {x.name}
            </option>
          ))}
        </select>
      </div>
      <LineChart responsive style={{ width: "100%", maxWidth: 640, height: 220 }} data={data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
        <XAxis dataKey="block" tick={{ fontSize: 11, fill: "#334155" }} label={{ value: `block of ${report.trendBlock} sets`, position: "insideBottomRight", offset: -4, fontSize: 11 }} />
        <YAxis tick={{ fontSize: 11, fill: "#64748b" }} width={40} />
        <Tooltip />
        <Line type="monotone" dataKey="bias" name="Bias (points)" stroke="#1d4ed8" isAnimationActive={false} connectNulls />
        <Line type="monotone" dataKey="straightLining" name="Straight-lining (share)" stroke="#b91c1c" strokeDasharray="4 2" isAnimationActive={false} connectNulls />
      </LineChart>
      <figcaption className="text-sm text-muted-foreground">
        {report.notes.trend} Blue: bias; red, dashed: straight-lining.
      </figcaption>
      <table className="sr-only" aria-label={`Trend of ${g.name}`}>
        <thead>
          <tr>
            <th scope="col">Block</th>
            <th scope="col">Sets</th>
            <th scope="col">Bias</th>
            <th scope="col">Straight-lining</th>
          </tr>
        </thead>
        <tbody>
          {g.trend.map((b) => (
            <tr key={b.block}>
              <td>{b.block}</td>
              <td>{b.sets}</td>
              <td>{b.bias ?? "–"}</td>
              <td>{b.straightLining ?? "–"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
