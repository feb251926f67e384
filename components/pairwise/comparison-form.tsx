"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";

type Choice = "a" | "tie" | "b";
export interface FormAxis {
  rubric: string;
  key: string;
  name: string;
  definition?: string;
  allowTie: boolean;
  strength: boolean;
}
interface Answer {
  choice?: Choice;
  strength?: "slightly" | "clearly";
  comment?: string;
}

/**
 * A simple comparison form: per axis A / tie / B (tie only where the axis allows it), an optional
 * strength and comment; a harm flag on either answer. Keys 1 / 2 / 3 on a focused axis choose
 * A / tie / B (the radio group's own arrows work too). Drafts and submits go to the grader API.
 */
export function ComparisonForm(props: {
  id: string;
  readOnly: boolean;
  axes: FormAxis[];
  initial: { rubric: string; axis: string; choice: Choice; strength: "slightly" | "clearly" | null; comment: string | null }[];
  harm: { a: { flag: boolean; comment: string | null }; b: { flag: boolean; comment: string | null } };
  answers: { a: ReactNode; b: ReactNode };
}) {
  const router = useRouter();
  const keyOf = (rubric: string, axis: string) => `${rubric}/${axis}`;
  const [values, setValues] = useState<Record<string, Answer>>(
    Object.fromEntries(props.initial.map((p) => [keyOf(p.rubric, p.axis), { choice: p.choice, strength: p.strength ?? undefined, comment: p.comment ?? undefined }])),
  );
  const [harm, setHarm] = useState({ a: { flag: props.harm.a.flag, comment: props.harm.a.comment ?? "" }, b: { flag: props.harm.b.flag, comment: props.harm.b.comment ?? "" } });
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // On a phone the answers are stacked behind two tabs; from md up they stand side by side.
  const [shown, setShown] = useState<"a" | "b">("a");
  const tabs = useRef<Record<"a" | "b", HTMLButtonElement | null>>({ a: null, b: null });
  const set = (k: string, patch: Answer) => setValues((v) => ({ ...v, [k]: { ...v[k], ...patch } }));
  // Time on task: milliseconds the page was visible since the last save, sent with each save
  // (the server adds it, capped by the time since its last write).
  const clock = useRef({ since: 0, banked: 0 });
  useEffect(() => {
    const c = clock.current;
    c.since = document.visibilityState === "visible" ? Date.now() : 0;
    const onVisibility = () => {
      if (document.visibilityState === "visible") c.since = Date.now();
      else if (c.since) {
        c.banked += Date.now() - c.since;
        c.since = 0;
      }
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => document.removeEventListener("visibilitychange", onVisibility);
  }, []);
  const takeElapsed = () => {
    const c = clock.current;
    const now = Date.now();
    const out = c.banked + (c.since ? now - c.since : 0);
    c.banked = 0;
    if (c.since) c.since = now;
    return Math.max(0, Math.round(out));
  };

  async function send(submit: boolean) {
    setBusy(true);
    setMessage(null);
    const elapsedMs = takeElapsed();
    const body = {
      preferences: props.axes.flatMap((a) => {
        const v = values[keyOf(a.rubric, a.key)];
        if (!v?.choice) return [];
        return [{ rubric: a.rubric, axis: a.key, choice: v.choice, ...(v.strength && v.choice !== "tie" ? { strength: v.strength } : {}), ...(v.comment ? { comment: v.comment } : {}) }];
      }),
      harm: { a: { flag: harm.a.flag, comment: harm.a.comment || undefined }, b: { flag: harm.b.flag, comment: harm.b.comment || undefined } },
      elapsedMs: Math.min(elapsedMs, 24 * 3_600_000),
    };
    const res = await fetch(`/api/v1/comparison-assignments/${props.id}/${submit ? "submit" : "preferences"}`, {
      method: submit ? "POST" : "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const out = (await res.json().catch(() => ({}))) as { error?: string; details?: { problems?: { message: string }[] }; nextAssignmentId?: string | null };
    setBusy(false);
    if (!res.ok) {
      // Not saved: the time stays to be sent with the next save.
      clock.current.banked += elapsedMs;
      setMessage([out.error, ...(out.details?.problems ?? []).map((p) => p.message)].filter(Boolean).join(" · "));
      return;
    }
    if (!submit) return setMessage("Draft saved.");
    router.push(out.nextAssignmentId ? `/grade/comparisons/${out.nextAssignmentId}` : "/queue?submitted=1");
  }

  return (
    <form className="flex flex-col gap-6" onSubmit={(e) => (e.preventDefault(), void send(true))}>
      <div role="tablist" aria-label="Answers" className="flex gap-2 md:hidden">
        {(["a", "b"] as const).map((side) => (
          <button
            key={side}
            ref={(el) => {
              tabs.current[side] = el;
            }}
            type="button"
            role="tab"
            id={`answer-tab-${side}`}
            aria-selected={shown === side}
            aria-controls={`answer-${side}`}
            // One tab stop for the list; the arrow keys move between the two (the WAI-ARIA tabs pattern).
            tabIndex={shown === side ? 0 : -1}
            className={`flex-1 rounded-md border px-3 py-2 text-sm font-medium ${shown === side ? "border-primary bg-primary text-primary-foreground" : "border-border bg-background"}`}
            onClick={() => setShown(side)}
            onKeyDown={(e) => {
              if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) return;
              e.preventDefault();
              const to = e.key === "Home" ? "a" : e.key === "End" ? "b" : side === "a" ? "b" : "a";
              setShown(to);
              tabs.current[to]?.focus();
            }}
          >
            Answer {side.toUpperCase()}
          </button>
        ))}
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        {(["a", "b"] as const).map((side) => (
          <section
            key={side}
            id={`answer-${side}`}
            // A tab's panel on a phone; from md up both panels stand side by side and the tabs are hidden (as the scoring form's).
            role="tabpanel"
            aria-labelledby={`answer-tab-${side}`}
            className={`rounded-xl border border-border bg-background p-4 shadow-sm md:block ${shown === side ? "block" : "hidden"}`}
          >
            <h2 className="mb-2 text-base font-semibold">Answer {side.toUpperCase()}</h2>
            <div className="prose prose-sm max-w-none">{props.answers[side]}</div>
            <label className="mt-3 flex items-center gap-2 text-sm">
              <input type="checkbox" checked={harm[side].flag} disabled={props.readOnly} onChange={(e) => setHarm((h) => ({ ...h, [side]: { ...h[side], flag: e.target.checked } }))} />
              Answer {side.toUpperCase()} could cause harm
            </label>
            {harm[side].flag ? (
              <textarea
                aria-label={`What harm answer ${side.toUpperCase()} could cause`}
                className="mt-2 w-full rounded-md border border-border p-2 text-sm"
                value={harm[side].comment}
                disabled={props.readOnly}
                onChange={(e) => setHarm((h) => ({ ...h, [side]: { ...h[side], comment: e.target.value } }))}
              />
            ) : null}
          </section>
        ))}
      </div>
      {props.axes.map((a) => {
        const k = keyOf(a.rubric, a.key);
        const v = values[k] ?? {};
        const options: [Choice, string][] = a.allowTie ? [["a", "A is better"], ["tie", "About the same"], ["b", "B is better"]] : [["a", "A is better"], ["b", "B is better"]];
        return (
          <fieldset
            key={k}
            className="rounded-xl border border-border p-4"
            onKeyDown={(e) => {
              const pick = { "1": "a", "2": a.allowTie ? "tie" : "b", "3": a.allowTie ? "b" : undefined }[e.key] as Choice | undefined;
              if (pick && !props.readOnly && !(e.target instanceof HTMLTextAreaElement)) set(k, { choice: pick });
            }}
          >
            <legend className="px-1 font-medium">{a.name}</legend>
            {a.definition ? <p className="mb-2 text-sm text-muted-foreground">{a.definition}</p> : null}
            <div role="radiogroup" aria-label={a.name} className="flex flex-wrap gap-4">
              {options.map(([value, label], i) => (
                <label key={value} className="flex items-center gap-2 text-sm">
                  <input type="radio" name={k} value={value} checked={v.choice === value} disabled={props.readOnly} onChange={() => set(k, { choice: value })} />
                  {label} <kbd className="rounded border border-border px-1 font-mono text-xs pointer-coarse:hidden">{i + 1}</kbd>
                </label>
              ))}
            </div>
            {a.strength && v.choice && v.choice !== "tie" ? (
              <label className="mt-2 flex items-center gap-2 text-sm">
                How much better
                <select className="rounded-md border border-border p-1" value={v.strength ?? ""} disabled={props.readOnly} onChange={(e) => set(k, { strength: (e.target.value || undefined) as Answer["strength"] })}>
                  <option value="">Not said</option>
                  <option value="slightly">Slightly</option>
                  <option value="clearly">Clearly</option>
                </select>
              </label>
            ) : null}
            <textarea
              aria-label={`Comment on ${a.name}`}
              placeholder="Comment (optional)"
              className="mt-2 w-full rounded-md border border-border p-2 text-sm"
              value={v.comment ?? ""}
              disabled={props.readOnly}
              onChange={(e) => set(k, { comment: e.target.value })}
            />
          </fieldset>
        );
      })}
      {message ? (
        <p role="status" className="text-sm" data-testid="comparison-message">
          {message}
        </p>
      ) : null}
      {props.readOnly ? null : (
        <div className="flex gap-3">
          <Button type="button" variant="outline" disabled={busy} onClick={() => void send(false)}>
            Save draft
          </Button>
          <Button type="submit" disabled={busy}>
            Submit
          </Button>
        </div>
      )}
    </form>
  );
}
