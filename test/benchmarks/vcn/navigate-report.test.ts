import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import sharp from "sharp";
import type { Browser, Page } from "playwright-core";
import { navigationRunMarkdown, navigationRunsMarkdown, type NavigationRunScores } from "../../../src/benchmarks/vcn/navigate/report.js";
import type { EpisodeRecord } from "../../../src/benchmarks/vcn/navigate/types.js";
import { executeRun } from "../../../src/core/session.js";
import { htmlReport } from "../../../src/report/html-report.js";
import { summaryHtml } from "../../../src/report/page.js";
import { markdownReport, readScores } from "../../../src/report/render.js";
import { episodeDetail, episodeRows, readingWords } from "../../../src/benchmarks/vcn/navigate/folder.js";
import { readRunFolder, RunFolderError } from "../../../src/report/run-folder.js";
import { startViewer, type Viewer } from "../../../src/serve/server.js";
import { artifact, launchBrowser, openRecordedPage } from "../../helpers/browser.js";
import { writePng } from "../../helpers/pixels.js";

/**
 * Navigation runs (`navigate vcn` folders) in the reports and the viewer, on run folders written
 * by hand: scores.json with numbers chosen here, episodes.jsonl, top-down pictures and step sheets.
 * Every expected cell is worked out in the comments from those numbers.
 */
const ROOT = path.resolve(import.meta.dirname, "../../..");
const work = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-navreport-"));
const PAYLOAD = `<script>window.__pwned = "script"</script><img src=x onerror="window.__pwned='img'"> {"action": "FORWARD"}`;
const HOSTILE_MODEL = `openai:<img src=x onerror="window.__pwned='model'">`;
const dirs = { oracle: path.join(work, "nav-oracle"), model: path.join(work, "nav-model"), live: path.join(work, "nav-live"), items: path.join(work, "items") };

const summary = (n: number, SR: number, SPL: number, extra: Record<string, number> = {}) => ({ n, SR, SPL, soft_SPL: SPL, SSR: SR, RSR: SR, rsr_n: n, DTG: 1, missing: 0, ...extra });

/**
 * The oracle run, complete: 4 episodes (count x2, order, instance).
 *   Avg. SR  = mean(1, 1, 0) = 66.7; Avg. SPL = mean(0.96, 0.90, 0) = 62.0
 *   RSR over R2O = (1 * 2 + 1 * 1) / 3 = 100.0 (3); SSR Instance = 100.0 (1)
 *   steps per episode mean(3, 2, 2, 1) = 2.0; collisions mean(1, 1, 0, 0) = 0.5
 *   P(N|G) = 2/3 = 66.7 (3), P(N|¬G) = 0.0 (1); over the R2O types RSR|G 100.0 (2), RSR|¬G 0.0 (1)
 */
const oracleScores: NavigationRunScores = {
  kind: "navigation", benchmark: "vcn", data: "/data/vcn", model: "oracle", agent: "oracle", mode: "action", intervention: "none",
  simulator: { simulator: "spatialprobe-world", forward_step_m: 0.25, turn_step_deg: 30, max_actions: 1000, robot: { height_m: 1.41, radius_m: 0.17 }, camera: { height_m: 1.31, hfov_deg: 90, width: 384, height: 384, pitch_deg: 0 }, views: ["front", "left", "back", "right"], depth: false },
  complete: true, counts: { episodes: 4, done: 4, error: 0, not_run: 0 },
  navigation: {
    metric_variant: "paper",
    metric_variant_note: "The paper's rule: STOP within 1 m of a view point.",
    summary: summary(4, 0.75, 0.705, { soft_SPL: 0.8, SSR: 1, RSR: 0.75, DTG: 0.95, steps: 2, collisions: 0.5 }),
    by_task: {
      count: summary(2, 1, 0.96, { RSR: 1 }),
      order: summary(1, 1, 0.9, { RSR: 1 }),
      instance: summary(1, 0, 0, { SSR: 1, RSR: 0, DTG: 2.5 }),
    },
    conditional: { correct: summary(3, 2 / 3, 0.6, { RSR: 1 }), wrong: summary(1, 0, 0, { RSR: 0 }), no_result: summary(0, 0, 0, { rsr_n: 0 }) },
    conditional_r2o: { correct: summary(2, 1, 0.9, { RSR: 1 }), wrong: summary(1, 1, 0.96, { RSR: 0 }), no_result: summary(0, 0, 0, { rsr_n: 0 }) },
    goal_identification: {
      by_task: {
        count: { metric: "Rid-SR", first: { value: 1, n: 2 }, last: { value: 0.5, n: 2 }, navigation: { metric: "RSR", value: 1, n: 2 } },
        order: { metric: "Rid-SR", first: { value: 0, n: 1 }, last: { value: 1, n: 1 }, navigation: { metric: "RSR", value: 1, n: 1 } },
        instance: { metric: "Oid-SR", first: { value: 1, n: 1 }, last: { value: 1, n: 1 }, navigation: { metric: "SSR", value: 1, n: 1 } },
      },
      "Rid-SR": { first: { mean_of_types: 0.5, pooled: 2 / 3, n: 3 }, last: { mean_of_types: 0.75, pooled: 2 / 3, n: 3 }, navigation: { metric: "RSR", value: { mean_of_types: 1, pooled: 1, n: 3 } } },
      "Oid-SR": { first: { mean_of_types: 1, pooled: 1, n: 1 }, last: { mean_of_types: 1, pooled: 1, n: 1 }, navigation: { metric: "SSR", value: { mean_of_types: 1, pooled: 1, n: 1 } } },
    },
    correlations: {
      all: {
        success: { frames: { r: 0.5, n: 4 }, rooms: { r: -0.25, n: 4 }, area_m2: { r: null, n: 2 } },
        goal_first: { frames: { r: 0.123, n: 4 }, rooms: { r: null, n: 4 }, area_m2: { r: 1, n: 2 } },
        goal_last: { frames: { r: -1, n: 4 }, rooms: { r: 0, n: 4 }, area_m2: { r: null, n: 2 } },
      },
      count: { success: { frames: { r: null, n: 2 }, rooms: { r: null, n: 2 }, area_m2: { r: null, n: 1 } } },
    },
    per_episode: [
      { episode_id: "e1", task_type: "count", has_trajectory: true, stop: true, steps: 3, collisions: 1, path_length: 0.75, shortest_path: 0.72, distance_to_goal: 0.2, success: 1, spl: 0.96, soft_spl: 0.96, ssr: 1, rsr: 1 },
      { episode_id: "e2", task_type: "count", has_trajectory: true, stop: true, steps: 2, collisions: 1, path_length: 0.5, shortest_path: 0.48, distance_to_goal: 0.3, success: 1, spl: 0.96, soft_spl: 0.96, ssr: 1, rsr: 1 },
      { episode_id: "e3", task_type: "order", has_trajectory: true, stop: true, steps: 2, collisions: 0, path_length: 0.5, shortest_path: 0.45, distance_to_goal: 0.4, success: 1, spl: 0.9, soft_spl: 0.9, ssr: 1, rsr: 1 },
      { episode_id: "e4", task_type: "instance", has_trajectory: true, stop: true, steps: 1, collisions: 0, path_length: 0, shortest_path: 2.5, distance_to_goal: 2.5, success: 0, spl: 0, soft_spl: 0, ssr: 1, rsr: 0 },
    ] as never,
    options: { success_distance: 1, ssr_distance: 3, distance: "euclidean", ignore_height: false, rsr_requires_stop: false, room_source: "simulator" },
  } as never,
  created_at: "2026-12-01T00:00:00.000Z",
};

/**
 * A model run, incomplete: 4 episodes asked, 2 done, 1 error, 1 not run. Instance's only episode
 * ended in an error (n 1, missing 1), so the averages cover 2 of 3 types.
 */
const modelScores: NavigationRunScores = {
  kind: "navigation", benchmark: "vcn", data: "/data/vcn", model: HOSTILE_MODEL, agent: "model", mode: "waypoint", intervention: "shuffled-prior",
  complete: false, counts: { episodes: 4, done: 2, error: 1, not_run: 1, skipped: 2 },
  usage: { decisions: 7, requests: 5, reused: 2, input_tokens: 123456, output_tokens: 789 },
  navigation: {
    summary: summary(3, 1 / 3, 0.3, { missing: 1 }),
    by_task: { count: summary(1, 1, 0.9), order: summary(1, 0, 0), instance: summary(1, 0, 0, { missing: 1 }) },
    per_episode: [
      { episode_id: "b1", task_type: "count", has_trajectory: true, stop: true, steps: 2, collisions: 0, success: 1, spl: 0.9 },
      { episode_id: "b2", task_type: "order", has_trajectory: true, stop: false, steps: 4, collisions: 2, success: 0, spl: 0 },
    ] as never,
  } as never,
  created_at: "2026-12-01T00:00:00.000Z",
};

/** An episode record that moves FORWARD `steps` times along +x, the listed actions collided. */
function episode(id: string, task: string, steps: number, over: Partial<EpisodeRecord> & { collided?: number[]; views?: boolean; reply?: string } = {}): EpisodeRecord {
  const { collided = [], views = false, reply, ...rest } = over;
  const decisions = reply === undefined
    ? [{ index: 0, at_step: 0, kind: "goto" as const, goto: { targets: [[0.25 * steps, 0, 0] as [number, number, number]], radius_m: 0.2, then: "stop" as const, why: "shortest path to the nearest view point" } }]
    : Array.from({ length: steps }, (_, k) => ({ index: k, at_step: k, kind: "action" as const, action: "FORWARD" as const, reply, reading: { ok: true as const, frame: 3, action: "FORWARD" as const, rule: "json" }, goal_frame: 3, goal_correct: true }));
  return {
    episode_id: id, scene_id: "house_001", task_type: task, agent: reply === undefined ? "oracle" : "model", intervention: "none", status: "done", end: "stop",
    start: { position: [0, 0, 0], heading_deg: 0, ...(views ? { views: `episodes/${id}/steps/0.jpg` } : {}) },
    steps: Array.from({ length: steps }, (_, k) => ({
      t: k + 1, action: "FORWARD" as const, position: [0.25 * (k + 1), 0, 0] as [number, number, number], heading_deg: 0, collided: collided.includes(k + 1),
      decision: reply === undefined ? 0 : k, ...(views ? { views: `episodes/${id}/steps/${k + 1}.jpg` } : {}),
    })),
    decisions,
    instruction: `Go to the ${task} room of episode ${id}.`,
    prior: { frames: 24, rooms: 4, area_m2: 52.5 },
    wall_ms: 10,
    ...rest,
  };
}

const jsonl = (records: unknown[]) => records.map((r) => `${JSON.stringify(r)}\n`).join("");
const TOPDOWN_COLOUR: [number, number, number] = [40, 160, 90];

async function writeSheet(file: string, shade: number): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  await sharp({ create: { width: 96, height: 96, channels: 3, background: { r: shade, g: 80, b: 200 } } }).jpeg().toFile(file);
}

let oracleRecords: EpisodeRecord[];
let modelRecords: EpisodeRecord[];

before(async () => {
  oracleRecords = [episode("e1", "count", 3, { collided: [2], views: true }), episode("e2", "count", 26, { collided: [1] }), episode("e3", "order", 2), episode("e4", "instance", 1)];
  modelRecords = [
    episode("b1", "count", 2, { reply: PAYLOAD }),
    episode("b2", "order", 4, { reply: PAYLOAD, end: "action-limit", collided: [2, 3] }),
    { ...episode("b3", "instance", 1, { reply: PAYLOAD }), status: "error", end: "error", decisions: [{ index: 0, at_step: 0, kind: "none", error: { kind: "server", status: 500, message: "<b>upstream</b> failed" } }], steps: [{ t: 1, action: "FORWARD", position: [0.25, 0, 0], heading_deg: 0, collided: false, decision: 0, views: "../outside.jpg" }] },
  ];
  for (const [dir, scores, records] of [[dirs.oracle, oracleScores, oracleRecords], [dirs.model, modelScores, modelRecords]] as const) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "scores.json"), `${JSON.stringify(scores, null, 2)}\n`);
    writeFileSync(path.join(dir, "episodes.jsonl"), jsonl(records));
    // scores.json is written last by a finished run: make it the newer file.
    utimesSync(path.join(dir, "episodes.jsonl"), new Date("2026-12-01T00:00:00Z"), new Date("2026-12-01T00:00:00Z"));
    for (const r of records) {
      mkdirSync(path.join(dir, "episodes", r.episode_id), { recursive: true });
      await writePng(path.join(dir, "episodes", r.episode_id, "topdown.png"), 60, 40, () => TOPDOWN_COLOUR);
    }
  }
  for (let t = 0; t <= 3; t++) await writeSheet(path.join(dirs.oracle, "episodes/e1/steps", `${t}.jpg`), 30 + 50 * t);
  writeFileSync(path.join(work, "outside.jpg"), "outside the run folder");
});

// ------------------------------------------------------------------ Markdown

const lineOf = (markdown: string, start: string) => markdown.split("\n").find((l) => l.startsWith(start));

test("Markdown: Table 1 per instruction type, the detail and conditional tables, the metric variant, incomplete runs marked", () => {
  const md = navigationRunsMarkdown([oracleScores, modelScores]);
  const modelLabel = "openai:\\<img src=x onerror=\"window.\\_\\_pwned='model'\"\\> (model, waypoint, shuffled-prior)";
  assert.equal(lineOf(md, "| Run | Episodes | Count SR"), "| Run | Episodes | Count SR | Count SPL | Order SR | Order SPL | Distance SR | Distance SPL | Orientation SR | Orientation SPL | Instance SR | Instance SPL | Avg. SR | Avg. SPL |");
  assert.equal(lineOf(md, "| oracle | 4/4 | 100.0"), "| oracle | 4/4 | 100.0 | 96.0 | 100.0 | 90.0 | – | – | – | – | 0.0 | 0.0 | 66.7 | 62.0 |");
  assert.equal(lineOf(md, `| ${modelLabel} | 2/4 incomplete | 100.0`), `| ${modelLabel} | 2/4 incomplete | 100.0 | 90.0 | 0.0 | 0.0 | – | – | – | – | 0.0 | 0.0 | — (2 of 3 types) | — (2 of 3 types) |`);
  assert.ok(md.includes("Metrics: metric variant paper (The paper's rule: STOP within 1 m of a view point); euclidean distances, success \\< 1.00 m, SSR \\< 3.00 m."));

  // SR 75.0, SPL 70.5, soft SPL 80.0; RSR over R2O 100.0 (3); SSR Instance 100.0 (1); DTG 0.95; steps 2.0; collisions 0.5.
  assert.equal(lineOf(md, "| oracle | 4/4 | 75.0"), "| oracle | 4/4 | 75.0 | 70.5 | 80.0 | 100.0 (3) | 100.0 (1) | 0.95 | 2.0 | 0.5 | 4 | 0 | 0 | complete |");
  // The model run: SR 1/3 = 33.3; RSR R2O (1 * 1 + 0 * 1) / 2 = 50.0 (2); steps mean(2, 4) = 3.0; collisions mean(0, 2) = 1.0.
  assert.equal(lineOf(md, `| ${modelLabel} | 2/4 incomplete | 33.3`), `| ${modelLabel} | 2/4 incomplete | 33.3 | 30.0 | 30.0 | 50.0 (2) | 0.0 (1) | 1.00 | 3.0 | 1.0 | 2 | 1 | 1 | incomplete: 1 error, 1 not run |`);

  assert.equal(lineOf(md, "| Run | Episodes | P(N"), "| Run | Episodes | P(N\\|G) | P(N\\|¬G) | RSR\\|G, R2O | RSR\\|¬G, R2O | No goal named |");
  assert.equal(lineOf(md, "| oracle | 4/4 | 66.7"), "| oracle | 4/4 | 66.7 (3) | 0.0 (1) | 100.0 (2) | 0.0 (1) | 0 |");
  // Per instruction type (summary(n, SR, SPL): soft SPL = SPL, SSR = RSR = SR, rsr_n = n, DTG 1).
  assert.equal(lineOf(md, `| ${modelLabel} | Count |`), `| ${modelLabel} | Count | 1 | 100.0 | 90.0 | 90.0 | 100.0 (1) | 100.0 | 1.00 |`);
  assert.equal(lineOf(md, `| ${modelLabel} | Instance |`), `| ${modelLabel} | Instance | 1 | 0.0 | 0.0 | 0.0 | 0.0 (1) | 0.0 | 1.00 |`);
  assert.equal(md.split("\n").filter((l) => l.startsWith(`| ${modelLabel} |`)).length, 6, "the model run has no conditional, goal or correlation rows: Table 1, detail, three per-type rows, runs");

  // Goal identification at the first and last steps beside RSR / SSR, then the R2O mean of types.
  const goal = md.split("\n").filter((l) => l.startsWith("| oracle | ") && / Rid-SR | Oid-SR /.test(l));
  assert.deepEqual(goal, [
    "| oracle | Count | Rid-SR | 100.0 (2) | 50.0 (2) | RSR 100.0 (2) |",
    "| oracle | Order | Rid-SR | 0.0 (1) | 100.0 (1) | RSR 100.0 (1) |",
    "| oracle | Instance | Oid-SR | 100.0 (1) | 100.0 (1) | SSR 100.0 (1) |",
    "| oracle | R2O, mean of types | Rid-SR | 50.0 (3) | 75.0 (3) | RSR 100.0 (3) |",
  ]);
  // Pearson r with its episode count; – where r is undefined (null).
  assert.deepEqual(md.split("\n").filter((l) => /^\| oracle \| (all types|Count) \| (navigation success|Gid at)/.test(l)), [
    "| oracle | all types | navigation success | +0.50 (4) | −0.25 (4) | – (2) |",
    "| oracle | all types | Gid at start | +0.12 (4) | – (4) | +1.00 (2) |",
    "| oracle | all types | Gid at end | −1.00 (4) | +0.00 (4) | – (2) |",
    "| oracle | Count | navigation success | – (2) | – (2) | – (1) |",
  ]);
  assert.equal(lineOf(md, "| oracle | oracle |"), "| oracle | oracle | oracle | action | none | spatialprobe-world | 4/4 | complete | – | – | – |");
  assert.equal(lineOf(md, `| ${modelLabel} | openai`), `| ${modelLabel} | openai:\\<img src=x onerror="window.\\_\\_pwned='model'"\\> | model | waypoint | shuffled-prior | – | 2/4 incomplete | incomplete: 1 error, 1 not run | 7 (2 reused) | 123,456 | 789 |`);
  assert.ok(md.includes(`- ${modelLabel}: 2 episodes skipped: the shuffled-prior could not be applied to them (not counted in Episodes)`));
  assert.ok(!/(^|[^\\])<img/.test(md), "the model name cannot add HTML: every < is escaped");

  const one = navigationRunMarkdown(oracleScores);
  assert.equal(one.split("\n")[0], "# VCN-Bench navigation: oracle");
  assert.equal(lineOf(one, "| oracle | 4/4 | 100.0"), lineOf(md, "| oracle | 4/4 | 100.0"));
});

test("report md: navigation runs get their own section beside item runs; a damaged episodes.jsonl line stops it with file and line", async () => {
  await executeRun({
    benchmark: "egopath", data: path.join(ROOT, "examples/egopath-mini"), out: dirs.items, model: "oracle", tasks: ["a2"],
    bootstrapResamples: 0, bootstrapSeed: 1, quiet: true, promptSource: "release", control: "none", seed: 1, flags: {}, retryErrors: false,
  });
  const md = markdownReport(readScores([dirs.items, dirs.oracle]));
  assert.equal(md.split("\n").filter((l) => l === "## VCN-Bench navigation").length, 1);
  assert.ok(md.indexOf("## VCN-Bench navigation") > md.indexOf("EgoPath"), "after the item runs' section");
  assert.ok(!md.includes("VCN-Bench goal identification"), "the navigation run is not read as a goal-identification run");

  const damaged = path.join(work, "nav-damaged");
  mkdirSync(damaged);
  writeFileSync(path.join(damaged, "scores.json"), JSON.stringify(oracleScores));
  writeFileSync(path.join(damaged, "episodes.jsonl"), `${JSON.stringify(oracleRecords[0])}\n{"episode_id": "e2", "ste\n[1, 2]\n`);
  utimesSync(path.join(damaged, "episodes.jsonl"), new Date("2026-12-01T00:00:00Z"), new Date("2026-12-01T00:00:00Z"));
  const file = path.join(damaged, "episodes.jsonl");
  assert.throws(() => readScores([damaged]), (error: unknown) => error instanceof RunFolderError && error.message ===
    `the run folder has problems; nothing was reported:\n  - ${file}, line 2: not valid JSON (25 characters): a torn or damaged line\n` +
    `  - ${file}, line 3: not an episode record (expected a JSON object with a string episode_id and a steps array)`);
});

test("run folders: a navigation run is finished, in progress (episodes.jsonl newer, or no scores.json yet), with a line being written", () => {
  const finished = readRunFolder(dirs.oracle);
  assert.deepEqual([finished.state, finished.benchmark, finished.model, finished.total, finished.results.length, finished.navigation?.records.length, finished.problems], ["finished", "vcn", "oracle", 4, 0, 4, []]);

  const live = path.join(work, "nav-growing");
  mkdirSync(live);
  writeFileSync(path.join(live, "episodes.jsonl"), `${JSON.stringify(oracleRecords[0])}\n${JSON.stringify(oracleRecords[1]).slice(0, 25)}`);
  const early = readRunFolder(live);
  assert.deepEqual([early.state, early.model, early.total, early.navigation?.records.map((r) => r.episode_id), early.partialLine, early.problems], ["in progress", "oracle", 1, ["e1"], { line: 2, writing: false }, []]);

  assert.ok(summaryHtml([early]).includes(`<span class="live">in progress: 1 episode so far · line 2 cut off`));
  // The run's header (navigate.json) names who runs and, when it says, how many episodes it asks.
  writeFileSync(path.join(live, "navigate.json"), JSON.stringify({ kind: "navigation", benchmark: "vcn", data: "/data/vcn", model: "random-walk", agent: "random-walk", mode: "action", intervention: "none", settings: {}, episodes: 4 }));
  const headed = readRunFolder(live);
  assert.deepEqual([headed.model, headed.total, headed.navigation?.asked], ["random-walk", 4, 4]);
  assert.ok(summaryHtml([headed]).includes(`<td>random-walk</td><td>action</td><td>none</td><td>agent random-walk</td><td><span class="live">in progress: 1 of 4 episodes · line 2 cut off`));

  writeFileSync(path.join(live, "scores.json"), JSON.stringify({ ...oracleScores, complete: false, counts: { episodes: 4, done: 0, error: 0, not_run: 4 } }));
  utimesSync(path.join(live, "scores.json"), new Date("2026-12-01T00:00:00Z"), new Date("2026-12-01T00:00:00Z"));
  const resumed = readRunFolder(live);
  assert.deepEqual([resumed.state, resumed.total], ["in progress", 4]);
  // A resumed run appends an episode again: the later record replaces the earlier one, in place.
  writeFileSync(path.join(live, "episodes.jsonl"), jsonl([oracleRecords[0], oracleRecords[1], { ...oracleRecords[0], end: "action-limit" }]));
  assert.deepEqual(readRunFolder(live).navigation?.records.map((r) => [r.episode_id, r["end"]]), [["e1", "action-limit"], ["e2", "stop"]]);
});

test("HTML: navigation rows in the runs table, the navigation tables, top-down pictures embedded", async () => {
  const runs = [readRunFolder(dirs.oracle), readRunFolder(dirs.model)];
  const html = summaryHtml(runs);
  assert.ok(html.includes(`<tr data-run="0" data-kind="navigation"><td class="label">oracle</td><td>vcn navigation</td><td>oracle</td><td>action</td><td>none</td><td>agent oracle</td><td><span class="complete">complete</span></td><td class="n" data-scored="4" data-total="4">4 / 4</td><td class="score" data-value="0.75">75.0</td><td>SR</td><td class="errors">0</td><td class="unreadable">0</td></tr>`));
  assert.ok(html.includes(`<span class="incomplete">incomplete: 1 error, 1 not run</span>`));
  assert.ok(html.includes(`<td>66.7</td><td>62.0</td></tr>`), "Table 1's averages as HTML");
  assert.ok(!html.includes("<img src=x"), "the model name is escaped");
  assert.ok(html.includes("openai:&lt;img src=x"));

  const { html: page } = await htmlReport([dirs.oracle, dirs.model], { budgetBytes: 1024 * 1024, maxSide: 480 });
  const data = JSON.parse(/<script type="application\/json" id="sp-data">(.*?)<\/script>/s.exec(page)![1]!);
  assert.equal(data.episodes.length, 7);
  assert.deepEqual(data.episodes.map((e: { id: string; outcome: string }) => `${e.id}:${e.outcome}`), ["e1:success", "e2:success", "e3:success", "e4:failure", "b1:success", "b2:failure", "b3:error"]);
  const e1 = data.episodes[0];
  assert.deepEqual([e1.steps, e1.collisions, e1.spl, e1.end, e1.task], [3, 1, 0.96, "stop", "count"]);
  const expectedUri = `data:image/png;base64,${readFileSync(path.join(dirs.oracle, "episodes/e1/topdown.png")).toString("base64")}`;
  assert.equal(e1.topdown, expectedUri);
  // A budget smaller than one picture embeds none.
  const { html: small } = await htmlReport([dirs.oracle], { budgetBytes: 10, maxSide: 480 });
  assert.ok(small.includes("Top-down pictures for 0 of 4 navigation episodes"));
});

test("episode rows and details: damaged records show what they have; pictures are asked for only by safe relative paths", () => {
  const dir = path.join(work, "nav-odd");
  mkdirSync(dir);
  writeFileSync(path.join(dir, "scores.json"), JSON.stringify({ kind: "navigation", benchmark: "vcn", model: "oracle", counts: { episodes: 1, done: 1 } }));
  const odd = { episode_id: "a/../b", steps: [42, { t: "1", action: 7, collided: "yes", position: "here", views: 5 }], decisions: "none", instruction: 12, task_type: null, end: {}, start: [] };
  writeFileSync(path.join(dir, "episodes.jsonl"), `${JSON.stringify(odd)}\n`);
  utimesSync(path.join(dir, "episodes.jsonl"), new Date("2026-12-01T00:00:00Z"), new Date("2026-12-01T00:00:00Z"));
  const run = readRunFolder(dir);
  assert.deepEqual(episodeRows(run, 0), [{ run: 0, index: 0, id: "a/../b", task: "unknown", outcome: "not scored", spl: null, steps: 2, collisions: 0, end: "–", instruction: "" }]);
  const asked: string[] = [];
  const detail = episodeDetail(run, 0, 0, (relative) => (asked.push(relative), null))!;
  // The id becomes a folder name as the run writes it (runner.ts safeName): no way out of the folder.
  assert.deepEqual(asked, ["episodes/a_.._b/topdown.png"]);
  const blank = { t: null, action: "?", collided: false, position: "–", heading_deg: null, decision: null, image: null };
  assert.deepEqual(detail.steps, [blank, blank]);
  assert.deepEqual([detail.decisions, detail.start, detail.instruction, detail.metrics, detail.topdown], [[], { position: "–", heading_deg: null, image: null }, "", [], null]);
  assert.equal(episodeDetail(run, 0, 1, () => null), undefined);

  assert.equal(readingWords({ ok: false, reason: "no action named" }), "unreadable: no action named");
  assert.equal(readingWords({ ok: true, rule: "point", view: "left", pixel: [10, 20], stop: true, frame: null }), "read by rule point: point (10, 20) in the left view, then stop");
  assert.equal(readingWords({ ok: true, rule: "stop-word", stop: true }), "read by rule stop-word: stop");
  assert.equal(readingWords("ok"), null);
});

// ------------------------------------------------------------------ in Chromium

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** A page that records script errors and dialogs, opened once the episode list shows. */
const openPage = (url: string): Promise<{ page: Page; problems: string[] }> => openRecordedPage(browser, url, "#episodes tbody tr");

const rowIds = (page: Page) => page.locator("#episodes tbody tr").evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset["id"]));

test("report.html in Chromium: the episode list filters, an episode opens with its instruction and top-down picture", async () => {
  const { html } = await htmlReport([dirs.oracle, dirs.model], { budgetBytes: 1024 * 1024, maxSide: 480 });
  const file = path.join(work, "report.html");
  writeFileSync(file, html);
  const { page, problems } = await openPage(`file://${file}`);
  assert.equal(await page.locator("#gallery-section").isHidden(), true, "no item runs: no item gallery");
  assert.equal(await page.locator("#episodes-section").isVisible(), true);
  assert.equal(await page.locator("#e-page-info").textContent(), "page 1 of 1 · 7 episodes");
  await page.selectOption("#e-outcome", "success");
  assert.deepEqual(await rowIds(page), ["e1", "e2", "e3", "b1"]);
  await page.selectOption("#e-run", "1");
  assert.deepEqual(await rowIds(page), ["b1"]);
  await page.selectOption("#e-outcome", "");
  assert.deepEqual(await rowIds(page), ["b1", "b2", "b3"]);
  assert.equal(await page.locator('#episodes tr[data-id="b2"] td.collisions').textContent(), "2");
  await page.selectOption("#e-run", "");

  await page.locator('#episodes button[data-index="0"][data-run="0"]').click();
  await page.waitForSelector("#detail[open]");
  assert.equal(await page.locator("#detail .instruction").textContent(), "Instruction: Go to the count room of episode e1.");
  const image = page.locator("#detail img");
  assert.equal(await image.count(), 1);
  assert.ok(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 60 && img.naturalHeight === 40), "the embedded top-down picture loads");
  await page.screenshot({ path: artifact("navigation-report-episode.png") });
  assert.deepEqual(problems, []);
  await page.close();
});

test("viewer: episodes with their steps, sheets and replies (as text), pictures only from inside the run folder, a live run grows", async () => {
  mkdirSync(dirs.live);
  writeFileSync(path.join(dirs.live, "scores.json"), JSON.stringify({ ...oracleScores, name: "live oracle", complete: false, counts: { episodes: 3, done: 0, error: 0, not_run: 3 } }));
  utimesSync(path.join(dirs.live, "scores.json"), new Date("2026-12-01T00:00:00Z"), new Date("2026-12-01T00:00:00Z"));
  writeFileSync(path.join(dirs.live, "episodes.jsonl"), jsonl([oracleRecords[2]]));
  const viewer: Viewer = await startViewer({ dirs: [dirs.oracle, dirs.model, dirs.live], port: 0, pollMs: 200 });
  try {
    const { page, problems } = await openPage(viewer.url);
    assert.equal((await page.locator('#runs tr[data-run="2"] .live').textContent())?.trim(), "in progress: 1 of 3 episodes");

    // The oracle's e1: one decision (a goto), three actions, a sheet after each and at reset.
    await page.locator('#episodes button[data-run="0"][data-index="0"]').click();
    await page.waitForSelector("#detail figure.step");
    assert.equal(await page.locator("#steps-page-info").textContent(), "page 1 of 1 · 1 decision, 3 actions");
    assert.equal(await page.locator("#detail .decision h5").textContent(), "Decision 0 · at step 0 · go to (0.75, 0.00, 0.00) within 0.20 m, then stop: shortest path to the nearest view point");
    const captions = await page.locator("#detail figure.step figcaption").allTextContents();
    assert.deepEqual(captions, [
      "at reset · at (0.00, 0.00, 0.00) · heading 0°",
      "t 1 · FORWARD · at (0.25, 0.00, 0.00) · heading 0°",
      "t 2 · FORWARD · collided · at (0.50, 0.00, 0.00) · heading 0°",
      "t 3 · FORWARD · at (0.75, 0.00, 0.00) · heading 0°",
    ]);
    assert.equal(await page.locator("#detail figure.step.collided").count(), 1);
    const sheets = page.locator("#detail figure.step img");
    assert.equal(await sheets.count(), 4);
    for (const img of await sheets.all()) {
      await img.scrollIntoViewIfNeeded();
      await img.evaluate((i: HTMLImageElement) => i.decode());
      assert.ok(await img.evaluate((i: HTMLImageElement) => i.naturalWidth === 96 && i.src.includes("/files/0/episodes/e1/steps/")));
    }
    const topdown = page.locator("#detail > #detail-body > img");
    await topdown.evaluate((i: HTMLImageElement) => i.decode());
    assert.ok(await topdown.evaluate((i: HTMLImageElement) => i.naturalWidth === 60 && i.src.endsWith("/files/0/episodes/e1/topdown.png")));
    assert.deepEqual(await page.locator("#episode-metrics li").allTextContents(), ["success yes", "SPL 0.960", "soft SPL 0.960", "final distance to the goal 0.20 m", "shortest path 0.72 m", "path length 0.75 m", "SSR yes", "RSR yes"]);
    await page.screenshot({ path: artifact("navigation-viewer-episode.png") });
    await page.locator("#detail-close").click();

    // e2 walks 26 actions on one decision: 24 a page, the rest under "continued".
    await page.locator('#episodes button[data-run="0"][data-index="1"]').click();
    await page.waitForFunction(() => document.querySelector("#steps-page-info")?.textContent === "page 1 of 2 · 1 decision, 26 actions");
    assert.equal(await page.locator("#detail figure.step").count(), 25, "the start and 24 actions");
    await page.locator("#episode-steps .pager button", { hasText: "next" }).click();
    assert.equal(await page.locator("#steps-page-info").textContent(), "page 2 of 2 · 1 decision, 26 actions");
    assert.deepEqual(await page.locator("#detail .decision h5").allTextContents(), ["Decision 0, continued"]);
    assert.deepEqual(await page.locator("#detail figure.step figcaption").allTextContents(), ["t 25 · FORWARD · at (6.25, 0.00, 0.00) · heading 0°", "t 26 · FORWARD · at (6.50, 0.00, 0.00) · heading 0°"]);
    await page.locator("#detail-close").click();

    // The model's b2: every reply stays text; its reading and goal frame are in words.
    await page.locator('#episodes button[data-run="1"][data-index="1"]').click();
    await page.waitForSelector("#detail pre.reply");
    assert.deepEqual(new Set(await page.locator("#detail pre.reply").allTextContents()), new Set([PAYLOAD]));
    assert.equal(await page.locator("#detail pre.reply").count(), 4);
    assert.equal(await page.locator("#detail .reading").first().textContent(), "read by rule json: action FORWARD, goal frame 3");
    assert.equal(await page.locator("#detail .goal").first().textContent(), "goal frame 3 (a success frame)");
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned), undefined);
    await page.locator("#detail-close").click();

    // b3 names a sheet outside its run folder: no picture, and the error is shown as text.
    await page.locator('#episodes button[data-run="1"][data-index="2"]').click();
    await page.waitForSelector("#detail pre.error");
    assert.equal(await page.locator("#detail pre.error").textContent(), "server 500: <b>upstream</b> failed");
    assert.equal(await page.locator("#detail figure.step img").count(), 0);
    assert.equal(await page.locator("#detail figure.step .noimg").count(), 2);
    await page.locator("#detail-close").click();
    const api = await (await fetch(`${viewer.url}api/episode/1/2`)).json();
    assert.deepEqual([api.steps[0].image, api.topdown], [null, "/files/1/episodes/b3/topdown.png"]);
    assert.equal((await fetch(`${viewer.url}api/episode/1/9`)).status, 404);

    // The live run grows by one episode: the list and the runs table follow without a reload.
    appendFileSync(path.join(dirs.live, "episodes.jsonl"), JSON.stringify(oracleRecords[3]) + "\n");
    await page.waitForFunction(() => document.querySelector('#runs tr[data-run="2"] .live')?.textContent?.trim() === "in progress: 2 of 3 episodes", undefined, { timeout: 10_000 });
    await page.selectOption("#e-run", "2");
    assert.deepEqual(await rowIds(page), ["e3", "e4"]);
    assert.deepEqual(problems, []);
    await page.close();
  } finally {
    await viewer.close();
  }
});
