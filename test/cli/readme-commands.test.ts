/**
 * The README's commands run as written (issue 30 item 8): every `run`, `navigate` and `score`
 * command it shows, in code blocks and in the reproduction tables, names its data and (run,
 * navigate) its model; every example folder it names exists; and the overlay example's item is
 * an item of the example the demo runs.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { ROOT } from "../helpers/cli.js";

const README = readFileSync(path.join(ROOT, "README.md"), "utf8");

/** Every `spatialprobe ...` command: code-span ones and lines of sh blocks (comments cut). */
function commands(text: string): string[] {
  const spans = [...text.matchAll(/`(spatialprobe [^`]+)`/g)].map((m) => m[1]!);
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split("\n"));
  const lines = blocks.map((line) => line.replace(/\s+#.*$/, "").trim()).filter((line) => line.startsWith("spatialprobe "));
  return [...spans, ...lines];
}

test("every run, navigate and score command in the README names its data and model", () => {
  const found = commands(README).filter((c) => /^spatialprobe (run|navigate|score) /.test(c));
  assert.ok(found.length > 40, `only ${found.length} commands found`);
  const lacking = found.filter((c) => !c.includes("--data") || (!c.startsWith("spatialprobe score") && !c.includes("--model")));
  assert.deepEqual(lacking, []);
});

test("every example folder the README names exists, and the overlay example's item is in the demo's data", () => {
  const examples = new Set([...README.matchAll(/examples\/([a-z0-9-]+)/g)].map((m) => m[1]!));
  assert.ok(examples.size >= 4, [...examples].join(", "));
  for (const name of examples) assert.ok(existsSync(path.join(ROOT, "examples", name)), `examples/${name}`);
  const overlay = /spatialprobe overlay runs\/demo\/oracle --items (\S+)/.exec(README);
  assert.ok(overlay, "the README shows an overlay command on the demo's oracle run");
  // The demo's oracle run answers examples/egopath-mini (cli/demo.ts DEMO_DATA): its a2 answers name the id.
  const tests = readFileSync(path.join(ROOT, "examples/egopath-mini/benchmark_evalfix/benchmark/gt/gt_next_a2.jsonl"), "utf8");
  assert.ok(tests.includes(`"${overlay[1]}"`), `${overlay[1]} is a question of examples/egopath-mini`);
});
