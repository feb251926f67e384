import { describeOpenWork } from "./open-work-text";

/**
 * Every message's words, plain text and HTML. Pure: the outbox renders a
 * message when it sends it, from what was stored with it (./outbox.ts) and the
 * links made then. Studies are named by their grader-facing title only
 * (lib/blinding/grader-title.ts), never by the lead's name for them, and no
 * message says anything of the models under test.
 */
export type MailParams =
  | { kind: "invitation"; name: string; title: string | null; expiresAt: string; sso: string | null }
  | { kind: "reminder"; name: string; title: string; deadline: string; open: number; today: boolean }
  | { kind: "digest"; name: string; studies: { title: string; open: number; deadline: string | null }[] }
  | {
      kind: "lead-digest";
      name: string;
      title: string;
      progress: { submitted: number; assigned: number };
      overdue: string[];
      openEscalations: number;
      unreviewedHarmFlags: number;
    }
  | { kind: "departure"; name: string; title: string; studyId: string; grader: string; open: number; adjudications: number; reason: "removed" | "deactivated" };

export interface Rendered {
  subject: string;
  text: string;
  html: string;
}

export interface Links {
  app: string;
  /** The invitation's one-time link (invitations only). */
  invitation?: string;
  /** The weekly digest's unsubscribe link (digests only). */
  unsubscribe?: string;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const day = (iso: string) => new Date(iso).toISOString().slice(0, 10);

/** Paragraphs (and one link) as both bodies. */
function bodies(paragraphs: string[], link?: { href: string; label: string }, footer?: { text: string; href: string }): { text: string; html: string } {
  const text = [...paragraphs, ...(link ? [`${link.label}: ${link.href}`] : []), ...(footer ? ["--", `${footer.text}: ${footer.href}`] : [])].join("\n\n") + "\n";
  const html = [
    '<!doctype html><html lang="en"><body style="font-family:sans-serif;line-height:1.5">',
    ...paragraphs.map((p) => `<p>${esc(p)}</p>`),
    ...(link ? [`<p><a href="${esc(link.href)}">${esc(link.label)}</a></p>`] : []),
    ...(footer ? [`<hr><p style="font-size:small"><a href="${esc(footer.href)}">${esc(footer.text)}</a></p>`] : []),
    "</body></html>",
  ].join("\n");
  return { text, html };
}

export function renderMail(p: MailParams, links: Links): Rendered {
  switch (p.kind) {
    case "invitation": {
      const what = p.title ? `to grade answers in "${p.title}"` : "to Clingrade, where clinicians grade answers to clinical questions";
      const how = p.sso
        ? `Open the link to choose a password, or to sign in with ${p.sso} instead.`
        : "Open the link to choose your password; you then sign in with this e-mail address.";
      return {
        subject: p.title ? `Invitation to grade: ${p.title}` : "Your Clingrade account",
        ...bodies(
          [`Hello ${p.name},`, `You are invited ${what}.`, how, `The link works once, until ${day(p.expiresAt)}. If you did not expect this message, ignore it.`],
          { href: links.invitation!, label: "Accept the invitation" },
        ),
      };
    }
    case "reminder":
      return {
        subject: p.today ? `Due today: ${p.title}` : `Reminder: ${p.title} is due on ${p.deadline}`,
        ...bodies(
          [
            `Hello ${p.name},`,
            `You have ${describeOpenWork(p.open, 0)} in "${p.title}", due ${p.today ? "today" : `on ${p.deadline}`}.`,
          ],
          { href: `${links.app}/queue`, label: "Open your queue" },
        ),
      };
    case "digest":
      return {
        subject: "Your grading this week",
        ...bodies(
          [
            `Hello ${p.name},`,
            ...(p.studies.length
              ? p.studies.map((s) => `"${s.title}": ${describeOpenWork(s.open, 0)}${s.deadline ? `, due on ${s.deadline}` : ""}.`)
              : ["You have no open assignments."]),
          ],
          { href: `${links.app}/queue`, label: "Open your queue" },
          links.unsubscribe ? { text: "Stop these weekly messages", href: links.unsubscribe } : undefined,
        ),
      };
    case "lead-digest":
      return {
        subject: `Daily summary: ${p.title}`,
        ...bodies([
          `Hello ${p.name},`,
          `"${p.title}": ${p.progress.submitted} of ${p.progress.assigned} assignments submitted.`,
          p.overdue.length ? `Past their deadline with open work: ${p.overdue.join(", ")}.` : "No grader is past their deadline.",
          `Open escalations: ${p.openEscalations}. Harm flags not yet reviewed: ${p.unreviewedHarmFlags}.`,
        ]),
      };
    case "departure":
      return {
        subject: `A grader left "${p.title}" with open work`,
        ...bodies(
          [
            `Hello ${p.name},`,
            `${p.grader} was ${p.reason === "removed" ? "removed from" : "deactivated while a grader of"} "${p.title}" and holds ${describeOpenWork(p.open, p.adjudications)}.`,
            "Run Assign graders to move that work to the other graders (submitted work stays).",
          ],
          { href: `${links.app}/studies/${p.studyId}/assignments`, label: "Open the study's assignments" },
        ),
      };
  }
}
