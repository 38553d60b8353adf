/** Writes a synthetic EgoTL-Bench set: frame folders (PNG), test.jsonl, train.jsonl and a README. */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { UsageError } from "../../../core/problems.js";
import { createRng, deriveSeed, type Rng } from "../../../stats/rng.js";
import { EGOTL_TASKS, type EgoTLTask } from "../schema.js";
import { frameFile, walkthroughQuestions, type Row } from "./questions.js";
import { DEFAULT_RENDER, renderPng, type RenderOptions } from "./render.js";
import { EYE_HEIGHT, FPS, FRAMES_PER_SEGMENT, generateWalkthrough, type Motion, type Walkthrough } from "./world.js";

export interface GenerateOptions {
  outDir: string;
  seed: number;
  /** Walkthroughs (source videos) with rendered frames. */
  walkthroughs?: number;
  /** Segments per walkthrough. */
  segments?: number;
  /** Test questions per task (planning: at most one per walkthrough). */
  perTask?: number;
  /** Walkthroughs behind train.jsonl (answers only; their frames are not rendered). */
  trainWalkthroughs?: number;
  /** Training questions per task. */
  trainPerTask?: number;
  render?: RenderOptions;
  /** The command recorded in the README. */
  command?: string;
  log?: (line: string) => void;
}

export interface GenerateSummary {
  counts: Record<EgoTLTask, number>;
  train: number;
  frames: number;
  bytes: number;
  text: string;
}

export const README_MARK = "# Synthetic EgoTL-Bench-format data";
const MOTIONS: Motion[] = ["forward", "left", "right", "up", "down"];

/** The motion a question is about (balances the picks). */
const kindOf = (row: Row) => String(row.meta["next"] ?? row.meta["motion"] ?? "route");

/** `count` rows spread over kinds round-robin (kinds and rows in a seeded order). */
function pick(rows: Row[], count: number, rng: Rng): Row[] {
  const buckets = new Map<string, Row[]>();
  for (const row of rng.shuffle(rows)) {
    const list = buckets.get(kindOf(row)) ?? [];
    list.push(row);
    buckets.set(kindOf(row), list);
  }
  const order = rng.shuffle([...buckets.keys()].sort());
  const out: Row[] = [];
  while (out.length < count && order.some((k) => buckets.get(k)!.length > 0)) {
    for (const k of order) {
      const row = buckets.get(k)!.shift();
      if (row && out.length < count) out.push(row);
    }
  }
  return out;
}

function build(prefix: string, walkthroughs: number, segments: number, seed: number, stream: number): { worlds: Walkthrough[]; questions: Record<EgoTLTask, Row[]> } {
  const worlds: Walkthrough[] = [];
  const questions: Record<EgoTLTask, Row[]> = { planning: [], scene_action: [], next_action: [], action_recognition: [], direction: [], distance: [] };
  for (let w = 1; w <= walkthroughs; w++) {
    const id = `${prefix}${String(w).padStart(2, "0")}`;
    const world = generateWalkthrough(id, segments, createRng(deriveSeed(seed, stream + w)), MOTIONS[(w - 1) % MOTIONS.length]!);
    worlds.push(world);
    const rows = walkthroughQuestions(world, createRng(deriveSeed(seed, stream + 500 + w)));
    for (const task of EGOTL_TASKS) questions[task].push(...rows[task]);
  }
  return { worlds, questions };
}

/** Stable key order in the JSONL rows. */
function rowJson(row: Row): string {
  const ordered: Record<string, unknown> = {};
  for (const k of ["id", "task", "video_id", "media", "current_frame", "abstract_task", "chain_of_thought", "options", "answer", "meta"] as const) {
    if (row[k] !== undefined) ordered[k] = row[k];
  }
  return JSON.stringify(ordered);
}

function checkOutDir(outDir: string): void {
  if (!existsSync(outDir)) return;
  if (!statSync(outDir).isDirectory()) throw new UsageError(`${outDir} is not a folder`);
  if (readdirSync(outDir).length === 0) return;
  const readme = path.join(outDir, "README.md");
  if (!existsSync(readme) || !readFileSync(readme, "utf8").startsWith(README_MARK)) {
    throw new UsageError(`${outDir} is not empty and was not written by this generator; choose another --out`);
  }
}

export async function generateEgoTLSet(options: GenerateOptions): Promise<GenerateSummary> {
  const walkthroughs = options.walkthroughs ?? 6;
  const segments = options.segments ?? 5;
  const perTask = options.perTask ?? 5;
  const render = options.render ?? DEFAULT_RENDER;
  const log = options.log ?? (() => {});
  if (!Number.isInteger(walkthroughs) || walkthroughs < 1) throw new UsageError("the number of walkthroughs must be a positive integer");
  if (!Number.isInteger(segments) || segments < 3) throw new UsageError("segments must be an integer >= 3");
  checkOutDir(options.outDir);

  const test = build("w", walkthroughs, segments, options.seed, 0);
  const rng = createRng(deriveSeed(options.seed, 9001));
  const chosen: Row[] = [];
  const counts = {} as Record<EgoTLTask, number>;
  for (const task of EGOTL_TASKS) {
    const rows = pick(test.questions[task], perTask, rng).sort((a, b) => (a.id < b.id ? -1 : 1));
    counts[task] = rows.length;
    chosen.push(...rows);
  }
  const train = build("t", options.trainWalkthroughs ?? 10, segments, options.seed, 20000);
  const trainRng = createRng(deriveSeed(options.seed, 9002));
  const trainRows: Row[] = [];
  for (const task of EGOTL_TASKS) {
    const rows = pick(train.questions[task], options.trainPerTask ?? 10, trainRng).sort((a, b) => (a.id < b.id ? -1 : 1));
    trainRows.push(...rows.map((r) => ({ ...r, ...renameMedia(r) })));
  }

  // Frames: every frame of a walkthrough with a planning question (its memory bank is the folder), else the ones used.
  const needed = new Map<string, Set<number>>();
  const want = (w: string, i: number) => (needed.get(w) ?? needed.set(w, new Set()).get(w)!).add(i);
  for (const row of chosen) {
    const files = [...(row.media?.frames ?? []), ...(row.current_frame ? [row.current_frame] : [])];
    for (const f of files) want(row.video_id, Number(/frame_(\d+)\.png$/.exec(f)![1]));
    if (row.media?.dir) test.worlds.find((w) => w.id === row.video_id)!.poses.forEach((_, i) => want(row.video_id, i));
  }
  await rm(path.join(options.outDir, "frames"), { recursive: true, force: true });
  let bytes = 0;
  let frames = 0;
  for (const world of test.worlds) {
    const indices = [...(needed.get(world.id) ?? [])].sort((a, b) => a - b);
    if (indices.length === 0) continue;
    await mkdir(path.join(options.outDir, "frames", world.id), { recursive: true });
    for (const i of indices) {
      const png = await renderPng(world, world.poses[i]!, render);
      await writeFile(path.join(options.outDir, frameFile(world, i)), png);
      bytes += png.length;
      frames++;
    }
    log(`${world.id}: ${world.segments.map((s) => (s.cells ? `${s.motion} ${s.metres.toFixed(2)} m` : s.motion)).join(", ")} (${indices.length} frames)`);
  }
  const testText = chosen.map(rowJson).join("\n") + "\n";
  const trainText = trainRows.map(rowJson).join("\n") + "\n";
  await writeFile(path.join(options.outDir, "test.jsonl"), testText);
  await writeFile(path.join(options.outDir, "train.jsonl"), trainText);
  const command = options.command ?? `generateEgoTLSet({ outDir: ${JSON.stringify(options.outDir)}, seed: ${options.seed} })`;
  const readme = readmeText({ seed: options.seed, walkthroughs, segments, counts, train: trainRows.length, frames, render, command });
  await writeFile(path.join(options.outDir, "README.md"), readme);
  bytes += Buffer.byteLength(testText) + Buffer.byteLength(trainText) + Buffer.byteLength(readme);
  const text = [
    `${chosen.length} questions (${EGOTL_TASKS.map((t) => `${t} ${counts[t]}`).join(", ")}), ${trainRows.length} training questions`,
    `${frames} frames of ${render.width}x${render.height} in ${needed.size} walkthroughs; ${(bytes / 1024).toFixed(0)} KiB`,
  ].join("\n");
  return { counts, train: trainRows.length, frames, bytes, text };
}

/** Training rows point at frames under train-frames/ that are not rendered (only their answers are used). */
function renameMedia(row: Row): Pick<Row, "media" | "current_frame"> {
  const swap = (f: string) => f.replace(/^frames\//, "train-frames/");
  return {
    ...(row.media ? { media: { ...row.media, ...(row.media.frames ? { frames: row.media.frames.map(swap) } : {}), ...(row.media.dir ? { dir: swap(row.media.dir) } : {}) } } : {}),
    ...(row.current_frame ? { current_frame: swap(row.current_frame) } : {}),
  };
}

function readmeText(o: { seed: number; walkthroughs: number; segments: number; counts: Record<EgoTLTask, number>; train: number; frames: number; render: RenderOptions; command: string }): string {
  return `${README_MARK}

Everything here is synthetic: corridors built on a 0.5 m grid around a random route, rendered by
spatialprobe's ray caster (src/benchmarks/egotl/synthetic/). It follows spatialprobe's EgoTL-Bench
item format (schemas/egotl-item.schema.json) so the loader, prompts, readers and scorers can be
exercised offline. It is not EgoTL-Bench data and says nothing about real-world model performance.

- seed: ${o.seed}; walkthroughs (source videos): ${o.walkthroughs}, ${o.segments} segments each
- questions: ${EGOTL_TASKS.map((t) => `${t} ${o.counts[t]}`).join(", ")}
- frames: ${o.frames} PNGs of ${o.render.width}x${o.render.height} (horizontal field of view ${o.render.hfov}°, pitch ${o.render.pitch}°), captured at ${FPS} fps
- train.jsonl: ${o.train} questions from other walkthroughs, for the \`frequency\` baseline (\`--train\`). Only their
  answers are used; the frames they name (train-frames/...) are not shipped, so do not \`validate\` that file.

Regenerate (byte-identical output for the same seed and options):

\`\`\`
${o.command}
\`\`\`

How the answers are true by construction: a walkthrough is a route of segments (walk forward 1.5-3.5 m,
turn left or right by 90° on the spot, climb or descend stairs of 0.2 m per 0.5 m run); the camera
(eye height ${EYE_HEIGHT} m) moves along it with ${FRAMES_PER_SEGMENT} frames per segment. A clip is one segment's
${FRAMES_PER_SEGMENT + 1} frames (sharing its first frame with the previous clip's last).

- direction: the segment's motion (Move forward, Turn left, Turn right, Going up, Going down).
- distance: the camera's 3D path length over the clip, rounded to 0.01 m (0 for a turn on the spot).
- action recognition: the segment's action among three others in the same colour words.
- next action: the clip of one segment plus the route as a chain of thought; the answer is the following segment.
- scene-aware action: a view about 2 m before a turn or a staircase; only one of the four actions fits the corridor.
- planning: the whole walkthrough as the memory bank; the true route among three altered ones
  (a turn or staircase reversed, a corridor turned into stairs, two steps swapped, a step dropped).

Layout: \`test.jsonl\`, \`train.jsonl\`, \`frames/<walkthrough>/frame_<n>.png\`. Paths in the rows are relative to this folder.
`;
}
