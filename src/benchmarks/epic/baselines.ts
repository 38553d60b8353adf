import { BitMask } from "../../geometry/mask.js";
import { decodeRleUnion } from "../../geometry/rle.js";
import { createRng, seedFromString } from "../../stats/rng.js";
import { groundTruth, splitRegions } from "./score.js";
import { gtFields } from "./taxonomy.js";
import type { EpicItem } from "./types.js";

/**
 * Built-in models, replying in each task's JSON format with absolute pixel coordinates:
 * `oracle` (boxes of the ground-truth mask's components, the true count and feasibility, a path
 * through the feasible area), `full-image` (one box over the whole image), `random[:seed]`.
 * Asked with the count-only prompt, each replies with its count alone.
 */
function reply(item: EpicItem, answer: { boxes?: number[][]; count?: number; feasible?: boolean; points?: number[][] }): string {
  const leaf = item.leaf;
  if (leaf.group === "FeasiblePath") return JSON.stringify({ points: answer.points ?? [] });
  const out: Record<string, unknown> = {};
  if (leaf.category === "TargetLocalization") out["number_of_objects"] = answer.count ?? 0;
  else if (leaf.leaf === "VisualMatching" || leaf.group === "ContactRelationship") out["number_of_instances"] = answer.count ?? 0;
  out["bounding_boxes"] = answer.boxes ?? [];
  if (leaf.leaf === "PlacementRegion") out["placement_feasibility"] = answer.feasible ?? false;
  return JSON.stringify(out);
}

/** Shortest 4-connected route through the feasible mask from the start to the goal region, thinned to a few points. */
function pathThrough(feasible: BitMask, from: [number, number], goal: BitMask | null): number[][] {
  const { width: W, height: H } = feasible;
  const nearestFeasible = (x: number, y: number): number => {
    let best = -1, bestD = Infinity;
    feasible.forEachPixel((px, py) => {
      const d = (px - x) ** 2 + (py - y) ** 2;
      if (d < bestD) { bestD = d; best = py * W + px; }
    });
    return best;
  };
  const start = nearestFeasible(from[0], from[1]);
  if (start < 0) return [from, [W / 2, H / 2], [W / 2, 0]];
  const prev = new Int32Array(W * H).fill(-1);
  prev[start] = start;
  const queue = new Int32Array(W * H);
  let head = 0, tail = 0, end = -1;
  queue[tail++] = start;
  while (head < tail) {
    const cur = queue[head++]!;
    const x = cur % W, y = (cur - x) / W;
    if (goal?.get(x, y)) { end = cur; break; }
    for (const [nx, ny] of [[x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]] as const) {
      if (nx < 0 || ny < 0 || nx >= W || ny >= H) continue;
      const k = ny * W + nx;
      if (prev[k] !== -1 || !feasible.get(nx, ny)) continue;
      prev[k] = cur;
      queue[tail++] = k;
    }
  }
  if (end < 0) end = queue[tail - 1]!;
  const route: number[] = [];
  for (let k = end; ; k = prev[k]!) {
    route.push(k);
    if (k === start) break;
  }
  route.reverse();
  const picks = Math.min(6, route.length);
  return Array.from({ length: picks }, (_, i) => {
    const k = route[Math.round((i * (route.length - 1)) / Math.max(1, picks - 1))]!;
    return [k % W, Math.floor(k / W)];
  });
}

function oracle(item: EpicItem): string {
  const f = gtFields(item.leaf);
  const gt = groundTruth(item);
  if (item.leaf.group === "FeasiblePath") {
    const feasible = decodeRleUnion(item.masks[f.pathMask!], { strict: false });
    const goal = decodeRleUnion(item.masks[f.targetAreaMask!] ?? [], { strict: false });
    if (!feasible) return reply(item, { points: [] });
    // Third-person views: from the start region (as the scorer splits the target area) to the other one.
    const [one, two] = item.leaf.leaf === "FeasiblePath_Exo" && goal ? splitRegions(goal) : [null, null];
    if (one && two) {
      const b = one.bounds()!;
      return reply(item, { points: pathThrough(feasible, [(b[0] + b[2] - 1) / 2, (b[1] + b[3] - 1) / 2], two) });
    }
    return reply(item, { points: pathThrough(feasible, [feasible.width / 2, feasible.height - 1], goal) });
  }
  const mask = decodeRleUnion(item.masks[f.localizationMask!] ?? [], { strict: false });
  const boxes = mask && gt.count !== 0 ? mask.boundingBoxes(4).map((b) => [...b]) : [];
  return reply(item, { boxes, count: gt.count ?? boxes.length, feasible: gt.feasibility ?? false });
}

function fullImage(item: EpicItem): string {
  const { width: W, height: H } = item;
  return reply(item, { boxes: [[0, 0, W, H]], count: 1, feasible: true, points: [[W / 2, H - 1], [W / 2, H / 2], [W / 2, 0]] });
}

function random(item: EpicItem, seed: number): string {
  const rng = createRng(seedFromString(item.id, seed));
  const { width: W, height: H } = item;
  const boxes = Array.from({ length: rng.int(0, 3) }, () => {
    const x = rng.float(0, W), y = rng.float(0, H);
    return [Math.round(x), Math.round(y), Math.round(Math.min(W, x + rng.float(1, W / 2))), Math.round(Math.min(H, y + rng.float(1, H / 2)))];
  });
  const points = Array.from({ length: rng.int(3, 6) }, () => [Math.round(rng.float(0, W - 1)), Math.round(rng.float(0, H - 1))]);
  return reply(item, { boxes, count: boxes.length, feasible: rng.chance(0.5), points });
}

/** The count-only prompt's reply: the joint reply's count key alone. */
function countOnly(item: EpicItem, joint: string): string {
  const parsed = JSON.parse(joint) as Record<string, unknown>;
  const key = item.leaf.category === "TargetLocalization" ? "number_of_objects" : "number_of_instances";
  return JSON.stringify({ [key]: parsed[key] ?? 0 });
}

const answering = (make: (item: EpicItem, seed: number) => string) => (item: EpicItem, seed: number, prompt: Record<string, unknown>) =>
  prompt?.["variant"] === "count-only" ? countOnly(item, make(item, seed)) : make(item, seed);

export const epicBaselines: Record<string, { describe: string; reply: (item: EpicItem, seed: number, prompt: Record<string, unknown>) => string }> = {
  oracle: { describe: "boxes of the ground-truth mask's components, true count and feasibility, a path through the feasible area", reply: answering((item) => oracle(item)) },
  "full-image": { describe: "one box over the whole image (count 1, feasible, a straight path up the middle)", reply: answering((item) => fullImage(item)) },
  random: { describe: "0-3 random boxes, a random count and feasibility, 3-6 random path points (seeded)", reply: answering((item, seed) => random(item, seed)) },
};
