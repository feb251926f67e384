import { redirect } from "next/navigation";
import { currentUser, homeFor } from "@/lib/server/page-guard";

export const dynamic = "force-dynamic";

/** Sends each role to its own landing page. */
export default async function Home() {
  const user = await currentUser();
  redirect(user ? homeFor(user.role) : "/login");
}
