"use client";

import { Check, Copy } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { apiRequest } from "./api-client";
import { parseSpecialtyList } from "./grader-specialties";
import { describedBy, Field, FormMessage } from "./form-field";

interface Added {
  userId: string;
  accountCreated: boolean;
  reactivated: boolean;
  initialPassword?: string;
  invitationId?: string;
}

/**
 * Adds a grader to the study. With e-mail on, a new account's owner is sent
 * an invitation to choose their own password, and no password is shown. With
 * e-mail off, a generated password is shown here once, for the lead to hand
 * over: it lives only in this component's state and is gone when the page is left.
 */
export function AddGraderForm({ studyId, mail }: { studyId: string; mail: boolean }) {
  const router = useRouter();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [added, setAdded] = useState<(Added & { email: string }) | null>(null);
  const [copied, setCopied] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const password = String(data.get("password") ?? "");
    const specialties = parseSpecialtyList(String(data.get("specialties") ?? ""));
    setPending(true);
    setFormError(null);
    setAdded(null);
    setCopied(false);
    const email = String(data.get("email") ?? "");
    const result = await apiRequest<Added>("POST", `/api/v1/studies/${studyId}/graders`, {
      email,
      // An existing account keeps its name: only a new one needs it.
      ...(String(data.get("name") ?? "").trim() ? { name: String(data.get("name")) } : {}),
      // None typed: the grader starts with their account's own.
      ...(specialties.length ? { specialties } : {}),
      ...(password ? { password } : {}),
    });
    setPending(false);
    if (!result.ok) {
      setErrors(result.fieldErrors);
      setFormError(result.error);
      return;
    }
    setErrors({});
    setAdded({ ...result.data, email: email.trim().toLowerCase() });
    form.reset();
    router.refresh();
  }

  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  const err = (key: string) => errors[key];
  const specialtyError = Object.entries(errors).find(([k]) => k.startsWith("specialties"))?.[1];

  return (
    <div className="flex flex-col gap-4">
      {added ? (
        <div role="status" className="flex flex-col gap-2 rounded-md border border-green-200 bg-green-50 p-4 text-sm text-green-950">
          {added.accountCreated ? (
            <p>
              Created a grader account for <strong>{added.email}</strong> and added it to this study.
            </p>
          ) : (
            <p>
              {added.reactivated ? "Added back" : "Added"} the existing grader account <strong>{added.email}</strong> to this study; it keeps its
              own password.
            </p>
          )}
          {added.invitationId ? (
            <p data-testid="invitation-sent">An invitation is on its way to {added.email}: its link lets them choose their own password. Its state is listed under Invitations.</p>
          ) : added.initialPassword ? (
            <div className="flex flex-col gap-1">
              <p className="font-medium">One-time password</p>
              <div className="flex items-center gap-2">
                <code data-testid="initial-password" className="rounded bg-white px-2 py-1 font-mono text-base tracking-wide">
                  {added.initialPassword}
                </code>
                <Button type="button" variant="outline" size="sm" onClick={() => copy(added.initialPassword!)}>
                  {copied ? <Check aria-hidden className="size-4" /> : <Copy aria-hidden className="size-4" />}
                  {copied ? "Copied" : "Copy"}
                </Button>
              </div>
              <p className="text-xs">
                Hand it to the grader securely. It is shown only now: it is stored only as a hash and cannot be shown again. (E-mail is
                off on this server, so no invitation could be sent instead: an administrator sets SMTP_URL and MAIL_FROM to turn it on.)
              </p>
            </div>
          ) : added.accountCreated ? (
            <p className="text-xs">The account uses the password you entered.</p>
          ) : null}
        </div>
      ) : null}

      <form onSubmit={onSubmit} noValidate aria-label="Add a grader" className="grid gap-4 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <FormMessage error={formError} />
        </div>
        <Field id="grader-email" label="Email" error={err("email")}>
          <Input
            id="grader-email"
            name="email"
            type="email"
            autoComplete="off"
            required
            aria-invalid={Boolean(err("email"))}
            aria-describedby={describedBy("grader-email", undefined, err("email"))}
          />
        </Field>
        <Field id="grader-name" label="Name" hint="Only for a new account; an existing grader keeps their name." error={err("name")}>
          <Input
            id="grader-name"
            name="name"
            autoComplete="off"
            aria-invalid={Boolean(err("name"))}
            aria-describedby={describedBy("grader-name", true, err("name"))}
          />
        </Field>
        <Field id="grader-specialties" label="Specialties" hint="In this study only; comma-separated, e.g. Ophthalmology, Anesthesia. Empty: the account's own." error={specialtyError}>
          <Input
            id="grader-specialties"
            name="specialties"
            autoComplete="off"
            aria-invalid={Boolean(specialtyError)}
            aria-describedby={describedBy("grader-specialties", true, specialtyError)}
          />
        </Field>
        <Field
          id="grader-password"
          label="Initial password (optional)"
          hint={
            mail
              ? "Leave empty: the grader is e-mailed an invitation to choose their own (recommended). At least 10 characters."
              : "Leave empty to generate a strong one, shown once (e-mail is off on this server, so no invitation can be sent). At least 10 characters."
          }
          error={err("password")}
        >
          <Input
            id="grader-password"
            name="password"
            type="password"
            autoComplete="new-password"
            aria-invalid={Boolean(err("password"))}
            aria-describedby={describedBy("grader-password", true, err("password"))}
          />
        </Field>
        <div className="sm:col-span-2">
          <Button type="submit" disabled={pending}>
            {pending ? "Adding…" : "Add grader"}
          </Button>
        </div>
      </form>
    </div>
  );
}
