import { headers } from "next/headers";
import { cache } from "react";
import { forbidden, redirect } from "next/navigation";
import type { Role } from "@/lib/generated/prisma/enums";
import { userFromHeaders, type CurrentUser } from "./current-user";

/**
 * Who is signed in, for server components and server actions (null when
 * nobody). Memoised for one request: the layouts and the page of one render
 * all guard themselves, and they share one session lookup.
 */
export const currentUser = cache(async (): Promise<CurrentUser | null> => userFromHeaders(await headers()));

/**
 * The guard every page, layout and server action calls first: redirects the
 * anonymous to sign-in and answers 403 for a role that may not be here.
 */
export async function requireUser(roles: readonly Role[]): Promise<CurrentUser> {
  const user = await currentUser();
  if (!user) redirect("/login");
  if (!roles.includes(user.role)) forbidden();
  return user;
}

export { ADMIN_ROLES, ANY_ROLE, GRADER_ROLES, LEAD_ROLES, homeFor } from "@/lib/auth/roles";
