import { getDb } from "./client";

/** Asks PostgreSQL a trivial question with a short deadline. The reason never holds the URL or a password. */
export async function checkDatabase(timeoutMs = 2_000): Promise<{ ok: true } | { ok: false; reason: string }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    await Promise.race([getDb().$queryRaw`SELECT 1`, timeout]);
    return { ok: true };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, reason: `database unreachable: ${message.replace(/postgres(ql)?:\/\/\S+/g, "<database url>").split("\n")[0].slice(0, 200)}` };
  } finally {
    clearTimeout(timer);
  }
}
