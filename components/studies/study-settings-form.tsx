"use client";

import { Lock } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { RubricDocument } from "@/lib/rubrics/document";
import { documentRule } from "@/lib/rubrics/escalation-rule";
import { resolveRubrics } from "@/lib/rubrics/study-rubrics";
import type { LockedSetting } from "@/lib/studies/locks";
import { LIMITS, type StudySettings } from "@/lib/studies/settings";
import { apiRequest } from "./api-client";
import { EscalationSettings, escalationDims, initialChoice as startingRule, type RuleChoice, type RuleChoices, type TriggerRates } from "./escalation-settings";
import { checkboxClass, describedBy, Field, FieldError, FormMessage, textareaClass } from "./form-field";
import { PROMPT_SCORING_LABEL } from "./labels";
import { RubricChooser, type RubricChoiceItem } from "./rubric-chooser";
import { RubricDocumentsView } from "./rubric-documents-view";

/** What a new study's form starts with: the settings, and the rubrics as template keys. */
export type InitialSettings = Omit<StudySettings, "rubricDocuments" | "thresholds" | "escalationRules"> &
  Partial<Pick<StudySettings, "rubricDocuments" | "thresholds" | "escalationRules">>;

/** Rubrics with two scorings of the answers (the headline, and an overallHeadline counting them another way): the study picks the one that leads. */
const hasTwoScorings = (r: RubricDocument) => r.overallHeadline !== undefined && r.totals.some((t) => t.key === r.overallHeadline);

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
  frozen = null,
  protocolFrozenAt = null,
  triggerRates,
}: {
  mode: "create" | "edit";
  studyId?: string;
  initial: InitialSettings;
  locks?: Record<LockedSetting, string | null>;
  /** Why escalation can no longer change (the study is closed), or null. */
  frozen?: string | null;
  /** When the study's protocol was frozen (ISO time), or null: its settings then change only with a reason. */
  protocolFrozenAt?: string | null;
  /** The grades so far under the stored rules, beside each dimension's rule. */
  triggerRates?: TriggerRates;
}) {
  const router = useRouter();
  const [name, setName] = useState(initial.name);
  const [graderTitle, setGraderTitle] = useState(initial.graderTitle);
  const [description, setDescription] = useState(initial.description);
  const initialChoice: RubricChoiceItem[] = initial.rubricDocuments ?? initial.rubrics;
  const [choice, setChoice] = useState<RubricChoiceItem[]>(initialChoice);
  // Chosen once, at creation: a pairwise study compares two answers on preference axes.
  const [design, setDesign] = useState<"scoring" | "pairwise">("scoring");
  const [repetitions, setRepetitions] = useState(String(initial.repetitions));
  const [gradersPerSet, setGradersPerSet] = useState(String(initial.gradersPerSet));
  const [showReferenceAnswer, setShowReferenceAnswer] = useState(initial.showReferenceAnswer);
  const [askContradictions, setAskContradictions] = useState(initial.askContradictions);
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
  const [rules, setRules] = useState<RuleChoices>({});
  // What the study has (edit) or the documents say (create), under the lead's changes.
  const choiceOf = (rubric: RubricDocument, dim: string): RuleChoice => {
    const d = rubric.dimensions.find((x) => x.key === dim)!;
    return rules[rubric.key]?.[dim] ?? startingRule(d, initial.thresholds?.[rubric.key]?.[dim], initial.escalationRules?.[rubric.key]?.[dim]);
  };
  const twoScorings = docs.filter(hasTwoScorings);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [amendmentReason, setAmendmentReason] = useState("");
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
      ...(mode === "create" && design === "pairwise" ? { design } : {}),
      repetitions: num(repetitions),
      gradersPerSet: num(gradersPerSet),
      showReferenceAnswer,
      askContradictions,
      matchSpecialty,
      safeLlmScoring,
    };
    const thresholdPatch: Record<string, Record<string, number | null>> = {};
    const rulePatch: Record<string, Record<string, Partial<Pick<RuleChoice, "rule" | "na">>>> = {};
    for (const rubric of docs) {
      for (const d of escalationDims(rubric)) {
        const c = choiceOf(rubric, d.key);
        const was = startingRule(d, initial.thresholds?.[rubric.key]?.[d.key], initial.escalationRules?.[rubric.key]?.[d.key]);
        // Create: what differs from the documents. Edit: only what changed.
        const base = mode === "create" ? { ...documentRule(d), threshold: was.threshold } : was;
        const o: Partial<Pick<RuleChoice, "rule" | "na">> = {};
        if (c.rule !== base.rule) o.rule = c.rule;
        if (c.na !== base.na) o.na = c.na;
        if (Object.keys(o).length) rulePatch[rubric.key] = { ...(rulePatch[rubric.key] ?? {}), [d.key]: o };
        if (c.rule === "spread" && (mode === "create" || c.threshold !== was.threshold)) {
          thresholdPatch[rubric.key] = { ...(thresholdPatch[rubric.key] ?? {}), [d.key]: num(c.threshold) };
        }
      }
    }
    const escalation = { ...(Object.keys(thresholdPatch).length ? { thresholds: thresholdPatch } : {}), ...(Object.keys(rulePatch).length ? { escalationRules: rulePatch } : {}) };
    if (mode === "create") return { ...candidate, ...escalation };
    const changed: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(candidate)) {
      const before = key === "rubrics" ? initialChoice : initial[key as keyof InitialSettings];
      if (JSON.stringify(value) !== JSON.stringify(before)) changed[key] = value;
    }
    const changes = { ...changed, ...escalation };
    return Object.keys(changes).length && amendmentReason.trim() ? { ...changes, amendmentReason: amendmentReason.trim() } : changes;
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

      {mode === "create" ? (
        <Field id="study-design" label="Design" hint="Scoring: graders score each answer on the rubrics. Pairwise: graders say which of two blinded answers is better, per axis of a preference rubric. Chosen now, never changed." error={err("design")}>
          <select
            id="study-design"
            name="design"
            value={design}
            className="h-9 rounded-md border border-border bg-background px-2 text-sm"
            aria-describedby={describedBy("study-design", true, err("design"))}
            onChange={(e) => {
              const next = e.target.value as "scoring" | "pairwise";
              setDesign(next);
              // Keep only the rubrics the new design can grade with: the lead adds the others.
              const preferenceOnly = (d: RubricDocument | undefined) => Boolean(d && d.dimensions.length && d.dimensions.every((x) => x.scale.kind === "preference"));
              setChoice((c) => c.filter((_, i) => preferenceOnly(docs[i]) === (next === "pairwise")));
            }}
          >
            <option value="scoring">Scoring</option>
            <option value="pairwise">Pairwise preference</option>
          </select>
        </Field>
      ) : null}

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
      {mode === "edit" && docs.length ? <RubricDocumentsView docs={docs} /> : null}

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
        {Number(repetitions) >= 2 ? (
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" className={`${checkboxClass} mt-0.5`} checked={askContradictions} onChange={(e) => setAskContradictions(e.target.checked)} />
            <span>Ask graders whether a set&apos;s answers contradict each other (the stability triage counts their flags)</span>
          </label>
        ) : null}
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" className={`${checkboxClass} mt-0.5`} checked={matchSpecialty} onChange={(e) => setMatchSpecialty(e.target.checked)} />
          <span>Match specialty: assign each question only to graders of its clinical specialty</span>
        </label>
      </fieldset>

      {twoScorings.length ? (
      <fieldset className="flex flex-col gap-2" aria-describedby={describedBy("study-safe-llm-scoring", true, err("safeLlmScoring"))}>
        <legend className="mb-1 text-sm font-medium">Headline scoring of {twoScorings.map((r) => r.name).join(" and ")}</legend>
        {(Object.keys(PROMPT_SCORING_LABEL) as (keyof typeof PROMPT_SCORING_LABEL)[]).map((value) => (
          <label key={value} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="safeLlmScoring"
              value={value}
              className={checkboxClass}
              checked={safeLlmScoring === value}
              onChange={() => setSafeLlmScoring(value)}
            />
            {PROMPT_SCORING_LABEL[value]}
          </label>
        ))}
        <p id="study-safe-llm-scoring-hint" className="text-xs text-muted-foreground">
          {twoScorings.map((r) => `${r.name}: ${r.totals.map((t) => t.name).join(" or ")}`).join("; ")}. Both scores are always computed and exported; this
          chooses the one the dashboards lead with. Per answer: each answer is scored and the scores are averaged over the N answers. Overall:
          the prompt is scored once from its N answers, each dimension counted as the rubric&apos;s overall total says (e.g. the best answer&apos;s).
        </p>
        <FieldError id="study-safe-llm-scoring" error={err("safeLlmScoring")} />
      </fieldset>
      ) : null}

      <EscalationSettings
        docs={docs}
        choices={Object.fromEntries(docs.map((r) => [r.key, Object.fromEntries(escalationDims(r).map((d) => [d.key, choiceOf(r, d.key)]))]))}
        onChange={(rubric, dim, c) => setRules((all) => ({ ...all, [rubric]: { ...(all[rubric] ?? {}), [dim]: c } }))}
        rates={triggerRates}
        frozen={frozen}
        error={err}
      />

      {protocolFrozenAt ? (
        <Field
          id="study-amendment-reason"
          label="Reason for amending the frozen protocol"
          hint={`The protocol was frozen on ${new Date(protocolFrozenAt).toUTCString()}. Rubrics, N, k, escalation, specialty matching and headline scoring change only with a reason, kept as a dated amendment that the report lists as a deviation.`}
          error={err("amendmentReason")}
        >
          <Input
            id="study-amendment-reason"
            value={amendmentReason}
            onChange={(e) => setAmendmentReason(e.target.value)}
            aria-describedby={describedBy("study-amendment-reason", "hint", err("amendmentReason"))}
          />
        </Field>
      ) : null}

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
