/**
 * Scoring throughput on a 20,000-question EgoPathBench-layout set (4,000 per task), against the
 * official evaluator when it is available locally.
 *
 *   npm run build && node --import tsx bench/scoring-throughput.ts
 *   OFFICIAL_EVALUATOR=/path/to/evaluate_next.py node --import tsx bench/scoring-throughput.ts
 *
 * The set is written by this script (no images are rendered: a few small PNGs, visible-waypoint
 * files and direct-pairs sidecars are shared across questions), with gt files as the release has
 * them, and one seeded predictions file per task mixing correct answers, legal detours, random id
 * lists and junk strings. It then times:
 *   - `node bin/spatialprobe.js score egopath ... --bootstrap 0 --quiet` (whole-process wall time),
 *   - executeScore in-process (for reference),
 *   - the official evaluator, once per task, cwd = dataset root (summed), if the file exists,
 * and checks that scores.json tasks.<name>.official equals the evaluator's metrics for every task.
 * The official code is only run from where it lies; nothing of it is copied.
 *
 * Exit code: 0 when everything ran (a slower-than-official result is printed, not failed);
 * 1 when the metrics disagree; 2 on a broken setup.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { loadRelease } from "../src/benchmarks/egopath/load.js";
import { TASKS, releasePaths, type TaskCode } from "../src/benchmarks/egopath/tasks.js";
import { executeScore } from "../src/core/session.js";
import { createRng, deriveSeed, type Rng } from "../src/stats/rng.js";
import { makeTempDir, REPO_ROOT, table, writeJsonSync, writeJsonlSync, writePng } from "./lib/common.js";

const PER_TASK = 4000;
const SCENES = 6;
const WAYPOINTS = 12;
const SEED = 20260717;
const SET_TASKS: TaskCode[] = ["a1", "b1"];
const ROUTE_TASKS: TaskCode[] = ["a2", "b2", "c"];
const ALL_TASKS: TaskCode[] = [...SET_TASKS, ...ROUTE_TASKS];

class SetupError extends Error {}

// ------------------------------------------------------------------ the data set

interface Waypoint {
  display_id: number;
  waypoint_id: number;
  world_xyz: [number, number, number];
  image_xy: [number, number];
}

type Graph = Map<number, Map<number, number>>;

interface Scene {
  id: string;
  image: string;
  waypointsRef: string;
  waypoints: Waypoint[];
  /** Per route task: the sidecar's path (relative to the root) and its adjacency as the evaluator reads it. */
  pairs: Map<TaskCode, { ref: string; graph: Graph }>;
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
const dist = (a: Waypoint, b: Waypoint) =>
  Math.sqrt((a.world_xyz[0] - b.world_xyz[0]) ** 2 + (a.world_xyz[1] - b.world_xyz[1]) ** 2 + (a.world_xyz[2] - b.world_xyz[2]) ** 2);

/** Shortest path (Dijkstra) from start to the nearest of goals; undefined when unreachable. */
function shortest(graph: Graph, start: number, goals: readonly number[]): { length: number; path: number[] } | undefined {
  const best = new Map<number, number>([[start, 0]]);
  const prev = new Map<number, number>();
  const done = new Set<number>();
  while (true) {
    let u: number | undefined;
    for (const [node, d] of best) if (!done.has(node) && (u === undefined || d < best.get(u)!)) u = node;
    if (u === undefined) return undefined;
    if (goals.includes(u)) {
      const path = [u];
      while (prev.has(path[0]!)) path.unshift(prev.get(path[0]!)!);
      return { length: best.get(u)!, path };
    }
    done.add(u);
    for (const [v, w] of graph.get(u) ?? []) {
      const nd = best.get(u)! + w;
      if (nd < (best.get(v) ?? Infinity)) {
        best.set(v, nd);
        prev.set(v, u);
      }
    }
  }
}

async function writeScenes(root: string, rng: Rng): Promise<Scene[]> {
  const scenes: Scene[] = [];
  for (let s = 0; s < SCENES; s++) {
    const id = `bench_s${String(s).padStart(2, "0")}`;
    const image = `assets/${id}/view_0/rgb_overlay.png`;
    const waypointsRef = `assets/${id}/view_0/visible_waypoints.json`;
    await writePng(path.join(root, image), { r: 40 * s, g: 255 - 40 * s, b: 128 });
    const waypoints: Waypoint[] = Array.from({ length: WAYPOINTS }, (_, k) => ({
      display_id: k + 1,
      waypoint_id: 100 * (s + 1) + k,
      world_xyz: [round4(rng.float(0, 6)), round4(rng.float(0, 6)), 0],
      image_xy: [rng.int(0, 127), rng.int(0, 127)],
    }));
    writeJsonSync(path.join(root, waypointsRef), { visible_waypoints: waypoints });
    const pairs = new Map<TaskCode, { ref: string; graph: Graph }>();
    for (const task of ROUTE_TASKS) {
      // Legal direct steps: a chain through every waypoint (so the graph is connected) plus
      // pairs closer than 2.5 m; embodied tasks (b2, c) lose some of the extra pairs.
      const graph: Graph = new Map(waypoints.map((w) => [w.display_id, new Map<number, number>()]));
      const link = (a: Waypoint, b: Waypoint) => {
        const d = round4(dist(a, b));
        graph.get(a.display_id)!.set(b.display_id, d);
        graph.get(b.display_id)!.set(a.display_id, d);
      };
      for (let k = 0; k + 1 < waypoints.length; k++) link(waypoints[k]!, waypoints[k + 1]!);
      for (const a of waypoints)
        for (const b of waypoints)
          if (a.display_id < b.display_id && dist(a, b) < 2.5 && (task === "a2" || rng.chance(0.6))) link(a, b);
      // Some entries leave out distance_m: the evaluator then uses the world_xyz distance.
      const neighbours: Record<string, Array<{ display_id: number; distance_m?: number }>> = {};
      for (const [src, row] of graph) {
        neighbours[String(src)] = [...row].map(([dst]) => {
          if (rng.chance(0.1)) {
            const exact = dist(waypoints[src - 1]!, waypoints[dst - 1]!);
            row.set(dst, exact);
            return { display_id: dst };
          }
          return { display_id: dst, distance_m: row.get(dst)! };
        });
      }
      const ref = `benchmark_evalfix/benchmark/sidecars/${task}/${id}/view_0.direct_pairs.json`;
      writeJsonSync(path.join(root, ref), { task, scene_id: id, view_id: 0, display_ids: waypoints.map((w) => w.display_id), direct_neighbors: neighbours });
      pairs.set(task, { ref, graph });
    }
    scenes.push({ id, image, waypointsRef, waypoints, pairs });
  }
  return scenes;
}

const SYSTEM_PROMPT = "You see an indoor room from a robot's camera. Numbered markers show candidate floor spots. Answer with a JSON array of ids.";

/** Junk outputs: prose, empty, code fences, Python-isms the evaluator's int() accepts, objects. */
const JUNK = [
  "I think waypoints 1 and 3 are free.",
  "",
  "```json\n[1, 2]\n```",
  '[1, "2"]',
  "[1.5, 2]",
  "null",
  '{"display_ids":[1,2]}',
  "[true, 2]",
  "[1, 2",
  " [3] ",
  "[1, 2, 2]",
  "[]",
  "[-1, 99]",
  "none of them",
];

interface Question {
  vqa: Record<string, unknown>;
  gt: Record<string, unknown>;
  prediction: Array<Record<string, unknown>>;
}

function output(rng: Rng, ids: number[]): unknown {
  return rng.chance(0.5) ? ids : JSON.stringify(ids);
}

function randomIds(rng: Rng, min: number, max: number): number[] {
  return Array.from({ length: rng.int(min, max) }, () => rng.int(1, WAYPOINTS + 2)); // may hold ids not shown
}

function setQuestion(task: TaskCode, n: number, scene: Scene, rng: Rng): Question {
  const qid = `bx_${task}_${String(n).padStart(5, "0")}`;
  const allIds = scene.waypoints.map((w) => w.display_id);
  const walkable = allIds.filter(() => rng.chance(0.6));
  const groundTruth: Record<string, unknown> = { answer: walkable, all_ids: allIds, walkable_ids: walkable, robot_diameter_m: task === "b1" ? 0.6 : 0 };
  if (rng.chance(0.05)) delete groundTruth["all_ids"]; // candidates fall back to the waypoints file
  const common = { question_id: qid, task, scene_id: scene.id, view_id: 0, image_path: scene.image, visible_waypoints_path: scene.waypointsRef };
  const vqa = { ...common, system_prompt: SYSTEM_PROMPT, user_prompt: `Question ${n}: which waypoints are on walkable floor?`, ground_truth: groundTruth };
  const gt = { ...common, ...groundTruth };

  const roll = rng.next();
  let row: Record<string, unknown> | undefined = { question_id: qid };
  if (roll < 0.35) row["output"] = output(rng, walkable);
  else if (roll < 0.5) row["output"] = output(rng, allIds.filter((id) => walkable.includes(id) !== rng.chance(0.15)));
  else if (roll < 0.65) row["output"] = output(rng, randomIds(rng, 0, 8));
  else if (roll < 0.8) row["output"] = rng.pick(JUNK);
  else if (roll < 0.85) Object.assign(row, { output: walkable, success: false });
  else if (roll < 0.9) row["output"] = output(rng, []);
  else row = undefined; // no prediction for this question
  const prediction = row ? [row] : [];
  if (row && rng.chance(0.02)) prediction.unshift({ question_id: qid, output: "superseded by the next row" });
  return { vqa, gt, prediction };
}

function routeQuestion(task: TaskCode, n: number, scene: Scene, rng: Rng): Question {
  const qid = `bx_${task}_${String(n).padStart(5, "0")}`;
  const { ref, graph } = scene.pairs.get(task)!;
  const ids = scene.waypoints.map((w) => w.display_id);
  const start = rng.pick(ids);
  const goal = rng.pick(ids.filter((id) => id !== start));
  const near = [...graph.get(goal)!.keys()].filter((id) => id !== start);
  const acceptable = near.length > 0 && rng.chance(0.5) ? [goal, rng.pick(near)] : [goal];
  const best = shortest(graph, start, acceptable)!;
  const embodied = task !== "a2";
  const groundTruth: Record<string, unknown> = {
    answer: best.path,
    start_id: start,
    goal_id: goal,
    acceptable_goal_ids: acceptable,
    optimal_length_m: round4(best.length),
    reference_path_display_ids: best.path,
    direct_pairs_ref: ref,
    robot_diameter_m: embodied ? 0.6 : 0,
    route_semantics: embodied ? "embodied" : "pointmass",
    goal_ring_threshold_m: 1,
    ...(task === "c" ? { route_source_task: "b2", intent_family: "sit_rest" } : {}),
  };
  const common = { question_id: qid, task, scene_id: scene.id, view_id: 0, image_path: scene.image, visible_waypoints_path: scene.waypointsRef };
  const gt = { ...common, ...groundTruth };
  // Some vqa rows leave routing fields to the gt file (the evaluator fills them from there).
  const vqaTruth = { ...groundTruth };
  if (rng.chance(0.3)) {
    delete vqaTruth["direct_pairs_ref"];
    delete vqaTruth["optimal_length_m"];
  }
  const vqa = { ...common, system_prompt: SYSTEM_PROMPT, user_prompt: `Question ${n}: plan a route from waypoint ${start} to the goal.`, ground_truth: vqaTruth };

  const roll = rng.next();
  let row: Record<string, unknown> | undefined = { question_id: qid };
  if (roll < 0.35) row["output"] = output(rng, best.path);
  else if (roll < 0.47) {
    // A legal detour through another waypoint: succeeds with a longer path (SPL < 1).
    const via = rng.pick(ids);
    const first = shortest(graph, start, [via])!;
    const second = shortest(graph, via, acceptable)!;
    row["output"] = output(rng, [...first.path, ...second.path.slice(1)]);
  } else if (roll < 0.55) {
    const wrong = ids.filter((id) => !acceptable.includes(id) && id !== start);
    row["output"] = output(rng, shortest(graph, start, [rng.pick(wrong)])!.path);
  } else if (roll < 0.65) row["output"] = output(rng, [start, ...randomIds(rng, 1, 4)]);
  else if (roll < 0.7) row["output"] = output(rng, [...best.path].reverse());
  else if (roll < 0.82) row["output"] = rng.pick(JUNK);
  else if (roll < 0.87) Object.assign(row, { output: best.path, success: false });
  else if (roll < 0.9) row["output"] = output(rng, [start]);
  else row = undefined;
  const prediction = row ? [row] : [];
  if (row && rng.chance(0.02)) prediction.unshift({ question_id: qid, output: "superseded by the next row" });
  return { vqa, gt, prediction };
}

/** Writes the release layout and the predictions; returns the predictions file of each task. */
async function buildDataset(root: string, predDir: string): Promise<Map<TaskCode, string>> {
  const rng = createRng(SEED);
  const scenes = await writeScenes(root, createRng(deriveSeed(SEED, 99)));
  const predFiles = new Map<TaskCode, string>();
  ALL_TASKS.forEach((task, t) => {
    const taskRng = createRng(deriveSeed(SEED, t));
    const questions = Array.from({ length: PER_TASK }, (_, n) => {
      const scene = scenes[taskRng.below(SCENES)]!;
      return SET_TASKS.includes(task) ? setQuestion(task, n, scene, taskRng) : routeQuestion(task, n, scene, taskRng);
    });
    writeJsonlSync(path.join(root, releasePaths.vqa(task)), questions.map((q) => q.vqa));
    writeJsonlSync(path.join(root, releasePaths.gt(task)), questions.map((q) => q.gt));
    const file = path.join(predDir, `predictions_${task}.jsonl`);
    // Rows in a shuffled question order (a superseded row still comes just before its replacement).
    writeJsonlSync(file, rng.shuffle(questions.map((q) => q.prediction)).flat());
    predFiles.set(task, file);
  });
  return predFiles;
}

// ------------------------------------------------------------------ timing and comparing

function timeProcess(command: string, args: string[], cwd: string): { seconds: number; stdout: string } {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const seconds = (performance.now() - started) / 1000;
  if (result.error) throw new SetupError(`${command} could not start: ${result.error.message}`);
  if (result.status !== 0) {
    throw new SetupError(`${command} ${args.join(" ")} exited with ${result.status}\n${(result.stderr || result.stdout).slice(0, 2000)}`);
  }
  return { seconds, stdout: result.stdout };
}

function differences(ours: Record<string, unknown> | undefined, theirs: Record<string, unknown>): string[] {
  if (!ours) return ["no tasks.<name>.official in scores.json"];
  const keys = [...new Set([...Object.keys(ours), ...Object.keys(theirs)])].sort();
  return keys
    .filter((k) => ours[k] !== theirs[k])
    .map((k) => `${k}: ours ${JSON.stringify(ours[k])}, official ${JSON.stringify(theirs[k])}`);
}

async function main(): Promise<number> {
  const cli = path.join(REPO_ROOT, "bin/spatialprobe.js");
  if (!existsSync(path.join(REPO_ROOT, "dist/cli/main.js"))) throw new SetupError("dist/ is missing: run `npm run build` first");

  const tmp = makeTempDir("spatialprobe-bench-scoring");
  const root = path.join(tmp, "release");
  const predDir = path.join(tmp, "predictions");
  console.log(`scoring-throughput: ${PER_TASK * ALL_TASKS.length} questions (${PER_TASK} per task), data in ${tmp}`);
  const predFiles = await buildDataset(root, predDir);
  const loaded = loadRelease(root);
  if (loaded.problems.length > 0 || loaded.items.length !== PER_TASK * ALL_TASKS.length) {
    throw new SetupError(
      `dataset does not load cleanly: ${loaded.items.length} items, ${loaded.problems.length} problems\n` +
        loaded.problems.slice(0, 5).map((p) => `  ${JSON.stringify(p)}`).join("\n"),
    );
  }
  console.log(`dataset: ${loaded.items.length} questions over ${loaded.tasks.join(", ")}, loadRelease problems: 0`);
  const specs = ALL_TASKS.map((t) => `${t}=${predFiles.get(t)!}`);

  // Untimed warm-up of both scorers (one CLI run, one evaluator run), so the timed runs below
  // all read dist/, node_modules and the data from a warm page cache.
  const evaluator = process.env["OFFICIAL_EVALUATOR"] || "/work/official/evaluate_next.py";
  const haveOfficial = existsSync(evaluator);
  timeProcess(process.execPath, [cli, "score", "egopath", "--data", root, "--predictions", ...specs, "--out", path.join(tmp, "warm-up"), "--bootstrap", "0", "--quiet"], REPO_ROOT);
  if (haveOfficial) {
    timeProcess("python3", [evaluator, "--vqa", releasePaths.vqa("a1"), "--gt", releasePaths.gt("a1"), "--predictions", predFiles.get("a1")!, "--output", path.join(tmp, "warm-up", "official_a1.json")], root);
  }

  // 1. Our CLI, whole process.
  const cliOut = path.join(tmp, "ours-cli");
  const ours = timeProcess(process.execPath, [cli, "score", "egopath", "--data", root, "--predictions", ...specs, "--out", cliOut, "--bootstrap", "0", "--quiet"], REPO_ROOT);
  const scores = JSON.parse(readFileSync(path.join(cliOut, "scores.json"), "utf8")) as {
    n: number;
    tasks: Record<string, { official?: Record<string, unknown> }>;
  };
  if (scores.n !== PER_TASK * ALL_TASKS.length) throw new SetupError(`scores.json n = ${scores.n}, expected ${PER_TASK * ALL_TASKS.length}`);

  // 2. executeScore in this process (reference: no process start-up; runs the TypeScript sources through tsx).
  const started = performance.now();
  await executeScore({
    benchmark: "egopath",
    data: root,
    out: path.join(tmp, "ours-inprocess"),
    bootstrapResamples: 0,
    bootstrapSeed: 1,
    quiet: true,
    predictions: specs,
  });
  const inProcessS = (performance.now() - started) / 1000;

  // 3. The official evaluator, if it is here.
  const official = new Map<TaskCode, { seconds: number; metrics: Record<string, unknown> }>();
  if (!haveOfficial) {
    console.log(`official evaluator not found at ${evaluator} (set OFFICIAL_EVALUATOR): skipping the comparison`);
  } else {
    for (const task of ALL_TASKS) {
      const outFile = path.join(tmp, "official", `metrics_${task}.json`);
      const run = timeProcess(
        "python3",
        [evaluator, "--vqa", releasePaths.vqa(task), "--gt", releasePaths.gt(task), "--predictions", predFiles.get(task)!, "--output", outFile],
        root,
      );
      const doc = JSON.parse(readFileSync(outFile, "utf8")) as { metrics: Record<string, unknown> };
      official.set(task, { seconds: run.seconds, metrics: doc.metrics });
    }
  }

  // 4. The table.
  const n = PER_TASK * ALL_TASKS.length;
  const rows: string[][] = [
    ["ours: spatialprobe score (CLI, whole process)", ours.seconds.toFixed(2), Math.round(n / ours.seconds).toLocaleString("en-US")],
    ["ours: executeScore in-process (reference)", inProcessS.toFixed(2), Math.round(n / inProcessS).toLocaleString("en-US")],
  ];
  let officialTotal = 0;
  if (official.size > 0) {
    officialTotal = [...official.values()].reduce((s, o) => s + o.seconds, 0);
    for (const task of ALL_TASKS) {
      const o = official.get(task)!;
      rows.push([`  official evaluate_next.py --vqa ..${task}`, o.seconds.toFixed(2), Math.round(PER_TASK / o.seconds).toLocaleString("en-US")]);
    }
    rows.push(["official evaluator: 5 processes, total", officialTotal.toFixed(2), Math.round(n / officialTotal).toLocaleString("en-US")]);
  }
  console.log("");
  console.log(table(["scorer", "wall s", "questions/s"], rows));
  console.log("");

  let status = 0;
  if (official.size > 0) {
    const ratio = officialTotal / ours.seconds;
    console.log(`ratio official/ours (CLI): ${ratio.toFixed(2)}x ${ratio > 1 ? "(ours is faster)" : "TARGET MISSED: ours is not faster than the official evaluator"}`);
    const diffs: string[] = [];
    for (const task of ALL_TASKS) {
      const name = TASKS.find((t) => t.code === task)!.name;
      for (const d of differences(scores.tasks[name]?.official, official.get(task)!.metrics)) diffs.push(`  ${task} (${name}) ${d}`);
    }
    if (diffs.length === 0) console.log(`metrics agree on all ${ALL_TASKS.length} tasks`);
    else {
      console.log(`METRICS DIFFER:\n${diffs.join("\n")}`);
      status = 1;
    }
    for (const task of ALL_TASKS) console.log(`  ${task}: ${JSON.stringify(official.get(task)!.metrics)}`);
  }
  if (process.env["BENCH_KEEP"]) console.log(`kept ${tmp} (BENCH_KEEP is set)`);
  else rmSync(tmp, { recursive: true, force: true });
  return status;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`scoring-throughput: ${error instanceof SetupError ? "broken setup: " : ""}${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    process.exitCode = 2;
  },
);
