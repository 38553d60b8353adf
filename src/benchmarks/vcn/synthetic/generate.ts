/**
 * Writes a synthetic VCN-Bench set (seeded, deterministic):
 *   items.jsonl                       goal-identification questions (schema.ts)
 *   houses/<house>/house.json         the house: rooms, objects, doorways, tour poses
 *   houses/<house>/tour/NNN.png       the tour as a frame folder
 *   houses/<house>/views/<q>/*.png    the four initial views of each question
 *   episodes.json.gz                  navigation episodes in the released format
 *   trajectories.jsonl                scripted trajectory logs (one episode left without a log)
 *   README.md
 */
import { existsSync, readdirSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { createRng, deriveSeed } from "../../../stats/rng.js";
import { successFrames } from "../chance.js";
import type { TaskCode } from "../schema.js";
import { generateHouse, round, type House } from "./house.js";
import { layoutOf, planItems, type PlannedItem } from "./items.js";
import { BEHAVIOURS, buildEpisode, buildTrajectory } from "./navigation.js";
import { renderView } from "./render.js";
import { annotate, planTour, type Pose } from "./tour.js";

export interface VcnGenerateOptions {
  outDir: string;
  seed: number;
  houses: number;
  /** Also write episodes.json.gz and trajectories.jsonl (default true). */
  navigation?: boolean;
  /** The command recorded in the README. */
  command?: string;
  log?: (line: string) => void;
}

export interface VcnGenerateSummary {
  houses: number;
  frames: number;
  items: number;
  perTask: Record<string, number>;
  episodes: number;
}

const README_MARK = "# Synthetic VCN-Bench-format data";

const pad = (k: number) => String(k).padStart(3, "0");

function views(pose: Pose): Record<"front" | "left" | "back" | "right", Pose> {
  const h = pose.heading;
  return {
    front: pose,
    left: { position: pose.position, heading: h + Math.PI / 2 },
    back: { position: pose.position, heading: h + Math.PI },
    right: { position: pose.position, heading: h - Math.PI / 2 },
  };
}

interface BuiltHouse {
  house: House;
  poses: Pose[];
  items: PlannedItem[];
}

function buildHouse(index: number, seed: number): BuiltHouse {
  const rng = createRng(deriveSeed(seed, index));
  for (let attempt = 0; attempt < 200; attempt++) {
    const house = generateHouse(`house_${index + 1}`, rng);
    const poses = planTour(house, rng);
    const annotations = poses.map((p, k) => annotate(house, p, k));
    const items = planItems(house, annotations, rng, { houseIndex: index, plain: index === 0 });
    if (items) return { house, poses, items };
  }
  throw new Error(`could not build house ${index + 1} with every question type`);
}

export async function generateVcnSet(options: VcnGenerateOptions): Promise<VcnGenerateSummary> {
  const { outDir } = options;
  if (existsSync(outDir)) {
    const readme = path.join(outDir, "README.md");
    const ours = existsSync(readme) && (await readFile(readme, "utf8")).startsWith(README_MARK);
    if (!ours && readdirSync(outDir).length > 0) throw new Error(`${outDir} holds data this generator did not write; choose another folder`);
    await rm(path.join(outDir, "houses"), { recursive: true, force: true });
  }
  await mkdir(outDir, { recursive: true });
  const lines: string[] = [];
  const episodes: Array<Record<string, unknown>> = [];
  const trajectories: string[] = [];
  const perTask: Record<string, number> = {};
  let frames = 0;
  for (let index = 0; index < options.houses; index++) {
    const { house, poses, items } = buildHouse(index, options.seed);
    const houseDir = path.join(outDir, "houses", house.id);
    await mkdir(path.join(houseDir, "tour"), { recursive: true });
    for (let k = 0; k < poses.length; k++) await writeFile(path.join(houseDir, "tour", `${pad(k)}.png`), await renderView(house, poses[k]!));
    frames += poses.length;
    const annotations = poses.map((p, k) => annotate(house, p, k));
    const rel = (p: string) => path.posix.join("houses", house.id, p);
    await writeFile(path.join(houseDir, "house.json"), `${JSON.stringify({
      id: house.id,
      rooms: house.rooms.map((r) => ({ id: r.id, category: r.category, bounds: [r.x0, r.y0, r.x1, r.y1], center: r.center })),
      objects: house.objects,
      doors: house.doors,
      tour: poses.map((p, k) => ({ index: k, position: [round(p.position[0]), round(p.position[1])], heading_deg: round((p.heading * 180) / Math.PI, 2) })),
    }, null, 1)}\n`);
    for (const [k, item] of items.entries()) {
      const id = `${house.id}/${item.key}`;
      const viewDir = path.join(houseDir, "views", item.key);
      await mkdir(viewDir, { recursive: true });
      const initial: Record<string, string> = {};
      for (const [direction, pose] of Object.entries(views(item.start))) {
        await writeFile(path.join(viewDir, `${direction}.png`), await renderView(house, pose));
        initial[direction] = rel(`views/${item.key}/${direction}.png`);
      }
      const target = item.target;
      const answers = successFrames({
        annotations,
        target: "room" in target ? { kind: "room", room: target.room, category: "" } : { kind: "object", object: target.object, category: "" },
      });
      lines.push(JSON.stringify({
        id,
        task: item.task,
        scene: house.id,
        episode_id: id,
        instruction: item.instruction,
        tour: { dir: rel("tour"), spec: { mode: "all" } },
        annotations,
        target,
        initial_views: initial,
        layout: layoutOf(house, item.start),
        ...(item.query ? { query: item.query } : {}),
        answers,
      }));
      perTask[item.task] = (perTask[item.task] ?? 0) + 1;
      if (options.navigation !== false) {
        const plan = { episodeId: id, task: item.task, instruction: item.instruction, start: item.start, target };
        episodes.push(buildEpisode(house, plan));
        const isLast = index === options.houses - 1 && k === items.length - 1;
        if (!isLast) trajectories.push(JSON.stringify(buildTrajectory(house, plan, BEHAVIOURS[episodes.length % BEHAVIOURS.length]!)));
      }
    }
    options.log?.(`${house.id}: ${poses.length} tour frames, ${items.length} questions`);
  }
  await writeFile(path.join(outDir, "items.jsonl"), `${lines.join("\n")}\n`);
  if (options.navigation !== false) {
    await writeFile(path.join(outDir, "episodes.json.gz"), gzipSync(Buffer.from(JSON.stringify({ episodes })), { level: 9 }));
    await writeFile(path.join(outDir, "trajectories.jsonl"), `${trajectories.join("\n")}\n`);
  }
  const summary: VcnGenerateSummary = { houses: options.houses, frames, items: lines.length, perTask: perTask as Record<TaskCode, number>, episodes: episodes.length };
  await writeFile(path.join(outDir, "README.md"), readme(options, summary));
  return summary;
}

function readme(options: VcnGenerateOptions, s: VcnGenerateSummary): string {
  const command = options.command ?? `node --import tsx src/benchmarks/vcn/synthetic/index.ts --out ${options.outDir} --seed ${options.seed} --houses ${options.houses}`;
  return `${README_MARK}

Made by spatialprobe's VCN-Bench generator (src/benchmarks/vcn/synthetic/), not the VCN-Bench release:
${s.houses} grid houses (4 m rooms with categories and object instances, 1 m doorways), a rendered
tour of each as a frame folder (96x72 PNGs), the annotations of every tour frame (camera room,
visible object instances, rooms seen through doorways), the four initial views of every question,
${s.items} goal-identification questions (${Object.entries(s.perTask).map(([t, n]) => `${t} ${n}`).join(", ")}) with their structure
(relation, anchor, candidates, template) so counterfactuals can be recomputed, ${s.episodes} navigation
episodes in the released gzip JSON format and scripted trajectory logs (one episode has none).

Regenerate (same seed, same files):

    ${command}

Layout:

    items.jsonl                      one question a line (schemas/vcn-item.schema.json)
    houses/<house>/house.json        rooms (bounds, centre), objects, doorways, tour poses
    houses/<house>/tour/NNN.png      the tour, frame NNN = tour index NNN
    houses/<house>/views/<q>/*.png   front, left, back, right views at the question's start
    episodes.json.gz                 {"episodes": [...]} as released (positions [east, 0, north])
    trajectories.jsonl               {"episode_id", "positions", "stop", "rooms", "final_distance"}

Visibility rule of the annotations: an object is visible when it lies strictly inside the 90° field
of view and within 3 m, in the camera's room or through a doorway in view (inside the opening);
a doorway in view puts the next room in visible_rooms.
`;
}
