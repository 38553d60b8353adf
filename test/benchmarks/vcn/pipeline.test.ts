import assert from "node:assert/strict";
import { readdirSync, readFileSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import {
  goalIdResults,
  loadEpisodes,
  loadTrajectories,
  navigationReport,
  vcn,
  type VcnItem,
} from "../../../src/benchmarks/vcn/index.js";
import type { ItemResult, ScoresDocument } from "../../../src/core/benchmark.js";
import { itemKey, readPredictionFile } from "../../../src/core/predictions.js";
import { runItems, scorePredictions } from "../../../src/core/run.js";
import { DEFAULT_SETTINGS } from "../../../src/core/types.js";

const root = path.resolve(import.meta.dirname, "../../..");
const example = path.join(root, "test/fixtures/vcn-legacy-mini");
const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-vcn-pipeline-"));
process.env["SPATIALPROBE_FRAME_CACHE"] = path.join(tmp, "frame-cache");

interface Run {
  items: VcnItem[];
  results: ItemResult[];
  scores: ScoresDocument & Record<string, any>;
  info: Record<string, unknown>;
}

/** The `run` pipeline without the registry: load, derive, prompt, built-in model, score, summarize. */
async function run(model: string, source: string, options: { maxImages?: number; seed?: number } = {}): Promise<Run> {
  const loaded = vcn.load(example);
  assert.deepEqual(loaded.problems, []);
  const setup = { source, control: "none", seed: 5, ...(options.maxImages ? { maxImages: options.maxImages } : {}) };
  const items = vcn.deriveItems!(loaded.items, setup);
  const { build, info } = vcn.preparePrompts(items, setup);
  const baseline = vcn.baselines[model]!;
  const results = await runItems({
    benchmark: vcn,
    items,
    responder: { kind: "baseline", name: model, reply: (item, prompt) => baseline.reply(item, options.seed ?? 1, prompt) },
    build,
    settings: DEFAULT_SETTINGS,
    concurrency: 4,
    retryErrors: false,
    signal: new AbortController().signal,
  });
  const summary = vcn.summarize(items, results, loaded.tasks, { bootstrapResamples: 200, bootstrapSeed: 1 });
  return { items, results, scores: { benchmark: "vcn", model, ...summary, prompt: info } as Run["scores"], info };
}

test("end to end with the random built-in: every item scored, exact chance levels reported", async () => {
  const { items, results, scores } = await run("random", "plain");
  assert.equal(scores.n, 19);
  assert.deepEqual(scores.counts, { parse_failures: 0, errors: 0, missing: 0, items: 19 });
  assert.ok(scores.score >= 0 && scores.score <= 1);
  for (const r of results) {
    assert.equal(r.status, "scored");
    assert.equal((r.prompt!["shown"] as number[]).length, 24);
    assert.ok(Number.isInteger(r.detail!["frame"]));
  }
  // Chance levels recomputed here from the annotations, independently of chance.ts.
  const complete = items.map((i) => i.annotations.filter((a) => (i.target.kind === "room" ? a.room === i.target.room : a.objects.some((o) => o.id === (i.target as { object: string }).object))).length / i.annotations.length);
  const pooled = complete.reduce((a, b) => a + b, 0) / complete.length;
  assert.ok(Math.abs(scores["chance"].complete.average.pooled - pooled) < 1e-12);
  assert.equal(scores["chance"].complete_shown, undefined, "no thinning, no shown-frame chance");
  assert.ok(scores["ci"]["average.pooled"], "bootstrap intervals over houses");
  // The random model's long-run success on one question is its complete chance level.
  const item = items[0]!;
  const info = results[0]!.prompt!;
  let hits = 0;
  const draws = 600;
  for (let seed = 0; seed < draws; seed++) {
    const answer = vcn.readReply(item, vcn.baselines["random"]!.reply(item, seed, info), info);
    hits += vcn.scoreItem(item, answer, info)["success"] === true ? 1 : 0;
  }
  assert.ok(Math.abs(hits / draws - complete[0]!) < 0.05, `${hits / draws} vs ${complete[0]}`);
});

test("oracle answers every question; under shuffled frames its shown-position replies map back to the tour", async () => {
  const plain = await run("oracle", "plain");
  assert.equal(plain.scores.score, 1);
  const shuffled = await run("oracle", "shuffled-frames");
  assert.equal(shuffled.scores.score, 1);
  assert.equal(shuffled.info["variant"], "shuffled-frames");
  let differs = 0;
  for (const r of shuffled.results) {
    assert.equal(r.prompt!["labels"], "shown-position");
    const value = r.answer!.value as { reply_index: number; frame: number };
    assert.equal((r.prompt!["shown"] as number[])[value.reply_index], value.frame);
    if (value.reply_index !== value.frame) differs++;
  }
  assert.ok(differs > 10, "the shown position is generally not the tour index");
  // What `run` exports (answer.stored as "output") replays to the same outcomes without the prompt.
  const rows = new Map(shuffled.results.map((r) => [r.id, new Map<string, import("../../../src/core/pycompat/json.js").PyValue>([["id", r.id], ["output", r.answer!.stored as number]])]));
  const replayed = scorePredictions(vcn, shuffled.items, (item) => rows.get(item.id));
  assert.deepEqual(replayed.map((r) => r.detail!["frame"]), shuffled.results.map((r) => r.detail!["frame"]));
  // first-frame under shuffling picks whatever came first, not tour frame 0.
  const first = await run("first-frame", "shuffled-frames");
  assert.ok(first.results.some((r) => (r.answer!.value as { frame: number }).frame !== 0));
});

test("an image limit thins the tour evenly; labels stay tour indices; the prompt carries 4 views + the kept frames", async () => {
  const { results, scores } = await run("oracle", "plain", { maxImages: 12 });
  for (const r of results) {
    assert.deepEqual(r.prompt!["shown"], [0, 3, 7, 10, 13, 16, 20, 23]);
    assert.equal(r.prompt!["dropped"], 16);
    assert.match(String(r.prompt!["note"]), /24 frames thinned to 8/);
  }
  assert.ok(scores["chance"].complete_shown, "expectations over the shown frames are reported");
  assert.ok(scores.score < 1, "some targets are not among the kept frames");
  const loaded = vcn.load(example);
  const { build } = vcn.preparePrompts(loaded.items, { source: "plain", control: "none", seed: 1, maxImages: 12 });
  const built = await build(loaded.items[0]!);
  assert.ok("messages" in built);
  const parts = built.messages[1]!.content;
  assert.equal(parts.filter((p) => p.type === "image").length, 12);
  const text = parts.filter((p) => p.type === "text").map((p) => (p as { text: string }).text).join("\n");
  assert.match(text, /Only 8 of the 24 tour frames are shown/);
  assert.match(text, /Frame 23:/);
  assert.doesNotMatch(text, /Frame 1:/);
  assert.match(text, new RegExp(loaded.items[0]!.instruction.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  assert.throws(() => vcn.preparePrompts(loaded.items, { source: "plain", control: "none", seed: 1, maxImages: 4 }), /no room for tour frames/);
  assert.throws(() => vcn.preparePrompts(loaded.items, { source: "nope", control: "none", seed: 1 }), /unknown VCN-Bench prompt/);
});

test("counterfactual variant: swapped instructions, recomputed targets, skipped items counted", async () => {
  const { items, scores, info } = await run("oracle", "counterfactual");
  assert.equal(items.length, 17);
  assert.ok(items.every((i) => i.id.endsWith("~cf") && i.derivation));
  assert.equal(scores.score, 1, "the oracle follows the recomputed target");
  assert.deepEqual(info["counterfactual"], { derived: 17, skipped: 2, total: 19 });
  assert.equal(scores["counterfactual"].skipped, 2);
  assert.deepEqual(scores["counterfactual"].skipped_reasons, { "no query structure": 1, "the swapped relation names no target": 1 });
  assert.equal(scores["counterfactual"].chose_original_target, 0);
  const stale = await run("random-category", "counterfactual");
  assert.equal(stale.scores["counterfactual"].n, 17);
  const md = vcn.markdown([stale.scores]);
  assert.match(md, /### Counterfactual instructions/);
  assert.match(md, /\| random-category \(counterfactual\) \| 17 \| 2 of 19 \|/);
});

test("stored predictions ({id, response} or {id, frame}) score through the official path; missing rows count", () => {
  const { items } = vcn.load(example);
  const file = path.join(tmp, "preds.jsonl");
  const target = items[0]!;
  const success = target.annotations.find((a) => (target.target.kind === "room" ? a.room === target.target.room : false))!.index;
  writeFileSync(file, [JSON.stringify({ id: items[0]!.id, response: `Frame ${success}` }), JSON.stringify({ id: items[1]!.id, frame: 999 }), JSON.stringify({ id: items[2]!.id, response: "no idea" })].join("\n"));
  const rows = readPredictionFile(file, vcn.predictionIdField);
  const results = scorePredictions(vcn, items, (item) => rows.get(itemKey(item.rawId)));
  assert.equal(results[0]!.detail!["success"], true);
  assert.equal(results[1]!.detail!["error"], "out-of-range");
  assert.equal(results[2]!.answer!.status, "unparseable");
  assert.equal(results[3]!.answer!.status, "missing");
  const s = vcn.summarize(items, results, ["count", "order", "distance", "orientation", "instance"], { bootstrapResamples: 0, bootstrapSeed: 1 }) as unknown as ScoresDocument & Record<string, any>;
  assert.equal(s.counts.parse_failures, 1);
  assert.equal(s.counts.missing, 16);
  assert.equal(s.n, 19);
  assert.equal(s["errors"].r2o["no-answer"] + s["errors"].object["no-answer"], 17);
});

test("reports: goal identification tables with chance side by side, taxonomy, and navigation joined by episode", async () => {
  const random = await run("random", "plain");
  const oracle = await run("oracle", "plain");
  const md = vcn.markdown([random.scores, oracle.scores]);
  assert.match(md, /## VCN-Bench goal identification/);
  assert.match(md, /\| oracle \| plain \| 19\/19 \| 19 \| 100\.0 \| 100\.0 \| 100\.0 \| 100\.0 \| 100\.0 \|/);
  assert.match(md, /\| chance: complete \| plain \| – \| 19 \|/);
  assert.match(md, /\| chance: category \| plain \| – \| 19 \|/);
  assert.equal(md.match(/\| chance: complete \| plain/g)!.length, 1, "chance rows once per question set");
  assert.match(md, /### Error taxonomy/);
  assert.match(vcn.terminal(random.scores), /Rid-SR .* Oid-SR .* Avg/);
  const episodes = loadEpisodes(path.join(example, "episodes.json.gz"));
  const trajectories = loadTrajectories(path.join(example, "trajectories.jsonl"));
  assert.equal(episodes.length, 19);
  assert.equal(trajectories.length, 18);
  const report = navigationReport(episodes, trajectories, goalIdResults(random.items, random.results));
  assert.equal(report.summary.missing, 1);
  assert.equal(report.conditional!.correct.n + report.conditional!.wrong.n, 19);
  assert.equal(report.conditional!.correct.n, random.results.filter((r) => r.detail!["success"] === true).length);
  const withNav = vcn.markdown([{ ...random.scores, navigation: report }]);
  assert.match(withNav, /### random: navigation/);
  assert.match(withNav, /\| goal identified \|/);
  // Scripted behaviours: the direct and detour episodes succeed, the others do not.
  assert.ok(report.summary.SR! > 0.2 && report.summary.SR! < 0.6);
  assert.ok(report.per_episode.some((e) => e.success === 1 && e.spl < 1), "a detour");
});

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true }).map(String).filter((f) => /\.[a-z]+$/.test(f)).sort();
}

