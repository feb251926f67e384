import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import { randomBytes } from "node:crypto";
import { createApiToken } from "@/lib/auth/tokens";
import { getDb } from "@/lib/db/client";
import { DEFAULT_THRESHOLDS } from "@/lib/rubrics/thresholds";
import { createUser } from "@/lib/users/service";

export const PASSWORD = "a-long-test-password";

export async function makeUser(role: "ADMIN" | "LEAD" | "GRADER", name = role.toLowerCase()) {
  const email = `${name}-${randomBytes(4).toString("hex")}@test.clingrade.org`;
  const user = await createUser({ email, name, role, password: PASSWORD });
  const { token } = await createApiToken(user.id);
  return { ...user, token };
}

export async function makeStudy(leadId: string, name = "Study") {
  const db = getDb();
  return db.study.create({
    data: {
      name,
      slug: `${name.toLowerCase().replace(/\W+/g, "-")}-${randomBytes(3).toString("hex")}`,
      rubrics: templateRubrics(["SCORE"]),
      thresholds: DEFAULT_THRESHOLDS,
      createdById: leadId,
      members: { create: { userId: leadId, role: "LEAD" } },
    },
  });
}

export function bearer(token: string, init: RequestInit = {}): RequestInit {
  return { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` } };
}

/** Calls an App Router route handler the way Next does. */
export async function call<P>(
  handler: (req: Request, ctx: { params: Promise<P> }) => Promise<Response>,
  url: string,
  init: RequestInit = {},
  params: P = {} as P,
) {
  const res = await handler(new Request(new URL(url, "http://localhost"), init), { params: Promise.resolve(params) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: body as Record<string, unknown>, headers: res.headers };
}
