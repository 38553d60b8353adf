import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Polygon } from "../../geometry/polygon.js";
import { sideBySide } from "../../media/compose.js";
import { renderMap2D } from "../../media/render2d.js";
import { renderMap3D } from "../../media/render3d.js";
import type { PathEvalScene, Point2 } from "../../media/scene2d.js";
import { createRng, deriveSeed } from "../../stats/rng.js";
import { descriptors } from "./descriptors.js";
import { EPSILON_LEVELS, PAPER_TABLE_8, PAPER_TABLE_9 } from "./probes.js";
import { DESCRIPTORS, type DescriptorName, type Descriptors } from "./scenarios.js";
import type { Dim, PathName } from "./types.js";

/**
 * The fine-grained perception set of paper App. C.2: for each descriptor and each ε of Table 8,
 * 50 pairs drawn (seeded, without replacement) from all pairs of valid paths of one environment
 * whose |difference| > ε. The three ε samples are drawn independently, so a pair may appear under
 * several ε (the paper samples "for each threshold"; Table 9's averages show the same).
 * Path 1 (left) and Path 2 are put in a seeded random order, so the smaller one is on either side.
 *
 * Output, beside the test set: `fine_grained/<dim>/fine_grained_<dim>.json` (records below),
 * `fine_grained/images/<environment>_<left>_<right>_<dim>.png` (side by side, Path 1 left; one per shown pair), `fine_grained/stats.json`
 * (pairs available and drawn per descriptor and ε, their mean differences next to Table 9).
 */

export const FINE_GRAINED_DIR = "fine_grained";
export const PAIRS_PER_EPSILON = 50;

/** One environment's valid paths, as generation holds them. */
export interface PathPool {
  environment: string;
  polygons: Polygon[];
  paths: ReadonlyArray<{ points: ReadonlyArray<readonly [number, number]> }>;
}

/** One drawn pair: indices into its environment's paths, left first. */
export interface FineGrainedPick {
  descriptor: DescriptorName;
  /** 1, 2 or 3 (ε1..ε3 of Table 8). */
  epsilonIndex: 1 | 2 | 3;
  epsilon: number;
  pool: number;
  left: number;
  right: number;
  difference: number;
  smaller: PathName;
}

export interface FineGrainedRecord {
  id: string;
  image: string;
  descriptor: DescriptorName;
  epsilon_index: 1 | 2 | 3;
  epsilon: number;
  difference: number;
  smaller: PathName;
  environment: string;
  metrics: Record<PathName, Descriptors>;
  paths: Record<PathName, Array<[number, number]>>;
}

/** Every unordered pair (i < j) of paths within one pool, flattened: [pool, i, j] triples. */
function allPairs(metrics: Descriptors[][]): Int32Array {
  let n = 0;
  for (const m of metrics) n += (m.length * (m.length - 1)) / 2;
  const out = new Int32Array(3 * n);
  let k = 0;
  metrics.forEach((m, pool) => {
    for (let i = 0; i < m.length; i++) for (let j = i + 1; j < m.length; j++) {
      out[k++] = pool;
      out[k++] = i;
      out[k++] = j;
    }
  });
  return out;
}

/** `take` distinct positions of [0, n), seeded (partial Fisher-Yates), in draw order. */
function drawWithoutReplacement(n: number, take: number, seed: number): number[] {
  const rng = createRng(seed);
  const order = Array.from({ length: n }, (_, i) => i);
  const k = Math.min(take, n);
  for (let t = 0; t < k; t++) {
    const j = rng.int(t, n - 1);
    const v = order[t]!;
    order[t] = order[j]!;
    order[j] = v;
  }
  return order.slice(0, k);
}

/**
 * The draw of App. C.2 on descriptor values (metrics[pool][path]): per descriptor and ε, up to
 * `perEpsilon` pairs with |difference| > ε; `available` says how many pairs qualified.
 */
export function sampleFineGrainedPairs(metrics: Descriptors[][], seed: number, perEpsilon = PAIRS_PER_EPSILON) {
  const pairs = allPairs(metrics);
  const count = pairs.length / 3;
  const picks: FineGrainedPick[] = [];
  const available = {} as Record<DescriptorName, [number, number, number]>;
  DESCRIPTORS.forEach((descriptor, d) => {
    available[descriptor] = [0, 0, 0];
    const diff = new Float64Array(count);
    for (let p = 0; p < count; p++) diff[p] = Math.abs(metrics[pairs[3 * p]!]![pairs[3 * p + 1]!]![descriptor] - metrics[pairs[3 * p]!]![pairs[3 * p + 2]!]![descriptor]);
    PAPER_TABLE_8[descriptor].forEach((epsilon, e) => {
      const qualified: number[] = [];
      for (let p = 0; p < count; p++) if (diff[p]! > epsilon) qualified.push(p);
      available[descriptor][e] = qualified.length;
      const stream = deriveSeed(seed, 0xf16e + 10 * d + e);
      const side = createRng(deriveSeed(stream, 1));
      for (const position of drawWithoutReplacement(qualified.length, perEpsilon, stream)) {
        const p = qualified[position]!;
        const [pool, i, j] = [pairs[3 * p]!, pairs[3 * p + 1]!, pairs[3 * p + 2]!];
        const [left, right] = side.chance(0.5) ? [j, i] : [i, j];
        const a = metrics[pool]![left]![descriptor];
        const b = metrics[pool]![right]![descriptor];
        picks.push({ descriptor, epsilonIndex: (e + 1) as 1 | 2 | 3, epsilon, pool, left, right, difference: Math.abs(a - b), smaller: a < b ? "Path 1" : "Path 2" });
      }
    });
  });
  return { picks, available, pairsConsidered: count };
}

/** "Minimum clearance" -> "minimum_clearance". */
export const descriptorSlug = (d: DescriptorName) => d.toLowerCase().replace(/ /g, "_");

/** Mean |difference| of the drawn pairs per descriptor and ε (paper Table 9's layout; null when none). */
export function meanDifferences(picks: ReadonlyArray<Pick<FineGrainedPick, "descriptor" | "epsilonIndex" | "difference">>) {
  return Object.fromEntries(DESCRIPTORS.map((d) => [d, [1, 2, 3].map((k) => {
    const group = picks.filter((p) => p.descriptor === d && p.epsilonIndex === k);
    return group.length === 0 ? null : group.reduce((s, p) => s + p.difference, 0) / group.length;
  })])) as Record<DescriptorName, Array<number | null>>;
}

const toPoints = (polygon: Polygon): Point2[] => Array.from({ length: polygon.length / 2 }, (_, k) => [polygon[2 * k]!, polygon[2 * k + 1]!] as [number, number]);

export const renderScene = (scene: PathEvalScene, dim: Dim) => (dim === "2D" ? renderMap2D(scene) : renderMap3D(scene));

/** Draw the set from the environments' valid paths and write its records, pictures and stats. */
export async function writeFineGrainedSet(outDir: string, pools: PathPool[], options: { seed: number; dims: Dim[]; perEpsilon?: number; log?: (line: string) => void }) {
  const metrics = pools.map((pool) => pool.paths.map((p) => descriptors(p.points as Array<[number, number]>, pool.polygons)));
  const { picks, available, pairsConsidered } = sampleFineGrainedPairs(metrics, options.seed, options.perEpsilon ?? PAIRS_PER_EPSILON);
  const root = path.join(outDir, FINE_GRAINED_DIR);
  mkdirSync(path.join(root, "images"), { recursive: true });
  const counters = new Map<string, number>();
  const ids = picks.map((p) => {
    const key = `${descriptorSlug(p.descriptor)}_e${p.epsilonIndex}`;
    const n = counters.get(key) ?? 0;
    counters.set(key, n + 1);
    return `${key}_${n}`;
  });
  // Single-path pictures, kept for one dimension at a time (a full set shows about 2,000 paths).
  let single = new Map<string, Buffer>();
  const picture = async (pool: number, index: number, dim: Dim) => {
    const key = `${pool}|${index}|${dim}`;
    let png = single.get(key);
    if (!png) {
      png = await renderScene({ polygons: pools[pool]!.polygons.map(toPoints), path: pools[pool]!.paths[index]!.points }, dim);
      single.set(key, png);
    }
    return png;
  };
  const written = new Set<string>();
  for (const dim of options.dims) {
    single = new Map();
    const records: FineGrainedRecord[] = [];
    for (let k = 0; k < picks.length; k++) {
      const p = picks[k]!;
      const pool = pools[p.pool]!;
      // One picture per shown pair: a pair drawn for several descriptors or ε shares it.
      const image = `images/${pool.environment}_${p.left}_${p.right}_${dim}.png`;
      if (!written.has(image)) {
        writeFileSync(path.join(root, image), await sideBySide(await picture(p.pool, p.left, dim), await picture(p.pool, p.right, dim)));
        written.add(image);
      }
      records.push({
        id: ids[k]!, image, descriptor: p.descriptor, epsilon_index: p.epsilonIndex, epsilon: p.epsilon, difference: p.difference, smaller: p.smaller,
        environment: pool.environment,
        metrics: { "Path 1": metrics[p.pool]![p.left]!, "Path 2": metrics[p.pool]![p.right]! },
        paths: { "Path 1": pool.paths[p.left]!.points.map((q) => [q[0], q[1]]), "Path 2": pool.paths[p.right]!.points.map((q) => [q[0], q[1]]) },
      });
      if ((k + 1) % 200 === 0) options.log?.(`fine-grained ${dim}: ${k + 1}/${picks.length} questions`);
    }
    const file = path.join(root, dim, `fine_grained_${dim}.json`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(records)}\n`);
  }
  const drawn = Object.fromEntries(DESCRIPTORS.map((d) => [d, [1, 2, 3].map((k) => picks.filter((p) => p.descriptor === d && p.epsilonIndex === k).length)]));
  const stats = {
    method: "paper App. C.2: per descriptor and ε (Table 8), pairs of valid paths of one environment with |difference| > ε, drawn without replacement; the three ε draws are independent",
    pairs_per_epsilon: options.perEpsilon ?? PAIRS_PER_EPSILON,
    pairs_considered: pairsConsidered,
    epsilons: PAPER_TABLE_8,
    available,
    drawn,
    mean_difference: meanDifferences(picks),
    paper_table_9: PAPER_TABLE_9,
    levels: EPSILON_LEVELS,
  };
  writeFileSync(path.join(root, "stats.json"), `${JSON.stringify(stats, null, 2)}\n`);
  return { records: picks.length, available, drawn, meanDifference: stats.mean_difference };
}
