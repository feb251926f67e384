import type { LegendEntry } from "./download";

/** A chart legend in HTML (the SVG download draws its own copy). */
export function Legend({ entries }: { entries: LegendEntry[] }) {
  if (entries.length === 0) return null;
  return (
    <ul className="flex flex-wrap justify-center gap-x-4 gap-y-1 text-xs text-foreground" aria-label="Legend">
      {entries.map((e) => (
        <li key={e.label} className="inline-flex items-center gap-1.5">
          <span aria-hidden className="size-3 rounded-sm" style={{ background: e.color }} />
          {e.label}
        </li>
      ))}
    </ul>
  );
}
