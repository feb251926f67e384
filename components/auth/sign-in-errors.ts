/**
 * What the sign-in page says for the `error` next-auth puts in its URL after a
 * failed sign-in: next-auth's own codes and the single sign-on refusals of
 * lib/auth/options.ts (SSO_ERROR_CODES). An unknown code gets the general
 * message: the page never shows text taken from the URL.
 */
const MESSAGES: Record<string, string> = {
  SsoUnverified: "Your identity provider has not verified your email address, so it cannot sign you in here. Verify it there, or ask your administrator.",
  SsoDomain: "Accounts with this email domain cannot sign in to Clingrade.",
  SsoNotInvited: "No Clingrade account is waiting for this email address. Ask a study lead or an administrator to invite you, then sign in again.",
  SsoIssuer: "This sign-in came from an identity provider Clingrade does not trust.",
  SsoConflict: "Your Clingrade account is already linked to another account at your identity provider. Ask an administrator.",
  SsoRole: "Your identity provider does not give you access to Clingrade with this account's role. Ask your administrator.",
  SsoInvitation:
    "This invitation link cannot be used: it may have expired, been used already, been replaced by a newer one, or be meant for another address. If you have an account, sign in here; else ask the study's lead to send a new invitation.",
  SsoInvalid: "Your identity provider's answer lacks what Clingrade needs (an account id and an email address).",
  OAuthCallback: "Your identity provider's answer could not be verified (it may have expired, or come from another provider). Try again.",
  OAuthSignin: "The identity provider could not be reached. Try again in a moment.",
  AccessDenied: "This way of signing in is not available.",
  SessionRequired: "Please sign in.",
};

export function signInErrorMessage(code: string | undefined): string | null {
  if (!code) return null;
  return Object.hasOwn(MESSAGES, code) ? MESSAGES[code] : "Signing in did not work. Try again.";
}
