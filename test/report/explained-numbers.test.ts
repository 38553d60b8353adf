/**
 * Numbers a reader would otherwise misread come with their reason (issue 30 item 11): the EPIC
 * oracle below 100 (boxes scored against masks), a VCN average of "—" (instruction types the run
 * asked nothing of), an EgoPath Score below 0 (chance-adjusted traversability).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type { ScoresDocument } from "../../src/core/benchmark.js";
import { egopathMarkdown } from "../../src/benchmarks/egopath/report.js";
import { epicMarkdown, ORACLE_NOTE } from "../../src/benchmarks/epic/report.js";
import { vcnMarkdown } from "../../src/benchmarks/vcn/report.js";

const RUNS = path.resolve(import.meta.dirname, "../fixtures/report-runs");
const scores = (...parts: string[]) => JSON.parse(readFileSync(path.join(RUNS, ...parts, "scores.json"), "utf8")) as ScoresDocument;

test("EPIC: the oracle's score is explained under the table, only when an oracle run is shown", () => {
  const random = scores("epic", "random");
  assert.ok(!epicMarkdown([random]).includes(ORACLE_NOTE));
  const oracle = { ...random, model: "oracle" } as ScoresDocument;
  const md = epicMarkdown([oracle, random]);
  assert.ok(md.includes(`\n\n${ORACLE_NOTE}\n`), md.slice(0, 800));
  assert.match(ORACLE_NOTE, /boxes with the masks/);
});

test("VCN: a run that asked no question of a type says so beside its \"—\" averages", () => {
  const oracle = scores("vcn", "oracle");
  assert.ok(!vcnMarkdown([oracle]).includes("question was asked"));
  const tasks = structuredClone(oracle["tasks"]) as Record<string, { n: number; SR: number | null }>;
  tasks["orientation"] = { ...tasks["orientation"]!, n: 0, SR: null };
  const counterfactual = { ...oracle, name: "cf", tasks, counterfactual: { n: 8, skipped: 2, total: 10, chose_original_target: 0, chose_original_rate: 0, target_unchanged: 0 } } as unknown as ScoresDocument;
  assert.ok(vcnMarkdown([counterfactual]).includes(`- cf: no Orientation question was asked (a counterfactual instruction could be made for 8 of 10 questions: see "Counterfactual instructions"), so the averages over every type are "—".`));
});

test("EgoPath: the score's formula is printed, so a score below 0 reads as worse than chance", () => {
  const md = egopathMarkdown([scores("egopath", "random")]);
  assert.ok(md.includes("it is the mean of (2·BA − 1) for a1 and b1 and SR for a2, b2 and c (supplement, EgoPath Score), so traversability worse than a coin flip counts below 0 and a run can score below 0."));
});
