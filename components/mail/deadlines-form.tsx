"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { apiRequest } from "@/components/studies/api-client";
import { describedBy, Field, FormMessage } from "@/components/studies/form-field";

/** The study's deadline and how early graders with open work are reminded (by e-mail, when it is on). */
export function DeadlinesForm({ studyId, deadline, reminderDaysBefore, mail }: { studyId: string; deadline: string | null; reminderDaysBefore: number; mail: boolean }) {
  const router = useRouter();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const [pending, setPending] = useState(false);
  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const day = String(data.get("deadline") ?? "");
    setPending(true);
    const result = await apiRequest("PUT", `/api/v1/studies/${studyId}/deadlines`, {
      deadline: day || null,
      reminderDaysBefore: Number(data.get("reminderDaysBefore") ?? 3),
    });
    setPending(false);
    if (!result.ok) {
      setErrors(result.fieldErrors);
      setMessage({ error: result.error });
      return;
    }
    setErrors({});
    setMessage({ success: "Saved." });
    router.refresh();
  }
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Deadline and reminders" className="grid gap-4 sm:grid-cols-3">
      <div className="sm:col-span-3">
        <FormMessage error={message.error} success={message.success} />
      </div>
      <Field id="study-deadline" label="Deadline" hint="Empty: none." error={errors.deadline}>
        <Input id="study-deadline" name="deadline" type="date" defaultValue={deadline ?? ""} aria-describedby={describedBy("study-deadline", true, errors.deadline)} />
      </Field>
      <Field
        id="study-reminder-days"
        label="Remind graders this many days before"
        hint={mail ? "Graders with open work get one reminder then, and one on the day." : "E-mail is off on this server: no reminder is sent."}
        error={errors.reminderDaysBefore}
      >
        <Input
          id="study-reminder-days"
          name="reminderDaysBefore"
          type="number"
          min={0}
          max={60}
          defaultValue={reminderDaysBefore}
          aria-describedby={describedBy("study-reminder-days", true, errors.reminderDaysBefore)}
        />
      </Field>
      <div className="flex items-end">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : "Save deadline"}
        </Button>
      </div>
    </form>
  );
}
