// The test files `npm test` runs, longest first: three run at a time on two cores (several files
// mostly wait on servers, timers or child processes), so the long ones start while the short ones
// fill the other slots, and the run does not end on one long file alone. The order
// is by CPU seconds measured in a whole run of the compiled files (2026-12-07); files not listed follow, sorted.
// With --built, the compiled files `npm test` runs (scripts/build-tests.mjs).
import { readdirSync } from "node:fs";
import path from "node:path";

const LONGEST_FIRST = [
  "test/fuzz/datasets.test.ts",
  "test/queue/navigate-queue.test.ts",
  "test/cli/navigate.test.ts",
  "test/cli/strict-providers.test.ts",
  "test/core/atomic-outputs.test.ts",
  "test/benchmarks/vcn/construct/generate.test.ts",
  "test/queue/generate-vcn-queue.test.ts",
  "test/queue/generate-egotl-queue.test.ts",
  "test/benchmarks/egotl/construct/construct.test.ts",
  "test/benchmarks/egopath/construct.test.ts",
  "test/benchmarks/epic/construct/generate.test.ts",
  "test/report/export-cli.test.ts",
  "test/queue/generate-epic-queue.test.ts",
  "test/models/batch-window.test.ts",
  "test/queue/generate-queue.test.ts",
  "test/benchmarks/patheval/pipeline.test.ts",
  "test/benchmarks/vcn/media-layouts.test.ts",
  "test/cli/validate-complete.test.ts",
  "test/fuzz/bridge.test.ts",
  "test/cli/bounds.test.ts",
];

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.isFile() && entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

const all = testFiles("test").sort();
const first = LONGEST_FIRST.filter((f) => all.includes(f));
const ordered = [...first, ...all.filter((f) => !first.includes(f))];
// --built: the compiled files scripts/build-tests.mjs writes (.test-build/test/**/*.test.js).
const built = process.argv.includes("--built");
console.log(ordered.map((f) => (built ? path.join(".test-build", f.replace(/\.ts$/, ".js")) : f)).join("\n"));
