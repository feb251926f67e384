import type { Role } from "@/lib/generated/prisma/enums";

/** Who may use each audience's pages and endpoints. */
export const LEAD_ROLES = ["LEAD", "ADMIN"] as const satisfies readonly Role[];
export const GRADER_ROLES = ["GRADER"] as const satisfies readonly Role[];
export const ADMIN_ROLES = ["ADMIN"] as const satisfies readonly Role[];
export const ANY_ROLE = ["ADMIN", "LEAD", "GRADER"] as const satisfies readonly Role[];

export function homeFor(role: Role): string {
  return role === "GRADER" ? "/queue" : role === "ADMIN" ? "/admin/users" : "/studies";
}
