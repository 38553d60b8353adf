/**
 * The encoder-probing set of paper §5.2 (Table 4): pictures of single paths and a balanced list
 * of picture pairs, "same" (one path's picture twice) or "different" (two distinct paths of one
 * environment). A linear probe on a frozen encoder's features of the two pictures is asked to
 * tell them apart (docs/patheval-probing.md); the paper used 1,000 pairs, balanced.
 *
 * Output, beside the test set:
 *   probing/images/<environment>_<path index>_<dim>.png   one path on its map (the test pictures' halves)
 *   probing/manifest.jsonl   {"id", "dim", "image_a", "image_b", "same": 1 | 0, "split": "train" | "test",
 *                             "environment", "path_a", "path_b"}; image paths relative to probing/
 *   probing/stats.json       pairs asked for and written, per label and split
 * The draw is seeded: same pairs from all valid paths, different pairs from all pairs of distinct
 * paths of one environment, both without replacement; equal counts of each (the smaller pool caps
 * both). 80% of each label is "train" and 20% "test", so the probe is scored on held-out pairs.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Polygon } from "../../geometry/polygon.js";
import { renderMap2D } from "../../media/render2d.js";
import { renderMap3D } from "../../media/render3d.js";
import { createRng } from "../../stats/rng.js";
import type { EnvironmentPlans } from "./plan.js";
import type { Dim } from "./types.js";

export const PROBING_DIR = "probing";
export const PROBING_TRAIN_SHARE = 0.8;

export interface ProbingPair {
  env: number;
  a: number;
  b: number;
  same: 0 | 1;
  split: "train" | "test";
}

/** The balanced, seeded draw over environments' path counts (pure; see the file comment). */
export function drawProbingPairs(pathCounts: readonly number[], wanted: number, seed: number): ProbingPair[] {
  const rng = createRng(seed ^ 0x9b0be);
  const singles: Array<[number, number]> = [];
  const doubles: Array<[number, number, number]> = [];
  pathCounts.forEach((n, env) => {
    for (let i = 0; i < n; i++) {
      singles.push([env, i]);
      for (let j = i + 1; j < n; j++) doubles.push([env, i, j]);
    }
  });
  const each = Math.min(Math.floor(wanted / 2), singles.length, doubles.length);
  const same = rng.shuffle(singles).slice(0, each).map(([env, i]) => ({ env, a: i, b: i, same: 1 as const }));
  const different = rng.shuffle(doubles).slice(0, each).map(([env, i, j]) => (rng.next() < 0.5 ? { env, a: i, b: j, same: 0 as const } : { env, a: j, b: i, same: 0 as const }));
  const trainCount = Math.round(each * PROBING_TRAIN_SHARE);
  const withSplit = (list: Array<Omit<ProbingPair, "split">>) => list.map((p, k) => ({ ...p, split: k < trainCount ? ("train" as const) : ("test" as const) }));
  // Interleaved (same, different, same, ...) so any prefix of the list stays balanced.
  const s = withSplit(same);
  const d = withSplit(different);
  return s.flatMap((p, k) => [p, d[k]!]);
}

export async function writeProbingSet(out: string, plans: readonly EnvironmentPlans[], polygonsOf: Map<string, Polygon[]>, options: { pairs: number; seed: number; dims: Dim[]; log?: (line: string) => void }): Promise<number> {
  const pairs = drawProbingPairs(plans.map((e) => e.paths.length), options.pairs, options.seed);
  const dir = path.join(out, PROBING_DIR);
  mkdirSync(path.join(dir, "images"), { recursive: true });
  const written = new Set<string>();
  const picture = async (env: EnvironmentPlans, index: number, dim: Dim): Promise<string> => {
    const name = `images/${env.name}_${index}_${dim}.png`;
    if (!written.has(name)) {
      const polygons = polygonsOf.get(env.name)!.map((p) => Array.from({ length: p.length / 2 }, (_, k) => [p[2 * k]!, p[2 * k + 1]!] as [number, number]));
      const scene = { polygons, path: env.paths[index]!.points };
      writeFileSync(path.join(dir, name), dim === "2D" ? await renderMap2D(scene) : await renderMap3D(scene));
      written.add(name);
    }
    return name;
  };
  const rows: string[] = [];
  for (const dim of options.dims) {
    for (let k = 0; k < pairs.length; k++) {
      const p = pairs[k]!;
      const env = plans[p.env]!;
      const row = { id: `${dim}/${k}`, dim, image_a: await picture(env, p.a, dim), image_b: await picture(env, p.b, dim), same: p.same, split: p.split, environment: env.name, path_a: p.a, path_b: p.b };
      rows.push(JSON.stringify(row));
    }
    options.log?.(`probing ${dim}: ${pairs.length} pairs, ${written.size} pictures so far`);
  }
  writeFileSync(path.join(dir, "manifest.jsonl"), rows.length > 0 ? `${rows.join("\n")}\n` : "");
  const count = (same: 0 | 1, split: string) => pairs.filter((p) => p.same === same && p.split === split).length;
  const stats = {
    asked: options.pairs, pairs: pairs.length, dims: options.dims, pictures: written.size,
    same: { train: count(1, "train"), test: count(1, "test") }, different: { train: count(0, "train"), test: count(0, "test") },
  };
  writeFileSync(path.join(dir, "stats.json"), `${JSON.stringify(stats, null, 2)}\n`);
  return pairs.length;
}
