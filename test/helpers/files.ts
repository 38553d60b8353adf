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
