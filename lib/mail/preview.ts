import { ssoConfigFromEnv } from "@/lib/auth/sso-config";
import { graderFacingTitle } from "@/lib/blinding/grader-title";
import { appUrl } from "./config";
import { renderMail, type MailParams } from "./templates";

/**
 * Every template as the study's graders and leads would get it, for the lead
 * to read before anything is sent: rendered by the sender's own renderMail,
 * with the study's grader-facing title and made-up people, counts and links.
 * Nothing else of the study goes in, so the preview can name neither the
 * study (its lead-side name) nor a model, as the messages cannot.
 */
export const PREVIEW_KINDS = ["invitation", "reminder-before", "reminder-due", "digest", "lead-digest", "departure"] as const;
export type PreviewKind = (typeof PREVIEW_KINDS)[number];

export const PREVIEW_LABELS: Record<PreviewKind, string> = {
  invitation: "Invitation to a new grader",
  "reminder-before": "Reminder before the deadline",
  "reminder-due": "Reminder on the deadline",
  digest: "Grader's weekly digest",
  "lead-digest": "Lead's daily digest",
  departure: "Grader left with open work (to leads)",
};

export interface MailPreview {
  kind: PreviewKind;
  label: string;
  subject: string;
  text: string;
  html: string;
}

const DAY = 86_400_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

export function previewMail(
  study: { id: string; graderTitle: string; deadline: Date | null; reminderDaysBefore: number },
  now = new Date(),
): MailPreview[] {
  const title = graderFacingTitle(study);
  const deadline = study.deadline ?? new Date(now.getTime() + 14 * DAY);
  const before = new Date(deadline.getTime() - study.reminderDaysBefore * DAY);
  const sso = ssoConfigFromEnv();
  const app = appUrl();
  const grader = "Dr. Sample Grader";
  const lead = "Dr. Sample Lead";
  const params: Record<PreviewKind, MailParams> = {
    invitation: { kind: "invitation", name: grader, title, expiresAt: new Date(now.getTime() + 7 * DAY).toISOString(), sso: sso ? sso.label : null },
    "reminder-before": { kind: "reminder", name: grader, title, deadline: isoDay(deadline), open: 12, today: isoDay(before) === isoDay(deadline) },
    "reminder-due": { kind: "reminder", name: grader, title, deadline: isoDay(deadline), open: 3, today: true },
    digest: { kind: "digest", name: grader, studies: [{ title, open: 12, deadline: isoDay(deadline) }] },
    "lead-digest": {
      kind: "lead-digest",
      name: lead,
      title,
      progress: { submitted: 140, assigned: 200 },
      overdue: ["Dr. Sample Grader"],
      openEscalations: 2,
      unreviewedHarmFlags: 1,
    },
    departure: { kind: "departure", name: lead, title, studyId: study.id, grader, open: 33, adjudications: 1, reason: "deactivated" },
  };
  // Sample links: they look like the real ones and open nothing.
  const links = { app, invitation: `${app}/invitation#sample-link-not-usable`, unsubscribe: `${app}/unsubscribe#sample-link-not-usable` };
  return PREVIEW_KINDS.map((kind) => ({ kind, label: PREVIEW_LABELS[kind], ...renderMail(params[kind], links) }));
}
