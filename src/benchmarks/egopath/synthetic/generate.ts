/** Writes a synthetic release in the EgoPathBench layout: assets, vqa/gt JSONL, sidecars and a README. */
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { createRng, deriveSeed, type Rng } from "../../../stats/rng.js";
import {
  buildViewQuestions,
  gtRow,
  imagePath,
  ROUTE_TASKS,
  sidecarPath,
  TASK_CODES,
  visibleWaypointsPath,
  type QuestionRow,
  type TaskCode,
} from "./questions.js";
import { renderView } from "./render.js";
import { generateScene, type Scene } from "./scene.js";
import { tryView, type DirectPairs, type View } from "./view.js";

export interface SyntheticOptions {
  outDir: string;
  seed: number;
  scenes: number;
  viewsPerScene: number;
  /** The command recorded in the README (defaults to the equivalent library call). */
  command?: string;
}

export interface SyntheticResult {
  questions: Record<TaskCode, number>;
}

/** First line of every README we write; a folder holding it may be overwritten. */
const README_MARK = "# Synthetic EgoPathBench-format data";

interface BuiltView {
  scene: Scene;
  view: View;
  rows: Record<TaskCode, QuestionRow[]>;
}

/** A view is kept only when it yields at least one a2 and one b2 question (late attempts take anything). */
function buildScene(sceneId: string, viewsPerScene: number, rng: Rng): BuiltView[] {
  for (let sceneAttempt = 0; sceneAttempt < 50; sceneAttempt++) {
    const scene = generateScene(sceneId, rng);
    const walls = rng.shuffle([0, 1, 2, 3]);
    const built: BuiltView[] = [];
    for (let v = 0; v < viewsPerScene; v++) {
      for (let attempt = 0; attempt < 80; attempt++) {
        const wall = attempt < 20 ? walls[v % 4]! : rng.int(0, 3);
        const view = tryView(scene, v, wall, rng);
        if (!view) continue;
        const rows = buildViewQuestions(scene, view, rng);
        if (attempt < 60 && (rows.a2.length === 0 || rows.b2.length === 0)) continue;
        built.push({ scene, view, rows });
        break;
      }
    }
    if (built.length === viewsPerScene) return built;
  }
  throw new Error(`could not lay out ${viewsPerScene} views for ${sceneId}`);
}

function sidecarJson(task: string, b: BuiltView, pairs: DirectPairs): string {
  const lines = [...pairs].map(([src, entries]) => {
    const list = entries.map((e) =>
      e.distance === undefined ? { display_id: e.displayId } : { display_id: e.displayId, distance_m: e.distance },
    );
    return `    ${JSON.stringify(String(src))}: ${JSON.stringify(list)}`;
  });
  const head = {
    task,
    scene_id: b.scene.id,
    view_id: b.view.index,
    display_ids: [...pairs.keys()],
  };
  const headText = JSON.stringify(head).slice(1, -1);
  return `{${headText},\n  "direct_neighbors": {\n${lines.join(",\n")}\n  }\n}\n`;
}

function visibleWaypointsJson(b: BuiltView): string {
  const lines = b.view.waypoints.map((w) =>
    "    " +
    JSON.stringify({
      display_id: w.displayId,
      waypoint_id: w.waypointId,
      world_xyz: [w.x, w.y, 0],
      grid_xy: w.gridXY,
      image_xy: [w.u, w.v],
      pointmass_walkable: w.freeFloor,
      embodied_feasible: w.embodied,
    }),
  );
  return `{\n  "visible_waypoints": [\n${lines.join(",\n")}\n  ]\n}\n`;
}

const jsonl = (rows: readonly object[]): string => rows.map((r) => JSON.stringify(r) + "\n").join("");

function readme(opts: SyntheticOptions, counts: Record<TaskCode, number>): string {
  const command =
    opts.command ??
    `generateSyntheticRelease({ outDir, seed: ${opts.seed}, scenes: ${opts.scenes}, viewsPerScene: ${opts.viewsPerScene} })`;
  return [
    README_MARK,
    "",
    "Everything here is synthetic: procedurally generated box-furniture rooms, rendered and labelled by",
    "spatialprobe (src/benchmarks/egopath/synthetic/). It follows the EgoPathBench release layout so the",
    "loader, runner and scorer can be exercised offline. It is not EgoPathBench data and says nothing",
    "about real-world model performance.",
    "",
    `- seed: ${opts.seed}`,
    `- scenes: ${opts.scenes}, views per scene: ${opts.viewsPerScene}`,
    `- questions: ${TASK_CODES.map((t) => `${t} ${counts[t]}`).join(", ")}`,
    "",
    "Regenerate (byte-identical output for the same seed and options):",
    "",
    "```",
    command,
    "```",
    "",
    "Layout: `benchmark_evalfix/benchmark/{vqa,gt}/*_next_<task>.jsonl`,",
    "`benchmark_evalfix/benchmark/sidecars/<task>/<scene>/view_<v>.direct_pairs.json`,",
    "`assets/<scene>/view_<v>/{rgb_overlay,visible_waypoints}_<task>.{png,json}`.",
    "Paths inside the rows (image, waypoints, `direct_pairs_ref`) are relative to this folder.",
    "",
  ].join("\n");
}

/** Refuses to write into a non-empty folder that is not an earlier synthetic release; clears one that is. */
async function prepareOutDir(outDir: string): Promise<void> {
  if (existsSync(outDir)) {
    const entries = await readdir(outDir);
    if (entries.length > 0) {
      const mark = existsSync(path.join(outDir, "README.md"))
        ? (await readFile(path.join(outDir, "README.md"), "utf8")).startsWith(README_MARK)
        : false;
      if (!mark) throw new Error(`refusing to write into ${outDir}: it is not empty and holds no synthetic release`);
      for (const sub of ["assets", "benchmark_evalfix", "README.md"]) {
        await rm(path.join(outDir, sub), { recursive: true, force: true });
      }
    }
  }
  await mkdir(outDir, { recursive: true });
}

/**
 * Generates `scenes` rooms with `viewsPerScene` views each and writes the release under `outDir`.
 * The same options always give byte-identical files.
 */
export async function generateSyntheticRelease(opts: SyntheticOptions): Promise<SyntheticResult> {
  for (const [k, v] of [["seed", opts.seed], ["scenes", opts.scenes], ["viewsPerScene", opts.viewsPerScene]] as const) {
    if (!Number.isInteger(v) || v < (k === "seed" ? 0 : 1)) throw new RangeError(`${k} must be a whole number (got ${v})`);
  }
  const files = new Map<string, string | Buffer>();
  const rows: Record<TaskCode, QuestionRow[]> = { a1: [], b1: [], a2: [], b2: [], c: [] };

  for (let s = 0; s < opts.scenes; s++) {
    const sceneId = `syn_s${String(s + 1).padStart(2, "0")}`;
    for (const b of buildScene(sceneId, opts.viewsPerScene, createRng(deriveSeed(opts.seed, s)))) {
      const v = b.view.index;
      const png = await renderView(
        b.scene,
        b.view.camera,
        b.view.waypoints.map((w) => ({ displayId: w.displayId, u: w.u, v: w.v })),
      );
      const waypointsText = visibleWaypointsJson(b);
      for (const task of TASK_CODES) {
        files.set(imagePath(sceneId, v, task), png);
        files.set(visibleWaypointsPath(sceneId, v, task), waypointsText);
        rows[task].push(...b.rows[task]);
      }
      for (const task of ROUTE_TASKS) {
        const pairs = task === "a2" ? b.view.pointPairs : b.view.embodiedPairs;
        files.set(sidecarPath(sceneId, v, task), sidecarJson(task, b, pairs));
      }
    }
  }

  const questions = Object.fromEntries(TASK_CODES.map((t) => [t, rows[t].length])) as Record<TaskCode, number>;
  for (const task of TASK_CODES) {
    files.set(`benchmark_evalfix/benchmark/vqa/vqa_next_${task}.jsonl`, jsonl(rows[task]));
    files.set(`benchmark_evalfix/benchmark/gt/gt_next_${task}.jsonl`, jsonl(rows[task].map(gtRow)));
  }
  files.set("README.md", readme(opts, questions));

  await prepareOutDir(opts.outDir);
  for (const [rel, content] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const full = path.join(opts.outDir, rel);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, content);
  }
  return { questions };
}
