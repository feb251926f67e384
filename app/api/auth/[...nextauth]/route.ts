import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptionsFor } from "@/lib/auth/options";

/** next-auth's own endpoints; the options are made per request, so a sign-in's session row records its address and browser. */
function handler(req: NextRequest, ctx: { params: Promise<{ nextauth: string[] }> }): Promise<Response> {
  return NextAuth(req, ctx, authOptionsFor(req));
}
export { handler as GET, handler as POST };
