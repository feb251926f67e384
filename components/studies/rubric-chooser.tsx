"use client";

import { ArrowDown, ArrowUp, Download, X } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import type { RubricDocument, RubricProblem } from "@/lib/rubrics/document";
import { RUBRIC_TEMPLATES } from "@/lib/rubrics/templates";
import { FieldError, textareaClass } from "./form-field";
import { RubricBuilder } from "./rubric-builder";

/** A rubric as the lead chose it: a template's key, or a whole document (imported or built). */
export type RubricChoiceItem = string | RubricDocument;

const describe = (d: RubricDocument) => {
  const kinds = new Set(d.dimensions.map((x) => x.scale.kind));
  return `version ${d.version}: ${d.dimensions.length} dimension${d.dimensions.length === 1 ? "" : "s"} (${[...kinds].join(", ")})${d.totals.length ? `, ${d.totals.map((t) => t.name).join("; ")}` : ""}`;
};

/**
 * The study's rubrics: any number, in order, each from a template or a rubric
 * document (JSON, e.g. exported from another study). The server checks them
 * again and names each problem with its JSON path.
 */
export function RubricChooser({
  value,
  docs,
  problems,
  lock,
  error,
  lockNote,
  repetitions,
  onChange,
}: {
  value: RubricChoiceItem[];
  /** The chosen rubrics as documents (resolved by the form), when they resolve. */
  docs: RubricDocument[];
  problems: RubricProblem[];
  lock: string | null;
  error?: string;
  lockNote: React.ReactNode;
  /** N, for the builder's preview and its checks. */
  repetitions: number;
  onChange: (next: RubricChoiceItem[]) => void;
}) {
  // The rubric being built or edited: its place in the list (null: a new one) and where it starts from.
  const [building, setBuilding] = useState<{ index: number | null; from?: RubricDocument } | null>(null);
  const id = useId();
  const [template, setTemplate] = useState(RUBRIC_TEMPLATES[0].key);
  const [json, setJson] = useState("");
  const [jsonError, setJsonError] = useState<string | null>(null);
  const disabled = Boolean(lock);
  const move = (i: number, by: number) => {
    const next = [...value];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    onChange(next);
  };
  const addJson = () => {
    try {
      const parsed = JSON.parse(json) as unknown;
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("a rubric document is one JSON object");
      onChange([...value, parsed as RubricDocument]);
      setJson("");
      setJsonError(null);
    } catch (e) {
      setJsonError(`Not a rubric document: ${(e as Error).message}`);
    }
  };
  return (
    <fieldset className="flex flex-col gap-3" aria-describedby={`${id}-hint`}>
      <legend className="mb-1 text-sm font-medium">Rubrics</legend>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        Any number of instruments, graded in this order: a published one from the templates, or your own as a rubric document (JSON). They lock once grading starts.
      </p>
      <ol className="flex flex-col gap-2" aria-label="Chosen rubrics">
        {value.map((item, i) => {
          const doc = docs[i];
          const name = doc?.name ?? (typeof item === "string" ? item : String((item as { name?: unknown }).name ?? "Rubric"));
          return (
            <li key={`${i}-${typeof item === "string" ? item : (item as RubricDocument).key}`} className="flex items-start justify-between gap-3 rounded-md border border-border px-3 py-2 text-sm">
              <span>
                <span className="font-medium">{name}</span>
                {doc ? <span className="block text-xs text-muted-foreground">{describe(doc)}</span> : null}
              </span>
              <span className="flex shrink-0 gap-1">
                {doc && !disabled ? (
                  <Button type="button" variant="ghost" size="sm" onClick={() => setBuilding({ index: i, from: doc })} aria-label={`Edit ${name}`}>
                    Edit
                  </Button>
                ) : null}
                {doc ? (
                  <a
                    className="inline-flex size-8 items-center justify-center rounded-md hover:bg-muted"
                    href={`data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify(doc, null, 2))}`}
                    download={`${doc.key}-v${doc.version}.json`}
                    aria-label={`Download ${name} as JSON`}
                  >
                    <Download aria-hidden className="size-4" />
                  </a>
                ) : null}
                <Button type="button" variant="ghost" size="sm" disabled={disabled || i === 0} onClick={() => move(i, -1)} aria-label={`Move ${name} up`}>
                  <ArrowUp aria-hidden className="size-4" />
                </Button>
                <Button type="button" variant="ghost" size="sm" disabled={disabled || i === value.length - 1} onClick={() => move(i, 1)} aria-label={`Move ${name} down`}>
                  <ArrowDown aria-hidden className="size-4" />
                </Button>
                <Button type="button" variant="ghost" size="sm" disabled={disabled} onClick={() => onChange(value.filter((_, j) => j !== i))} aria-label={`Remove ${name}`}>
                  <X aria-hidden className="size-4" />
                </Button>
              </span>
            </li>
          );
        })}
      </ol>
      {problems.length ? (
        <ul className="list-disc pl-5 text-sm text-destructive" aria-label="Problems with the rubrics">
          {problems.map((p) => (
            <li key={`${p.path}:${p.message}`}>
              <code className="text-xs">{p.path}</code>: {p.message}
            </li>
          ))}
        </ul>
      ) : null}
      {building ? (
        <RubricBuilder
          initial={building.from}
          repetitions={repetitions}
          onCancel={() => setBuilding(null)}
          onSave={(doc) => {
            const next = [...value];
            // An edited rubric is a new version of it.
            if (building.index === null) next.push(doc);
            else next[building.index] = { ...doc, key: building.from?.key ?? doc.key, version: (building.from?.version ?? 0) + 1 };
            onChange(next);
            setBuilding(null);
          }}
        />
      ) : null}
      {disabled || building ? null : (
        <div>
          <Button type="button" variant="outline" onClick={() => setBuilding({ index: null })}>
            Build a rubric
          </Button>
        </div>
      )}
      {disabled ? null : (
        <div className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col gap-1 text-sm" htmlFor={`${id}-template`}>
            Add a template
            <select id={`${id}-template`} className="h-9 rounded-md border border-border bg-background px-2 text-sm" value={template} onChange={(e) => setTemplate(e.target.value)}>
              {RUBRIC_TEMPLATES.map((t) => (
                <option key={t.key} value={t.key}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
          <Button type="button" variant="outline" onClick={() => onChange([...value, template])}>
            Add
          </Button>
        </div>
      )}
      {disabled ? null : (
        <div className="flex flex-col gap-1">
          <label className="text-sm" htmlFor={`${id}-json`}>
            Or paste a rubric document (JSON)
          </label>
          <textarea id={`${id}-json`} className={textareaClass} rows={3} value={json} onChange={(e) => setJson(e.target.value)} spellCheck={false} />
          <div>
            <Button type="button" variant="outline" disabled={json.trim() === ""} onClick={addJson}>
              Add this rubric
            </Button>
          </div>
          <FieldError id={`${id}-json-error`} error={jsonError ?? undefined} />
        </div>
      )}
      {lockNote}
      <FieldError id="study-rubrics" error={error} />
    </fieldset>
  );
}
