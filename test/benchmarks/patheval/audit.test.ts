import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { fittedReplies, summaryOfReplies } from "../../helpers/audit.js";
import type { AuditUnit, BlindRule } from "../../../src/audit/types.js";
import { pathevalAudit, table12Chance } from "../../../src/benchmarks/patheval/audit.js";
import { generatePathEval } from "../../../src/benchmarks/patheval/generate.js";
import { abstractionItems, DESCRIPTORS, patheval, SCENARIOS, type PathEvalItem } from "../../../src/benchmarks/patheval/index.js";
import { createRng } from "../../../src/stats/rng.js";

/** Score one rule's replies with the benchmark's own reader, scorer and summary (what the audit core does). */
const scoreRule = (items: PathEvalItem[], units: AuditUnit[], rule: BlindRule, train: AuditUnit[] = units) => summaryOfReplies(patheval, items, fittedReplies(rule, units, train), units, ["2D", "3D"]);

const rule = (name: string) => pathevalAudit.rules.find((r) => r.name === name)!;
const values = (v: number) => Object.fromEntries(DESCRIPTORS.map((d) => [d, v])) as PathEvalItem["metrics"]["Path 1"];

/** A made-up 2D pair of scenario `scenarioId` whose right path is `truth` (no picture is read by the audit). */
function makePair(k: number, scenarioId: number, truth: "Path 1" | "Path 2"): PathEvalItem {
  return {
    id: `2D/${k}`, recordId: k, task: "2D", cluster: `env${k % 5}`, imagePath: "/nowhere.png",
    question: SCENARIOS.find((s) => s.id === scenarioId)!.text, scenarioId, truth,
    metrics: { "Path 1": values(1), "Path 2": values(2) }, source: { file: "2D/test_dataset_2D.json", index: k },
  };
}

function makeSet(planted: boolean, count: number, seed: number): PathEvalItem[] {
  const rng = createRng(seed);
  return Array.from({ length: count }, (_, k) => makePair(k, 1 + (k % 15), planted || rng.chance(0.5) ? "Path 1" : "Path 2"));
}

test("planted shortcut (the right path is always shown first): first-shown scores accuracy 1.0 through the benchmark's scorer", async () => {
  const items = makeSet(true, 60, 1);
  const units = await pathevalAudit.units(items, { root: "/nowhere", cues: false });
  assert.deepEqual(pathevalAudit.headline(scoreRule(items, units, rule("first-shown")), "2D"), { metric: "accuracy", score: 1, ci: null });
  assert.equal(pathevalAudit.headline(scoreRule(items, units, rule("scenario-position-prior")), "2D").score, 1);
  assert.equal(pathevalAudit.headline(scoreRule(items, units, rule("second-shown")), "2D").score, 0);
  assert.ok(units.every((u) => u.answerClass === "first shown"));
  // The prompt's text: the system line, the scenario, the names in shown order and the reply form.
  assert.ok(units[0]!.text.startsWith("You are an expert in robot path planning and navigation.\nA large truck must drive through this maze"));
  assert.ok(units[0]!.text.includes("Path 1 on the left and Path 2 on the right") && units[0]!.text.includes("Answer: Path 1 or Path 2."));
  assert.equal(pathevalAudit.chance(items, "2D"), 0.5);
  assert.equal(pathevalAudit.chance(items, "3D"), null);
});

test("answers drawn at random: every pair rule stays near 0.5", async () => {
  const items = makeSet(false, 600, 9);
  const units = await pathevalAudit.units(items, { root: "/nowhere", cues: false });
  // 300 held out: binomial sd sqrt(0.25 / 300) = 0.029; the bound is 3 sd.
  for (const name of ["first-shown", "second-shown", "scenario-position-prior"]) {
    const score = pathevalAudit.headline(scoreRule(items.slice(300), units.slice(300), rule(name), units.slice(0, 300)), "2D").score!;
    assert.ok(Math.abs(score - 0.5) <= 0.087, `${name}: ${score}`);
  }
});

test("Table 12 (list format): naming every descriptor always wins; its exact chance is 88.96%", async () => {
  const records = Array.from({ length: 15 }, (_, k) => makePair(k, k + 1, "Path 1"));
  const items = abstractionItems(records, "list");
  const units = await pathevalAudit.units(items, { root: "/nowhere", cues: false });
  assert.ok(units.every((u) => u.task === "attribute-abstraction" && u.answer.kind === "subset"));
  const summary = scoreRule(items, units, rule("name-every-descriptor"));
  assert.deepEqual(pathevalAudit.headline(summary, "attribute-abstraction"), { metric: "Table 12: at least one needed descriptor named", score: 1, ci: null });
  // Needed descriptors per scenario 1..15 (paper Table 7): 3 3 3 6 2 3 3 2 4 3 5 3 5 3 6.
  const needed = [3, 3, 3, 6, 2, 3, 3, 2, 4, 3, 5, 3, 5, 3, 6];
  const expected = needed.reduce((s, k) => s + (1 - 0.5 ** k), 0) / 15;
  assert.ok(Math.abs(pathevalAudit.chance(items, "attribute-abstraction")! - expected) < 1e-12);
  assert.ok(Math.abs(expected - 0.8895833333) < 1e-9);
  assert.equal(table12Chance(5), 0.75);
  // Stances format: a uniform random direction per descriptor is right a third of the time.
  assert.equal(pathevalAudit.chance(abstractionItems(records), "attribute-abstraction"), 1 / 3);
});

// A small generated set (the benchmark has no example set): 2 environments, one test pair per scenario.
const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-patheval-audit-"));
const data = path.join(tmp, "set");
before(async () => {
  await generatePathEval({ outDir: data, seed: 3, environments: 2, runsPerEnvironment: 8, testPerScenario: 1, workers: 1 });
});
after(() => rmSync(tmp, { recursive: true, force: true }));

test("units(): on a generated set, each candidate's label is the credit the benchmark's scorer gives its reply (pairs, fine-grained, abstraction)", async () => {
  const { items, problems } = patheval.load(data);
  assert.deepEqual(problems, []);
  assert.equal(items.length, 30);
  const asked = [
    ...items,
    ...patheval.deriveItems!(items, { source: "fine-grained-test-set", control: "none", seed: 0 }),
    ...patheval.deriveItems!(items, { source: "attribute-abstraction", control: "none", seed: 0 }),
  ];
  const units = await pathevalAudit.units(asked, { root: data, cues: false });
  let checked = 0;
  for (const [k, unit] of units.entries()) {
    const item = asked[k]!;
    assert.ok(unit.answer.kind === "choice");
    for (const c of unit.answer.candidates) {
      const detail = patheval.scoreItem(item, patheval.readReply(item, c.reply, unit.prompt), unit.prompt);
      assert.equal(pathevalAudit.credit(item, detail), c.label, `${item.id} ${c.reply}`);
      checked++;
    }
  }
  assert.ok(checked > 60 + 3 * 15);
  // The list format: each descriptor alone, replied as a list, gets credit exactly when it is needed.
  const lists = patheval.deriveItems!(items, { source: "attribute-abstraction-list", control: "none", seed: 0 });
  for (const unit of await pathevalAudit.units(lists, { root: data, cues: false })) {
    const item = lists.find((i) => i.id === unit.id)!;
    assert.ok(unit.answer.kind === "subset");
    const { reply, candidates } = unit.answer;
    candidates.forEach((c, j) => {
      const detail = patheval.scoreItem(item, patheval.readReply(item, reply([j]), unit.prompt), unit.prompt);
      assert.equal(pathevalAudit.credit(item, detail), c.label, `${item.id} ${c.reply}`);
    });
  }
});

test("writeSubset: the kept records load back identical from the written folder", async () => {
  const { items } = patheval.load(data);
  const keep = new Set(["2D/0", "2D/4", "3D/4", "3D/9"]);
  const out = path.join(tmp, "subset");
  await pathevalAudit.writeSubset(data, items, keep, out);
  const back = patheval.load(out);
  assert.deepEqual(back.problems, []);
  assert.deepEqual(back.items.map((i) => i.id), ["2D/0", "2D/4", "3D/4", "3D/9"]);
  const strip = (i: PathEvalItem, root: string) => JSON.parse(JSON.stringify({ ...i, source: null }).split(root).join("<root>")) as unknown;
  for (const item of back.items) assert.deepEqual(strip(item, out), strip(items.find((i) => i.id === item.id)!, data));
  const originals = JSON.parse(readFileSync(path.join(data, "2D/test_dataset_2D.json"), "utf8")) as unknown[];
  assert.deepEqual(JSON.parse(readFileSync(path.join(out, "2D/test_dataset_2D.json"), "utf8")), [originals[0], originals[4]]);
});
