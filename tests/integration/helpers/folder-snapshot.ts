import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** Every entry under a folder (the folder itself included) with its mode, size, modification time and content hash: equal snapshots mean nothing was touched. */
export function folderSnapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = statSync(p);
    const rel = path.relative(dir, p) || ".";
    const hash = st.isFile() ? createHash("sha256").update(readFileSync(p)).digest("hex") : "dir";
    out.push(`${rel} ${st.mode.toString(8)} ${st.size} ${st.mtimeMs} ${hash}`);
    if (st.isDirectory()) for (const name of readdirSync(p).sort()) walk(path.join(p, name));
  };
  walk(dir);
  return out;
}
