import { createApiToken, revokeApiToken } from "@/lib/auth/tokens";
import { createUser, findUserByEmail, setUserActive, unlinkSso, unlockUser, UserError } from "./service";
import { listUsers } from "./queries";

export class AdminUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AdminUsageError";
  }
}

export interface AdminArgs {
  email?: string;
  name?: string;
  role?: string;
  password?: string;
  specialty?: string[];
  id?: string;
  "expires-days"?: string;
  issuer?: string;
}

const USAGE = "commands: create-user, create-token, revoke-token, deactivate-user, activate-user, unlock-user, unlink-sso, list-users, backup, restore (see scripts/admin.ts)";

function need(args: AdminArgs, key: keyof AdminArgs, command: string): string {
  const v = args[key];
  if (typeof v !== "string" || v === "") throw new AdminUsageError(`${command} needs --${key}`);
  return v;
}

async function userByEmail(email: string) {
  const user = await findUserByEmail(email);
  if (!user) throw new UserError(`no user with email ${email}`, "not_found");
  return user;
}

/** The admin commands as a plain function returning the lines to print, so tests can call it. */
export async function runAdminCommand(command: string | undefined, args: AdminArgs): Promise<string[]> {
  switch (command) {
    case "create-user": {
      const user = await createUser({
        email: need(args, "email", command),
        name: need(args, "name", command),
        role: need(args, "role", command).toUpperCase() as "ADMIN" | "LEAD" | "GRADER",
        password: need(args, "password", command),
        specialties: args.specialty ?? [],
      });
      return [`Created ${user.role} ${user.email} (id ${user.id}).`];
    }
    case "create-token": {
      const user = await userByEmail(need(args, "email", command));
      let expiresAt: Date | null = null;
      if (args["expires-days"] !== undefined) {
        const days = Number(args["expires-days"]);
        if (!Number.isFinite(days) || days <= 0) throw new AdminUsageError("--expires-days must be a positive number");
        expiresAt = new Date(Date.now() + days * 86_400_000);
      }
      const token = await createApiToken(user.id, { name: args.name, expiresAt });
      // The token alone on stdout's last line, so scripts can capture it.
      return [
        `# API token for ${user.email} (id ${token.id}${expiresAt ? `, expires ${expiresAt.toISOString()}` : ", no expiry"}). It is shown once; store it now.`,
        token.token,
      ];
    }
    case "revoke-token": {
      const ok = await revokeApiToken(need(args, "id", command));
      if (!ok) throw new UserError("no active token with that id", "not_found");
      return ["Token revoked."];
    }
    case "deactivate-user":
    case "activate-user": {
      const user = await userByEmail(need(args, "email", command));
      await setUserActive(user.id, command === "activate-user");
      return [`${command === "activate-user" ? "Activated" : "Deactivated"} ${user.email}.`];
    }
    case "unlock-user": {
      const user = await userByEmail(need(args, "email", command));
      const cleared = await unlockUser(user.id);
      return [`Unlocked ${user.email}: forgot ${cleared} failed sign-in${cleared === 1 ? "" : "s"}.`];
    }
    case "unlink-sso": {
      const user = await userByEmail(need(args, "email", command));
      const removed = await unlinkSso(user.id, args.issuer ?? null);
      if (removed.length === 0) return [`${user.email} has no single sign-on identity${args.issuer ? ` from ${args.issuer}` : ""}: nothing to unlink.`];
      return [`Unlinked ${user.email} from ${removed.join(", ")}; its sessions are ended.`];
    }
    case "list-users": {
      const users = await listUsers();
      return users.map((u) => `${u.role.padEnd(6)} ${u.active ? "active     " : "deactivated"} ${u.email}  ${u.name}`);
    }
    default:
      throw new AdminUsageError(command ? `unknown command ${command}; ${USAGE}` : USAGE);
  }
}
