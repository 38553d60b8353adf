/**
 * `spatialprobe navigation ... --out DIR` writes a run folder that `spatialprobe report DIR` reads
 * as it reads a `navigate vcn` run: the navigation tables (md), the scores.json documents (json)
 * and the episodes on the HTML page. Every expected figure below is worked out by hand from the
 * fixture logs (comments give the arithmetic).
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { Command } from "commander";
import { registerNavigation } from "../../src/cli/navigation.js";
import { registerReport } from "../../src/cli/report.js";
import { UsageError } from "../../src/core/problems.js";

const fixtures = path.resolve(import.meta.dirname, "../fixtures/vcn-nav/released");
const releasedEpisodes = path.join(fixtures, "episodes.json");
const evalDir = path.join(fixtures, "eval");
const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-navigation-report-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** A command of the CLI run in this process (its own code, no build); console output muted. */
async function cli(register: (program: Command) => void, args: string[]): Promise<{ error: unknown }> {
  const program = new Command().exitOverride();
  register(program);
  const log = console.log;
  console.log = () => {};
  try {
    await program.parseAsync(["node", "spatialprobe", ...args]);
    return { error: undefined };
  } catch (error) {
    return { error };
  } finally {
    console.log = log;
  }
}

/** `report DIR --format <format>`, its output as text. */
async function report(dir: string, format: string): Promise<string> {
  const file = path.join(tmp, `report-${path.basename(dir)}.${format}`);
  const run = await cli(registerReport, ["report", dir, "--format", format, "--out", file]);
  assert.equal(run.error, undefined, String(run.error));
  return readFileSync(file, "utf8");
}

const rowsOf = (markdown: string) => markdown.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| ---"));

/**
 * The released fixture (test/fixtures/vcn-nav/released, see released-logs.test.ts), released variant:
 *   101 count     final geodesic 0.42 m < 1: success; SPL (5.8 + 1e-6) / max(5.800001, 6.1) = 0.9508 (95.1);
 *                 soft SPL (1 − 0.42 / 5.800001) × 5.800001 / 6.1 = 5.380001 / 6.1 = 0.8820 (88.2); SSR 1
 *   102 distance  2.61 m: failure; SPL 0; soft SPL (3.900001 − 2.61) / 4.3 = 0.3000 (30.0); SSR 1 (2.61 < 3)
 *   7   instance  0.77 m, no STOP but the released rule needs none: success; SPL 9.200001 / 31.4 = 0.2930 (29.3);
 *                 soft SPL (9.200001 − 0.77) / 31.4 = 0.2685 (26.8); SSR 1
 * Pooled: SR 2/3 (66.7), SPL (0.9508 + 0 + 0.2930) / 3 = 0.4146 (41.5), soft SPL (0.8820 + 0.3 + 0.2685) / 3
 * = 0.4835 (48.3), DTG (0.42 + 2.61 + 0.77) / 3 = 1.27; Avg. over the three types: SR 66.7, SPL 41.5.
 * No room information in the logs: RSR "–"; waypoint logs: no steps or collisions ("–").
 */
test("navigation --released-logs --metric-variant released, then report --format md and json on its folder", async () => {
  const out = path.join(tmp, "released");
  const run = await cli(registerNavigation, ["navigation", "--episodes", releasedEpisodes, "--released-logs", evalDir, "--metric-variant", "released", "--out", out]);
  assert.equal(run.error, undefined, String(run.error));

  const md = await report(out, "md");
  const rows = rowsOf(md);
  const label = "released logs (waypoint)";
  assert.ok(rows.includes(`| ${label} | 3/3 | 100.0 | 95.1 | – | – | 0.0 | 0.0 | – | – | 100.0 | 29.3 | 66.7 | 41.5 |`), md);
  assert.ok(rows.includes(`| ${label} | 3/3 | 66.7 | 41.5 | 48.3 | – | 100.0 (1) | 1.27 | – | – | 3 | 0 | 0 | complete |`), md);
  assert.ok(rows.includes(`| ${label} | Count | 1 | 100.0 | 95.1 | 88.2 | – | 100.0 | 0.42 |`), md);
  assert.ok(rows.includes(`| ${label} | Distance | 1 | 0.0 | 0.0 | 30.0 | – | 100.0 | 2.61 |`), md);
  assert.ok(rows.includes(`| ${label} | Instance | 1 | 100.0 | 29.3 | 26.8 | – | 100.0 | 0.77 |`), md);
  assert.ok(rows.includes(`| ${label} | released logs | released logs | waypoint | none | – | 3/3 | complete |`), md);
  assert.match(md, /Metrics: metric variant released \(The released evaluation's rule/);
  assert.match(md, /geodesic distances, success \\< 1\.00 m, SSR \\< 3\.00 m\./);
  // report.md in the folder is the same tables, as navigate writes it.
  assert.ok(rowsOf(readFileSync(path.join(out, "report.md"), "utf8")).includes(`| ${label} | 3/3 | 66.7 | 41.5 | 48.3 | – | 100.0 (1) | 1.27 | – | – | 3 | 0 | 0 | complete |`));

  const [doc, ...others] = JSON.parse(await report(out, "json"));
  assert.equal(others.length, 0);
  assert.equal(doc.kind, "navigation");
  assert.deepEqual(doc.source, { kind: "released-logs", episodes: releasedEpisodes, released_logs: evalDir, logs: 3, unmatched_logs: [], unfinished: [] });
  assert.equal(doc.navigation.metric_variant, "released");
  assert.deepEqual([doc.model, doc.agent, doc.mode, doc.intervention, doc.episodes, doc.complete], ["released logs", "released logs", "waypoint", "none", 3, true]);
  assert.deepEqual(doc.counts, { episodes: 3, done: 3, error: 0, not_run: 0, skipped: 0 });
  // 101 and 102 end on a stop flag, 7 runs its fifty decisions without one.
  assert.deepEqual(doc.ends, { "no-stop": 1, stop: 2 });
  assert.equal(doc.navigation.summary.SR, 2 / 3);
  assert.equal(doc.navigation.summary.SPL, ((5.8 + 1e-6) / 6.1 + 0 + (9.2 + 1e-6) / 31.4) / 3);
  assert.deepEqual(doc.navigation.per_episode.map((e: { episode_id: string; success: number }) => [e.episode_id, e.success]), [["101", 1], ["102", 0], ["7", 1]]);
  // The released code's own verdicts ride along.
  assert.equal(doc.navigation.imported.logged_SR, 2 / 3);

  // The records: one per log, a step per logged move (WAYPOINT) to where the next decision was made.
  const records = readFileSync(path.join(out, "episodes.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(records.map((r) => [r.episode_id, r.task_type, r.end, r.steps.length, r.decisions.length]), [["101", "count", "stop", 3, 3], ["102", "distance", "stop", 2, 2], ["7", "instance", "no-stop", 50, 50]]);
  assert.deepEqual(records[0].steps[2], { t: 3, action: "WAYPOINT", position: [3.9, 0.07, -0.2], heading_deg: null, collided: null, decision: 2 });
  assert.deepEqual(records[0].decisions.map((d: { goal_frame: number; goto: { then: string } }) => [d.goal_frame, d.goto.then]), [[12, "decide"], [14, "decide"], [14, "stop"]]);
  assert.equal(records[0].instruction, "Go to the second bedroom you entered in the video. Locate the bed.");

  // The HTML page lists the episodes (no top-down pictures: the logs' house plans are not here).
  const html = await report(out, "html");
  const data = JSON.parse(/<script type="application\/json" id="sp-data">(.*?)<\/script>/s.exec(html)![1]!);
  assert.deepEqual(data.episodes.map((e: { id: string; outcome: string; steps: number; end: string }) => [e.id, e.outcome, e.steps, e.end]), [["101", "success", 3, "stop"], ["102", "failure", 2, "stop"], ["7", "success", 50, "no-stop"]]);
  assert.match(html, /Top-down pictures for 0 of 3 navigation episodes/);
  // The earlier outputs are still written.
  assert.equal(JSON.parse(readFileSync(path.join(out, "navigation.json"), "utf8")).summary.SR, 2 / 3);
});

/**
 * A trajectory log of another simulator (action logs), paper variant (STOP within 1 m, Euclidean):
 *   t1 count     FORWARD ×5 along +x (the third cut to 0.1 m by a collision), STOP at (1.1, 0, 0);
 *                view point (1, 0, 0.5): d = √(0.1² + 0.5²) = √0.26 = 0.5099 < 1: success;
 *                p = 0.25 + 0.25 + 0.1 + 0.25 + 0.25 = 1.1, l = 1: SPL 1 / 1.1 = 0.9091 (90.9);
 *                soft SPL (1 − 0.5099) / 1.1 = 0.4455 (44.6); ends in region1, the target: RSR 1
 *   t2 instance  FORWARD ×4 along −z, STOP at (0, 0, −1); view point (0, 0, −3): d = 2: failure, SSR 1;
 *                l = 3, p = 1: soft SPL (1 − 2/3) × 3/3 = 0.3333 (33.3); no rooms logged: no RSR
 *   t3 order     no log: a failure, not run (RSR 0: its target room is known)
 *   t9           a log of an episode not in the file: not scored, listed
 * Pooled over 3: SR 33.3, SPL 0.9091 / 3 = 30.3, soft SPL (0.4455 + 0.3333) / 3 = 26.0; RSR over R2O
 * (t1, t3) 50.0 (2); SSR over Instance 100.0 (1); DTG (0.5099 + 2) / 2 = 1.25; steps (6 + 5) / 2 = 5.5;
 * collisions over the logs that give them: t1's 1 / 1 = 1.0 (t2 logs none). Order has no episode
 * that ran: Avg. is "— (2 of 3 types)".
 */
test("navigation --trajectories (any simulator's action logs), then report --format md and json on its folder", async () => {
  const dir = path.join(tmp, "sim");
  mkdirSync(dir, { recursive: true });
  const episodes = path.join(dir, "episodes.json");
  const episode = (id: string, task: string, region: string, goal: number[], view: number[] | null, l: number) => ({
    episode_id: id,
    scene_id: "mp3d/sceneA/sceneA.glb",
    start_position: [0, 0, 0],
    instruction: { task_type: task, instruction_text: `instruction of ${id}`, instance_id: [`sceneA_${region}/thing_1`] },
    goals: [{ position: goal, ...(view ? { view_points: [view] } : {}) }],
    dist_to_goal: l,
  });
  writeFileSync(episodes, JSON.stringify({ episodes: [episode("t1", "count", "region1", [1, 0.5, 1], [1, 0, 0.5], 1), episode("t2", "instance", "region2", [0, 0.5, -3.5], [0, 0, -3], 3), episode("t3", "order", "region4", [5, 0, 5], null, 7)] }));
  const F = "FORWARD";
  const logs = [
    { episode_id: "t1", positions: [[0, 0, 0], [0.25, 0, 0], [0.5, 0, 0], [0.6, 0, 0], [0.85, 0, 0], [1.1, 0, 0], [1.1, 0, 0]], stop: true, actions: [F, F, F, F, F, "STOP"], headings: [90, 90, 90, 90, 90, 90, 90], collisions: [false, false, true, false, false, false], rooms: ["region0", "region0", "region0", "region1", "region1", "region1", "region1"], goal_frames: [4, 4, 5, 5, 5, 5] },
    { episode_id: "t2", positions: [[0, 0, 0], [0, 0, -0.25], [0, 0, -0.5], [0, 0, -0.75], [0, 0, -1], [0, 0, -1]], stop: true, actions: [F, F, F, F, "STOP"] },
    { episode_id: "t9", positions: [[0, 0, 0]], stop: false },
  ];
  const trajectories = path.join(dir, "trajectories.jsonl");
  writeFileSync(trajectories, logs.map((l) => JSON.stringify(l)).join("\n") + "\n");
  const out = path.join(tmp, "sim-run");
  const run = await cli(registerNavigation, ["navigation", "--episodes", episodes, "--trajectories", trajectories, "--model", "other-sim agent", "--out", out]);
  assert.equal(run.error, undefined, String(run.error));

  const md = await report(out, "md");
  const rows = rowsOf(md);
  const label = "other-sim agent";
  assert.ok(rows.includes(`| ${label} | 2/3 incomplete | 100.0 | 90.9 | 0.0 | 0.0 | – | – | – | – | 0.0 | 0.0 | — (2 of 3 types) | — (2 of 3 types) |`), md);
  assert.ok(rows.includes(`| ${label} | 2/3 incomplete | 33.3 | 30.3 | 26.0 | 50.0 (2) | 100.0 (1) | 1.25 | 5.5 | 1.0 | 2 | 0 | 1 | incomplete: 1 not run |`), md);
  assert.ok(rows.includes(`| ${label} | Count | 1 | 100.0 | 90.9 | 44.6 | 100.0 (1) | 100.0 | 0.51 |`), md);
  assert.ok(rows.includes(`| ${label} | Order | 1 | 0.0 | 0.0 | 0.0 | 0.0 (1) | 0.0 | – |`), md);
  assert.ok(rows.includes(`| ${label} | Instance | 1 | 0.0 | 0.0 | 33.3 | – | 100.0 | 2.00 |`), md);
  assert.ok(rows.includes(`| ${label} | ${label} | ${label} | action | none | – | 2/3 incomplete | incomplete: 1 not run |`), md);
  assert.match(md, /Metrics: metric variant paper \(The paper's rule/);

  const [doc] = JSON.parse(await report(out, "json"));
  assert.deepEqual(doc.source, { kind: "trajectories", episodes, trajectories, logs: 3, unmatched_logs: ["t9"] });
  assert.deepEqual(doc.counts, { episodes: 3, done: 2, error: 0, not_run: 1, skipped: 0 });
  assert.equal(doc.complete, false);
  assert.equal(doc.mode, "action");
  assert.deepEqual(doc.ends, { stop: 2 });
  assert.equal(doc.navigation.summary.SPL, 1 / 1.1 / 3);
  assert.equal(doc.navigation.summary.steps, 5.5);
  assert.equal(doc.navigation.summary.collisions, 1);

  const records = readFileSync(path.join(out, "episodes.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(records.map((r) => r.episode_id), ["t1", "t2"]);
  assert.deepEqual(records[0].steps[2], { t: 3, action: "FORWARD", position: [0.6, 0, 0], heading_deg: 90, collided: true, decision: 2 });
  assert.deepEqual(records[0].decisions[5], { index: 5, at_step: 5, kind: "action", action: "STOP", goal_frame: 5 });
  assert.deepEqual(records[1].start, { position: [0, 0, 0], heading_deg: null });
  assert.equal(records[1].steps[0].collided, null, "collisions not logged: unknown, not false");
  assert.equal(records[0].shortest_path_m, 1);

  // Writing again into its own folder is fine; into another run's folder it is refused.
  assert.equal((await cli(registerNavigation, ["navigation", "--episodes", episodes, "--trajectories", trajectories, "--out", out])).error, undefined);
  const itemRun = path.join(tmp, "item-run");
  mkdirSync(itemRun);
  writeFileSync(path.join(itemRun, "scores.json"), JSON.stringify({ benchmark: "vcn", model: "m" }));
  const refused = await cli(registerNavigation, ["navigation", "--episodes", episodes, "--trajectories", trajectories, "--out", itemRun]);
  assert.ok(refused.error instanceof UsageError);
  assert.match(String(refused.error), /holds a scores\.json that `navigation` did not write/);
  assert.deepEqual(JSON.parse(readFileSync(path.join(itemRun, "scores.json"), "utf8")), { benchmark: "vcn", model: "m" }, "the item run's scores.json is untouched");
});
