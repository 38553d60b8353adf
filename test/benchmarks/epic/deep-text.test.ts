/**
 * A text_annotation field holding a list nested 100,000 levels deep (found by the fuzz suite,
 * test/fuzz/): the prompt's text is the field read as Python's str(), which was JSON.stringify for
 * lists and objects and overflowed the stack, so `validate` died with "Maximum call stack size
 * exceeded". It is a problem on the field now, as Python's RecursionError would stop the official
 * converter.
 */
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { loadEpic } from "../../../src/benchmarks/epic/load.js";

const EXAMPLE = path.resolve(import.meta.dirname, "../../../examples/epic-mini");
const top = mkdtempSync(path.join(os.tmpdir(), "epic-deep-text-"));
after(() => rmSync(top, { recursive: true, force: true }));

test("a text_label nested 100,000 deep is a problem on text_annotation.text_label, not a stack overflow", () => {
  const root = path.join(top, "set");
  cpSync(EXAMPLE, root, { recursive: true });
  const folder = path.join(root, "EPIC_Bench/TargetLocalization/BasicAttributes/Category");
  const file = path.join(folder, "0001_mask_rle.json");
  const sample = JSON.parse(readFileSync(file, "utf8")) as { text_annotation: Record<string, unknown> };
  sample.text_annotation["text_label"] = "@DEEP@";
  writeFileSync(file, JSON.stringify(sample).replace('"@DEEP@"', "[".repeat(100_000) + "]".repeat(100_000)));
  assert.ok(readdirSync(folder).includes("0001_image.jpg"));
  const { problems } = loadEpic(root, { requests: { source: "mask-overlay" } });
  const found = problems.find((p) => p.file.endsWith("Category/0001_mask_rle.json") && p.field === "text_annotation.text_label");
  assert.ok(found, JSON.stringify(problems).slice(0, 500));
  assert.match(found.message, /nested too deeply/);
});
