"use client";

import { CircleAlert } from "lucide-react";
import { forwardRef } from "react";
import { fieldDomId, fieldLabel, type CellKey, type GradingField, type PlacedProblems } from "@/lib/grading/form-state";

/**
 * Why a submission was refused, each problem linked to its field (which the
 * link shows and focuses, on a phone's tab too); it takes focus when it appears.
 */
export const SubmitProblems = forwardRef<HTMLDivElement, { fields: GradingField[]; problems: PlacedProblems; onReveal: (key: CellKey) => void }>(function SubmitProblems(
  { fields, problems, onReveal },
  ref,
) {
  return (
    <div ref={ref} tabIndex={-1} role="alert" className="mt-4 rounded-lg border border-destructive/40 bg-red-50 p-4 outline-none">
      <p className="flex items-center gap-2 text-sm font-semibold text-destructive">
        <CircleAlert aria-hidden className="size-4" />
        Not submitted yet: please fix the following.
      </p>
      <ul className="mt-2 list-disc space-y-1 pl-6 text-sm">
        {fields
          .filter((f) => problems.fields[f.key])
          .map((f) => (
            <li key={f.key}>
              <a
                href={`#${fieldDomId(f.key)}`}
                onClick={(e) => {
                  e.preventDefault();
                  onReveal(f.key);
                }}
                className="font-medium text-primary underline underline-offset-2"
              >
                {fieldLabel(f)}
              </a>
              : {problems.fields[f.key]}
            </li>
          ))}
        {problems.harm ? (
          <li>
            <a
              href="#harm-flag"
              onClick={(e) => {
                e.preventDefault();
                const el = document.getElementById("harm-flag");
                el?.scrollIntoView({ block: "center", behavior: "smooth" });
                (el?.querySelector<HTMLElement>("textarea") ?? el?.querySelector<HTMLElement>("input"))?.focus({ preventScroll: true });
              }}
              className="font-medium text-primary underline underline-offset-2"
            >
              Potential harm
            </a>
            : {problems.harm}
          </li>
        ) : null}
        {problems.general
          .filter((m) => !/^missing before submitting/i.test(m) || Object.keys(problems.fields).length === 0)
          .map((m) => (
            <li key={m}>{m}</li>
          ))}
      </ul>
    </div>
  );
});
