// `npm test` runs the test files as JavaScript compiled once, not through tsx: tsx's loader costs
// each of the ~260 test processes 0.3-1 s of CPU. .test-build/ holds a copy of what the repository
// ships (src/, test/, examples/, templates/, ...) with every .ts compiled beside it (types are
// checked by `npm run build`, not here), and links to node_modules/ and dist/. Copies, not links:
// a dataset reached through a link is refused, and paths a test compares must be the paths the
// code sees. A script a test starts with `node --import tsx x.ts` is still there. One file still
// runs as `node --import tsx --test test/FILE.test.ts`.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const OUT = path.join(ROOT, ".test-build");
/** The repository's top-level entries (git ls-files), tsconfig.test.json aside. */
const COPIED = [".ci", "DESIGN.md", "README.md", "bench", "bin", "docs", "examples", "package-lock.json", "package.json", "schemas", "scripts", "src", "templates", "test", "tools", "tsconfig.json"];
const LINKED = ["node_modules", "dist"];

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT);
for (const entry of COPIED) if (existsSync(path.join(ROOT, entry))) cpSync(path.join(ROOT, entry), path.join(OUT, entry), { recursive: true, verbatimSymlinks: true });
for (const entry of LINKED) if (existsSync(path.join(ROOT, entry))) symlinkSync(path.join(ROOT, entry), path.join(OUT, entry));
execFileSync(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", path.join(ROOT, "tsconfig.test.json")], { stdio: "inherit" });
