import { readdirSync, readFileSync, statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";

/** Every file below `dir`, as sorted paths relative to it (for comparing a regenerated set with a shipped one). */
export async function listFiles(dir: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const r = path.join(rel, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(dir, r)));
    else out.push(r);
  }
  return out.sort();
}

/** Every file under `dir`, as text (bytes read as latin1 so SQLite pages are searched too), for leak checks. */
export function filesUnder(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const f of readdirSync(dir, { recursive: true }).map(String)) {
    const full = path.join(dir, f);
    if (statSync(full).isFile()) files.set(f, readFileSync(full).toString("latin1"));
  }
  return files;
}
