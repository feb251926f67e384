"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { apiRequest } from "@/components/studies/api-client";
import { checkboxClass, describedBy, Field, FieldError, FormMessage } from "@/components/studies/form-field";

export interface QualitySettingsValues {
  goldRate: number | null;
  goldSeed: string | null;
  washoutShare: number;
  washoutDays: number;
  washoutSeed: string | null;
  calibrationRequired: boolean;
  calibrationPassShare: number;
  calibrationRoundSize: number;
}

interface Saved extends QualitySettingsValues {
  placed: { gold: number; calibration: number };
}

/** A number from an input; empty or unreadable goes to the API as null, which names the field in its 422. */
const num = (text: string): number | null => (text.trim() === "" || Number.isNaN(Number(text)) ? null : Number(text));
const pctText = (share: number) => String(Math.round(share * 1000) / 10);

/**
 * The study's gold rate, washout re-grades and calibration requirement (PUT quality-settings):
 * shares are typed as percentages and sent as 0-1. After saving, says what the call placed.
 */
export function QualitySettingsForm({ studyId, initial, calibrationSets, goldSets, open }: { studyId: string; initial: QualitySettingsValues; calibrationSets: number; goldSets: number; open: boolean }) {
  const router = useRouter();
  const [goldOn, setGoldOn] = useState(initial.goldRate !== null);
  const [goldRate, setGoldRate] = useState(String(initial.goldRate ?? 20));
  const [goldSeed, setGoldSeed] = useState(initial.goldSeed ?? "");
  const [washoutShare, setWashoutShare] = useState(pctText(initial.washoutShare));
  const [washoutDays, setWashoutDays] = useState(String(initial.washoutDays));
  const [washoutSeed, setWashoutSeed] = useState(initial.washoutSeed ?? "");
  const [required, setRequired] = useState(initial.calibrationRequired);
  const [passShare, setPassShare] = useState(pctText(initial.calibrationPassShare));
  const [roundSize, setRoundSize] = useState(String(initial.calibrationRoundSize));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function save(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setSuccess(null);
    const share = (text: string) => {
      const n = num(text);
      return n === null ? null : n / 100;
    };
    const body = {
      goldRate: goldOn ? num(goldRate) : null,
      ...(goldSeed.trim() ? { goldSeed: goldSeed.trim() } : {}),
      washoutShare: share(washoutShare),
      washoutDays: num(washoutDays),
      ...(washoutSeed.trim() ? { washoutSeed: washoutSeed.trim() } : {}),
      calibrationRequired: required,
      calibrationPassShare: share(passShare),
      calibrationRoundSize: num(roundSize),
    };
    const r = await apiRequest<Saved>("PUT", `/api/v1/studies/${studyId}/quality-settings`, body);
    setBusy(false);
    if (!r.ok) {
      setErrors(r.fieldErrors);
      // A 409 (calibration required without a calibration set) belongs to the checkbox.
      if (r.status === 409 && /calibration/.test(r.error)) setErrors({ calibrationRequired: r.error });
      return setError(r.status === 409 ? "Not saved: see the message below the field." : r.error);
    }
    setErrors({});
    if (r.data.goldSeed) setGoldSeed(r.data.goldSeed);
    if (r.data.washoutSeed) setWashoutSeed(r.data.washoutSeed);
    const { gold, calibration } = r.data.placed;
    setSuccess(
      `Saved. Placed ${gold} gold ${gold === 1 ? "task" : "tasks"} in graders' queues and started ${calibration} calibration ${calibration === 1 ? "round" : "rounds"}.` +
        (open ? "" : " Nothing is placed until the study is open; saving again once it is tops up."),
    );
    router.refresh();
  }

  return (
    <form onSubmit={save} aria-labelledby="quality-settings-heading" className="flex max-w-3xl flex-col gap-4 rounded-lg border p-4" noValidate>
      <h3 id="quality-settings-heading" className="font-medium">
        Quality settings
      </h3>
      <p className="text-sm text-muted-foreground">
        {calibrationSets} calibration {calibrationSets === 1 ? "set" : "sets"} and {goldSets} gold {goldSets === 1 ? "set" : "sets"} marked. Saving places gold sets and calibration rounds in
        an open study; saving again tops up for work dealt since.
      </p>
      <fieldset className="flex flex-col gap-3">
        <legend className="text-sm font-medium">Gold sets</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className={checkboxClass} checked={goldOn} onChange={(e) => setGoldOn(e.target.checked)} />
          Place gold sets in graders&apos; queues
        </label>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id="goldRate" label="One gold set in every … sets" hint="2 to 1000: a grader with p sets gets about p / (rate − 1) gold sets." error={errors.goldRate}>
            <Input id="goldRate" inputMode="numeric" value={goldRate} disabled={!goldOn} onChange={(e) => setGoldRate(e.target.value)} aria-describedby={describedBy("goldRate", true, errors.goldRate)} aria-invalid={!!errors.goldRate} />
          </Field>
          <Field id="goldSeed" label="Gold seed" hint="Empty: drawn when gold is first placed." error={errors.goldSeed}>
            <Input id="goldSeed" value={goldSeed} onChange={(e) => setGoldSeed(e.target.value)} aria-describedby={describedBy("goldSeed", true, errors.goldSeed)} aria-invalid={!!errors.goldSeed} />
          </Field>
        </div>
      </fieldset>
      <fieldset className="flex flex-col gap-3">
        <legend className="text-sm font-medium">Washout re-grades</legend>
        <div className="grid gap-3 sm:grid-cols-3">
          <Field id="washoutShare" label="Share re-graded (%)" hint="Of each grader's submitted sets, 0 to 100." error={errors.washoutShare}>
            <Input id="washoutShare" inputMode="decimal" value={washoutShare} onChange={(e) => setWashoutShare(e.target.value)} aria-describedby={describedBy("washoutShare", true, errors.washoutShare)} aria-invalid={!!errors.washoutShare} />
          </Field>
          <Field id="washoutDays" label="Washout (days)" hint="0: at once; at most 365." error={errors.washoutDays}>
            <Input id="washoutDays" inputMode="numeric" value={washoutDays} onChange={(e) => setWashoutDays(e.target.value)} aria-describedby={describedBy("washoutDays", true, errors.washoutDays)} aria-invalid={!!errors.washoutDays} />
          </Field>
          <Field id="washoutSeed" label="Washout seed" hint="Empty: drawn when re-grades start." error={errors.washoutSeed}>
            <Input id="washoutSeed" value={washoutSeed} onChange={(e) => setWashoutSeed(e.target.value)} aria-describedby={describedBy("washoutSeed", true, errors.washoutSeed)} aria-invalid={!!errors.washoutSeed} />
          </Field>
        </div>
      </fieldset>
      <fieldset className="flex flex-col gap-3">
        <legend className="text-sm font-medium">Calibration</legend>
        <div className="flex flex-col gap-1">
          <label className="flex items-center gap-2 text-sm">
            <input
              id="calibrationRequired"
              type="checkbox"
              className={checkboxClass}
              checked={required}
              onChange={(e) => setRequired(e.target.checked)}
              aria-describedby={errors.calibrationRequired ? "calibrationRequired-error" : undefined}
              aria-invalid={!!errors.calibrationRequired}
            />
            Graders pass calibration before real work
          </label>
          <FieldError id="calibrationRequired" error={errors.calibrationRequired} />
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id="calibrationPassShare" label="Pass mark (% of scores within tolerance)" hint="0 to 100." error={errors.calibrationPassShare}>
            <Input id="calibrationPassShare" inputMode="decimal" value={passShare} onChange={(e) => setPassShare(e.target.value)} aria-describedby={describedBy("calibrationPassShare", true, errors.calibrationPassShare)} aria-invalid={!!errors.calibrationPassShare} />
          </Field>
          <Field id="calibrationRoundSize" label="Sets per calibration round" hint="1 to 100." error={errors.calibrationRoundSize}>
            <Input id="calibrationRoundSize" inputMode="numeric" value={roundSize} onChange={(e) => setRoundSize(e.target.value)} aria-describedby={describedBy("calibrationRoundSize", true, errors.calibrationRoundSize)} aria-invalid={!!errors.calibrationRoundSize} />
          </Field>
        </div>
      </fieldset>
      <FormMessage error={error} success={success} />
      <div>
        <Button type="submit" disabled={busy}>
          Save quality settings
        </Button>
      </div>
    </form>
  );
}
