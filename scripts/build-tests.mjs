// `npm test` runs the test files as JavaScript compiled once, not through tsx: tsx's loader costs
// each of the ~260 test processes 0.3-1 s of CPU (a third of the suite's CPU in a sample of files).
// .test-build/ is a copy of src/ and test/ with every .ts compiled beside it (types are checked by
// `npm run build`, not here), and links to the rest of the repository, so a test finds examples/,
// templates/, bin/ and dist/ where it finds them from test/, and a script a test starts with
// `node --import tsx x.ts` is still there. Single files still run as `node --import tsx --test FILE`.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const OUT = path.join(ROOT, ".test-build");
const COPIED = ["src", "test"];
const LEFT_OUT = new Set([...COPIED, "node_modules"]);

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT);
for (const dir of COPIED) cpSync(path.join(ROOT, dir), path.join(OUT, dir), { recursive: true, verbatimSymlinks: true });
for (const entry of readdirSync(ROOT)) if (!LEFT_OUT.has(entry) && !entry.startsWith(".")) symlinkSync(path.join(ROOT, entry), path.join(OUT, entry));
execFileSync(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", path.join(ROOT, "tsconfig.test.json")], { stdio: "inherit" });
