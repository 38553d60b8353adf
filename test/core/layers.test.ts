/**
 * The layering DESIGN.md asks for (issue 30): what a benchmark shows in reports comes from its own
 * folder through the Benchmark interface, so report/, serve/, world/, sim/ and models/ import no
 * module of benchmarks/, and cli/ imports a benchmark only through its index (or the modules benchmarks/
 * shares among them, directly in that folder).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";

const SRC = path.resolve(import.meta.dirname, "../../src");
const BENCHMARKS = path.join(SRC, "benchmarks");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? sourceFiles(file) : file.endsWith(".ts") ? [file] : [];
  });
}

/** Every module a file imports (static, re-exported, type-only or dynamic), as a path under src/ ending in .ts. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)"(\.[^"]+)"/gm)].map((m) => m[1]!);
  return specifiers.map((s) => path.resolve(path.dirname(file), s).replace(/\.js$/, ".ts"));
}

const relative = (file: string) => path.relative(SRC, file);

test("report/, serve/, world/, sim/ and models/ import nothing from benchmarks/", () => {
  const found = ["report", "serve", "world", "sim", "models"].flatMap((layer) =>
    sourceFiles(path.join(SRC, layer)).flatMap((file) => importsOf(file).filter((m) => m.startsWith(BENCHMARKS + path.sep)).map((m) => `${relative(file)} -> ${relative(m)}`)),
  );
  assert.deepEqual(found, []);
});

test("cli/ imports a benchmark only through its index", () => {
  const internal = (m: string) => {
    if (!m.startsWith(BENCHMARKS + path.sep)) return false;
    const parts = path.relative(BENCHMARKS, m).split(path.sep);
    // benchmarks/<shared>.ts, or benchmarks/<name>/index.ts
    return !(parts.length === 1 || (parts.length === 2 && parts[1] === "index.ts"));
  };
  const found = sourceFiles(path.join(SRC, "cli")).flatMap((file) => importsOf(file).filter(internal).map((m) => `${relative(file)} -> ${relative(m)}`));
  assert.deepEqual(found, []);
});

test("the import reader sees every form the rule is about", () => {
  // The reader itself: a rule over imports it cannot see would pass on anything.
  const sample = path.join(SRC, "report", "episode-runs.ts");
  const seen = importsOf(sample).map(relative);
  assert.ok(seen.includes("registry.ts"), `episode-runs.ts imports registry.ts: ${seen.join(", ")}`);
  assert.ok(seen.includes(path.join("report", "run-folder.ts")), "type-only imports are read too");
  const navigate = importsOf(path.join(SRC, "cli", "navigate.ts")).map(relative);
  assert.ok(navigate.includes(path.join("benchmarks", "vcn", "index.ts")), navigate.join(", "));
});
