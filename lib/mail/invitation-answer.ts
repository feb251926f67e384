import { ApiError } from "@/lib/errors/api-error";
import { LINK_UNUSABLE } from "./invitations";

type Outcome<T> = ({ ok: true } & T) | { ok: false; reason: "unusable" } | { ok: false; reason: "throttled"; retryAfterMs: number };

/** An invitation link's answer: the body for a usable one, else the one 404 whatever the reason, or a 429 with Retry-After. */
export function invitationAnswer<T, B>(outcome: Outcome<T>, body: (r: T) => B): B {
  if (outcome.ok) return body(outcome);
  if (outcome.reason === "throttled") {
    throw new ApiError(429, "too many invitation links tried from this address: wait and try again", undefined, outcome.retryAfterMs / 1000);
  }
  throw new ApiError(404, LINK_UNUSABLE);
}
