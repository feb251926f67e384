"use client";

import { Lock } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { LockedSetting } from "@/lib/studies/locks";
import { DIMENSIONS, LIMITS, RUBRICS, THRESHOLD_MAX, type RubricKey, type StudySettings } from "@/lib/studies/settings";
import { apiRequest } from "./api-client";
import { checkboxClass, describedBy, Field, FieldError, FormMessage, textareaClass } from "./form-field";
import { DIMENSION_LABEL, DIMENSION_SCALE, RUBRIC_LABEL, SAFE_LLM_SCORING_LABEL } from "./labels";

type ThresholdText = Record<RubricKey, Record<string, string>>;

function thresholdText(settings: StudySettings): ThresholdText {
  return {
    SCORE: Object.fromEntries(Object.entries(settings.thresholds.SCORE).map(([k, v]) => [k, String(v)])),
    SAFE_LLM: Object.fromEntries(Object.entries(settings.thresholds.SAFE_LLM).map(([k, v]) => [k, String(v)])),
  };
}

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
  initial: StudySettings;
  locks?: Record<LockedSetting, string | null>;
}) {
  const router = useRouter();
  const [name, setName] = useState(initial.name);
  const [graderTitle, setGraderTitle] = useState(initial.graderTitle);
  const [description, setDescription] = useState(initial.description);
  const [rubrics, setRubrics] = useState<RubricKey[]>(initial.rubrics);
  const [repetitions, setRepetitions] = useState(String(initial.repetitions));
  const [gradersPerSet, setGradersPerSet] = useState(String(initial.gradersPerSet));
  const [showReferenceAnswer, setShowReferenceAnswer] = useState(initial.showReferenceAnswer);
  const [matchSpecialty, setMatchSpecialty] = useState(initial.matchSpecialty);
  const [safeLlmScoring, setSafeLlmScoring] = useState(initial.safeLlmScoring);
  const [thresholds, setThresholds] = useState<ThresholdText>(() => thresholdText(initial));
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
      rubrics: RUBRICS.filter((r) => rubrics.includes(r)),
      repetitions: num(repetitions),
      gradersPerSet: num(gradersPerSet),
      showReferenceAnswer,
      matchSpecialty,
      safeLlmScoring,
    };
    const thresholdPatch: Partial<Record<RubricKey, Record<string, number | null>>> = {};
    for (const rubric of RUBRICS) {
      for (const dim of DIMENSIONS[rubric]) {
        const value = num(thresholds[rubric][dim]);
        const before = (initial.thresholds[rubric] as Record<string, number>)[dim];
        // Create: send the shown values of the chosen rubrics. Edit: only what changed.
        if (mode === "create" ? rubrics.includes(rubric) : value !== before) {
          thresholdPatch[rubric] = { ...(thresholdPatch[rubric] ?? {}), [dim]: value };
        }
      }
    }
    if (mode === "create") return { ...candidate, thresholds: thresholdPatch };
    const changed: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(candidate)) {
      if (JSON.stringify(value) !== JSON.stringify(initial[key as keyof StudySettings])) changed[key] = value;
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
  const thresholdError = (rubric: RubricKey) => errors[`thresholds.${rubric}`] ?? errors.thresholds;

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

      <fieldset className="flex flex-col gap-2" aria-describedby={describedBy("study-rubrics", rubricsLock, err("rubrics"))}>
        <legend className="mb-1 text-sm font-medium">Rubrics</legend>
        {RUBRICS.map((r) => (
          <label key={r} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className={checkboxClass}
              checked={rubrics.includes(r)}
              disabled={Boolean(rubricsLock)}
              onChange={(e) => setRubrics((list) => (e.target.checked ? [...list, r] : list.filter((x) => x !== r)))}
            />
            {RUBRIC_LABEL[r]}
          </label>
        ))}
        {rubricsLock ? <LockNote id="study-rubrics-hint" reason={rubricsLock} /> : null}
        <FieldError id="study-rubrics" error={err("rubrics")} />
      </fieldset>

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

      <fieldset className="flex flex-col gap-4">
        <legend className="mb-1 text-sm font-medium">Escalation thresholds</legend>
        <p className="text-xs text-muted-foreground">
          When the primary graders&apos; scores on a dimension differ by at least this much, a third grader is called. S.C.O.R.E.: Likert points;
          SAFE-LLM: difference of the graders&apos; means over the N answers.
        </p>
        {RUBRICS.filter((r) => rubrics.includes(r)).map((rubric) => (
          <fieldset key={rubric} className="rounded-md border border-border p-3">
            <legend className="px-1 text-sm font-medium">{RUBRIC_LABEL[rubric]}</legend>
            <div className="grid gap-3 sm:grid-cols-3 lg:grid-cols-5">
              {DIMENSIONS[rubric].map((dim) => {
                const id = `threshold-${rubric}-${dim}`;
                const key = `thresholds.${rubric}.${dim}`;
                return (
                  <Field key={dim} id={id} label={DIMENSION_LABEL[dim]} hint={`scale ${DIMENSION_SCALE[dim]}`} error={err(key)}>
                    <Input
                      id={id}
                      type="number"
                      inputMode="decimal"
                      min={0}
                      max={(THRESHOLD_MAX[rubric] as Record<string, number>)[dim]}
                      step={0.25}
                      value={thresholds[rubric][dim]}
                      onChange={(e) => setThresholds((t) => ({ ...t, [rubric]: { ...t[rubric], [dim]: e.target.value } }))}
                      aria-invalid={Boolean(err(key))}
                      aria-describedby={describedBy(id, true, err(key))}
                    />
                  </Field>
                );
              })}
            </div>
            <FieldError id={`thresholds-${rubric}`} error={thresholdError(rubric)} />
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
