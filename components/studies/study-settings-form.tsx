"use client";

import { Lock } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { ordinalRange, type RubricDocument } from "@/lib/rubrics/document";
import { resolveRubrics } from "@/lib/rubrics/study-rubrics";
import type { LockedSetting } from "@/lib/studies/locks";
import { LIMITS, type StudySettings } from "@/lib/studies/settings";
import { defaultThresholds } from "@/lib/studies/thresholds";
import { apiRequest } from "./api-client";
import { checkboxClass, describedBy, Field, FieldError, FormMessage, textareaClass } from "./form-field";
import { SAFE_LLM_SCORING_LABEL } from "./labels";
import { RubricChooser, type RubricChoiceItem } from "./rubric-chooser";

type ThresholdText = Record<string, Record<string, string>>;

function thresholdText(thresholds: StudySettings["thresholds"]): ThresholdText {
  return Object.fromEntries(Object.entries(thresholds).map(([r, dims]) => [r, Object.fromEntries(Object.entries(dims).map(([k, v]) => [k, String(v)]))]));
}

/** What a new study's form starts with: the settings, and the rubrics as template keys. */
export type InitialSettings = Omit<StudySettings, "rubricDocuments" | "thresholds"> & Partial<Pick<StudySettings, "rubricDocuments" | "thresholds">>;

/** A number from an input; an empty or unreadable value goes to the API as null, which names the field in its 422. */
const num = (text: string): number | null => (text.trim() === "" || Number.isNaN(Number(text)) ? null : Number(text));

/**
 * Create or edit a study's settings. It posts to the REST API and shows the
 * API's messages next to the fields they name. In edit mode only changed
 * settings are sent, and settings locked by grading are disabled with the
 * reason (k stays editable upwards).
 */
export function StudySettingsForm({
  mode,
  studyId,
  initial,
  locks,
}: {
  mode: "create" | "edit";
  studyId?: string;
  initial: InitialSettings;
  locks?: Record<LockedSetting, string | null>;
}) {
  const router = useRouter();
  const [name, setName] = useState(initial.name);
  const [graderTitle, setGraderTitle] = useState(initial.graderTitle);
  const [description, setDescription] = useState(initial.description);
  const initialChoice: RubricChoiceItem[] = initial.rubricDocuments ?? initial.rubrics;
  const [choice, setChoice] = useState<RubricChoiceItem[]>(initialChoice);
  const [repetitions, setRepetitions] = useState(String(initial.repetitions));
  const [gradersPerSet, setGradersPerSet] = useState(String(initial.gradersPerSet));
  const [showReferenceAnswer, setShowReferenceAnswer] = useState(initial.showReferenceAnswer);
  const [matchSpecialty, setMatchSpecialty] = useState(initial.matchSpecialty);
  const [safeLlmScoring, setSafeLlmScoring] = useState(initial.safeLlmScoring);
  const resolved = resolveRubrics(choice, Number(repetitions) || 1);
  const docs: RubricDocument[] = resolved.ok ? resolved.rubrics : [];
  // With one answer per prompt a template leaves out what compares the answers: say which, and the new maxima.
  const singleAnswer = docs.flatMap((doc, i) => {
    const item = choice[i];
    const full = typeof item === "string" ? resolveRubrics([item], 2) : null;
    if (!full?.ok) return [];
    const dropped = full.rubrics[0].dimensions.filter((d) => !doc.dimensions.some((x) => x.key === d.key)).map((d) => d.name);
    return dropped.length ? [`${doc.name}: ${dropped.join(" and ")} left out; ${doc.totals.map((t) => t.name).join("; ")}`] : [];
  });
  const [thresholds, setThresholds] = useState<ThresholdText>(() => thresholdText(initial.thresholds ?? defaultThresholds(docs)));
  const thresholdOf = (rubric: RubricDocument, dim: string) =>
    thresholds[rubric.key]?.[dim] ?? String(defaultThresholds([rubric])[rubric.key]?.[dim] ?? "");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const rubricsLock = locks?.rubrics ?? null;
  const repetitionsLock = locks?.repetitions ?? null;
  const gradersLock = locks?.gradersPerSet ?? null;

  function body(): Record<string, unknown> {
    const candidate = {
      name,
      graderTitle,
      description,
      rubrics: choice,
      repetitions: num(repetitions),
      gradersPerSet: num(gradersPerSet),
      showReferenceAnswer,
      matchSpecialty,
      safeLlmScoring,
    };
    const thresholdPatch: Record<string, Record<string, number | null>> = {};
    for (const rubric of docs) {
      for (const d of thresholdDims(rubric)) {
        const value = num(thresholdOf(rubric, d.key));
        const before = initial.thresholds?.[rubric.key]?.[d.key];
        if (value === null && before === undefined) continue; // no threshold: the dimension does not escalate
        // Create: send the shown values of the chosen rubrics. Edit: only what changed.
        if (mode === "create" || value !== before) thresholdPatch[rubric.key] = { ...(thresholdPatch[rubric.key] ?? {}), [d.key]: value };
      }
    }
    if (mode === "create") return { ...candidate, thresholds: thresholdPatch };
    const changed: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(candidate)) {
      const before = key === "rubrics" ? initialChoice : initial[key as keyof InitialSettings];
      if (JSON.stringify(value) !== JSON.stringify(before)) changed[key] = value;
    }
    if (Object.keys(thresholdPatch).length) changed.thresholds = thresholdPatch;
    return changed;
  }

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(null);
    setFormError(null);
    const payload = body();
    if (mode === "edit" && Object.keys(payload).length === 0) {
      setErrors({});
      setSaved("Nothing to save: no setting has changed.");
      return;
    }
    setPending(true);
    const result =
      mode === "create"
        ? await apiRequest<{ id: string }>("POST", "/api/v1/studies", payload)
        : await apiRequest("PATCH", `/api/v1/studies/${studyId}`, payload);
    setPending(false);
    if (!result.ok) {
      setErrors(result.fieldErrors);
      setFormError(result.error);
      return;
    }
    setErrors({});
    if (mode === "create") {
      router.push(`/studies/${(result.data as { id: string }).id}`);
      return;
    }
    setSaved("Settings saved.");
    router.refresh();
  }

  const err = (key: string) => errors[key];
  const thresholdError = (rubric: string) => errors[`thresholds.${rubric}`] ?? errors.thresholds;
  const rubricsError = err("rubrics") ?? Object.entries(errors).find(([k]) => k.startsWith("rubrics."))?.[1];

  return (
    <form onSubmit={onSubmit} noValidate className="flex max-w-3xl flex-col gap-6" aria-label={mode === "create" ? "New study" : "Study settings"}>
      <FormMessage error={formError} success={saved} />

      <Field id="study-name" label="Name" error={err("name")}>
        <Input
          id="study-name"
          name="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={LIMITS.name}
          aria-invalid={Boolean(err("name"))}
          aria-describedby={describedBy("study-name", undefined, err("name"))}
        />
      </Field>

      <Field
        id="study-grader-title"
        label="Title shown to graders"
        hint="Graders never see the name above, which may name a model. Leave empty for a neutral title (e.g. Study 3F9A); never name a model or its maker here."
        error={err("graderTitle")}
      >
        <Input
          id="study-grader-title"
          name="graderTitle"
          value={graderTitle}
          onChange={(e) => setGraderTitle(e.target.value)}
          maxLength={LIMITS.graderTitle}
          placeholder="Neutral title"
          aria-invalid={Boolean(err("graderTitle"))}
          aria-describedby={describedBy("study-grader-title", true, err("graderTitle"))}
        />
      </Field>

      <Field id="study-description" label="Description" hint="Optional: the aim of the study, for the leads." error={err("description")}>
        <textarea
          id="study-description"
          name="description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          maxLength={LIMITS.description}
          className={textareaClass}
          aria-invalid={Boolean(err("description"))}
          aria-describedby={describedBy("study-description", true, err("description"))}
        />
      </Field>

      <RubricChooser
        value={choice}
        docs={docs}
        problems={resolved.ok ? [] : resolved.problems}
        lock={rubricsLock}
        error={rubricsError}
        onChange={setChoice}
        repetitions={Number(repetitions) || 1}
        lockNote={rubricsLock ? <LockNote id="study-rubrics-hint" reason={rubricsLock} /> : null}
      />

      {singleAnswer.length ? (
        <div role="note" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm" data-testid="single-answer-note">
          <p className="font-medium">One answer per prompt: nothing can be compared across answers.</p>
          <ul className="mt-1 list-disc pl-5">
            {singleAnswer.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      ) : null}

      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id="study-repetitions"
          label="Repetitions per prompt (N)"
          hint={repetitionsLock ? <LockText reason={repetitionsLock} /> : `Answers per prompt and model, ${LIMITS.repetitions.min}-${LIMITS.repetitions.max}. Both papers use 3.`}
          error={err("repetitions")}
        >
          <Input
            id="study-repetitions"
            type="number"
            inputMode="numeric"
            min={LIMITS.repetitions.min}
            max={LIMITS.repetitions.max}
            step={1}
            value={repetitions}
            disabled={Boolean(repetitionsLock)}
            onChange={(e) => setRepetitions(e.target.value)}
            aria-invalid={Boolean(err("repetitions"))}
            aria-describedby={describedBy("study-repetitions", true, err("repetitions"))}
          />
        </Field>
        <Field
          id="study-graders-per-set"
          label="Primary graders per response set (k)"
          hint={gradersLock ? <LockText prefix="Raise only" reason={gradersLock} /> : `${LIMITS.gradersPerSet.min}-${LIMITS.gradersPerSet.max}. Both papers use 2.`}
          error={err("gradersPerSet")}
        >
          <Input
            id="study-graders-per-set"
            type="number"
            inputMode="numeric"
            min={gradersLock ? initial.gradersPerSet : LIMITS.gradersPerSet.min}
            max={LIMITS.gradersPerSet.max}
            step={1}
            value={gradersPerSet}
            onChange={(e) => setGradersPerSet(e.target.value)}
            aria-invalid={Boolean(err("gradersPerSet"))}
            aria-describedby={describedBy("study-graders-per-set", true, err("gradersPerSet"))}
          />
        </Field>
      </div>

      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-sm font-medium">Grading</legend>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className={`${checkboxClass} mt-0.5`}
            checked={showReferenceAnswer}
            onChange={(e) => setShowReferenceAnswer(e.target.checked)}
          />
          <span>Show graders the expert reference answer</span>
        </label>
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" className={`${checkboxClass} mt-0.5`} checked={matchSpecialty} onChange={(e) => setMatchSpecialty(e.target.checked)} />
          <span>Match specialty: assign each question only to graders of its clinical specialty</span>
        </label>
      </fieldset>

      {docs.some((r) => r.key === "SAFE_LLM") ? (
      <fieldset className="flex flex-col gap-2" aria-describedby={describedBy("study-safe-llm-scoring", true, err("safeLlmScoring"))}>
        <legend className="mb-1 text-sm font-medium">SAFE-LLM headline scoring</legend>
        {(Object.keys(SAFE_LLM_SCORING_LABEL) as (keyof typeof SAFE_LLM_SCORING_LABEL)[]).map((value) => (
          <label key={value} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="safeLlmScoring"
              value={value}
              className={checkboxClass}
              checked={safeLlmScoring === value}
              onChange={() => setSafeLlmScoring(value)}
            />
            {SAFE_LLM_SCORING_LABEL[value]}
          </label>
        ))}
        <p id="study-safe-llm-scoring-hint" className="text-xs text-muted-foreground">
          Used only when the study grades with SAFE-LLM; both scores are always computed and exported. Per answer: each answer&apos;s
          four points plus the set&apos;s consistency, averaged over the N answers. Overall (SAFE-LLM paper, Main Text): accuracy from the
          most accurate answer, comprehensiveness from the most comprehensive, supplementation 1 if any answer supplements, consistency
          as derived, and fluency as the mean over the N answers (our reading of &quot;assessed across all of the answers&quot;).
        </p>
        <FieldError id="study-safe-llm-scoring" error={err("safeLlmScoring")} />
      </fieldset>
      ) : null}

      <fieldset className="flex flex-col gap-4">
        <legend className="mb-1 text-sm font-medium">Escalation thresholds</legend>
        <p className="text-xs text-muted-foreground">
          When the primary graders&apos; scores on a dimension differ by at least this much, a third grader is called (scale points; a
          dimension scored on each answer compares the graders&apos; means over the N answers). Nominal dimensions escalate on any disagreement.
        </p>
        {docs.filter((r) => thresholdDims(r).length > 0).map((rubric) => (
          <fieldset key={rubric.key} className="rounded-md border border-border p-3">
            <legend className="px-1 text-sm font-medium">{rubric.name}</legend>
            <div className="grid gap-3 sm:grid-cols-3 lg:grid-cols-5">
              {thresholdDims(rubric).map((d) => {
                const id = `threshold-${rubric.key}-${d.key}`;
                const key = `thresholds.${rubric.key}.${d.key}`;
                const { min, max } = ordinalRange(d);
                return (
                  <Field key={d.key} id={id} label={d.name} hint={`scale ${min}-${max}`} error={err(key)}>
                    <Input
                      id={id}
                      type="number"
                      inputMode="decimal"
                      min={0}
                      max={max - min}
                      step={0.25}
                      value={thresholdOf(rubric, d.key)}
                      onChange={(e) => setThresholds((t) => ({ ...t, [rubric.key]: { ...(t[rubric.key] ?? {}), [d.key]: e.target.value } }))}
                      aria-invalid={Boolean(err(key))}
                      aria-describedby={describedBy(id, true, err(key))}
                    />
                  </Field>
                );
              })}
            </div>
            <FieldError id={`thresholds-${rubric.key}`} error={thresholdError(rubric.key)} />
          </fieldset>
        ))}
      </fieldset>

      <div className="flex items-center gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : mode === "create" ? "Create study" : "Save settings"}
        </Button>
        {mode === "create" ? (
          <Button type="button" variant="ghost" onClick={() => router.push("/studies")}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** The dimensions a lead sets a threshold for: ordinal ones a grader scores or that are derived. */
const thresholdDims = (r: RubricDocument) => r.dimensions.filter((d) => d.scale.kind === "ordinal");

function LockText({ reason, prefix = "Locked" }: { reason: string; prefix?: string }) {
  return (
    <span className="inline-flex items-start gap-1">
      <Lock aria-hidden className="mt-0.5 size-3 shrink-0" />
      <span>
        {prefix}: {reason}.
      </span>
    </span>
  );
}

function LockNote({ id, reason }: { id: string; reason: string }) {
  return (
    <p id={id} className="text-xs text-muted-foreground">
      <LockText reason={reason} />
    </p>
  );
}
