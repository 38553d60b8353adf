/**
 * A random forest of regression trees on binned features (Breiman 2001; histogram splits as in
 * LightGBM). Our own rather than ml-random-forest: ml-cart's split search is quadratic in a
 * node's size (bench/audit.ts measures it: 1,000 rows x 100 features, 10 trees, 5.4 s; 2,000
 * rows 18.6 s), and the audit fits 5 folds x tasks of up to 40,000 option rows. Here every
 * column is cut into at most `bins` quantile bins once, and a node's best split is found from
 * per-bin sums, so a tree costs O(rows x features tried x depth).
 *
 * Targets are numbers: 0/1 labels give per-option probabilities (the mean of the trees), other
 * targets a regression. Same seed, same forest.
 */
import { createRng, deriveSeed, type Rng } from "../stats/rng.js";

export interface ForestOptions {
  trees: number;
  maxDepth: number;
  /** Fewest rows a leaf may hold. */
  minLeaf: number;
  /** Share of the columns tried at each split (at least one). */
  featureFraction: number;
  /** Most bins per column (at most 256). */
  bins: number;
  /** Most rows drawn for each tree's bootstrap sample (sklearn's max_samples): large tables stay linear in the trees. */
  maxSamples: number;
  seed: number;
}

export const DEFAULT_FOREST: ForestOptions = { trees: 60, maxDepth: 10, minLeaf: 3, featureFraction: 0.33, bins: 32, maxSamples: 20_000, seed: 1 };

/** Rows of numbers, all the same width. */
export type Matrix = readonly (readonly number[])[];

/** Each column's cut points: a value v goes to the first bin whose cut is >= v. */
export interface Binning {
  cuts: Float64Array[];
}

/** Quantile cut points per column from the training rows (each distinct value its own bin when there are few). */
export function fitBinning(x: Matrix, bins: number): Binning {
  const columns = x[0]?.length ?? 0;
  const cuts: Float64Array[] = [];
  for (let c = 0; c < columns; c++) cuts.push(weightedCuts(x.map((row) => finite(row[c]!)), null, bins));
  return { cuts };
}

/**
 * Cut points of a column from its values (each with a weight, or 1): every distinct value its own
 * bin when there are at most `bins`, else cuts at the weighted quantiles. A value v goes to the
 * number of cuts below it, so a cut equal to the largest value is never kept.
 */
export function weightedCuts(values: readonly number[], weights: readonly number[] | null, bins: number): Float64Array {
  const order = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const distinct: number[] = [];
  for (const i of order) if (distinct.length === 0 || distinct[distinct.length - 1] !== values[i]) distinct.push(values[i]!);
  if (distinct.length <= bins) return Float64Array.from(distinct.slice(0, -1));
  const total = weights ? weights.reduce((s, w) => s + w, 0) : values.length;
  const chosen: number[] = [];
  let seen = 0;
  let next = 1;
  for (const i of order) {
    seen += weights ? weights[i]! : 1;
    while (next < bins && seen > (next * total) / bins) {
      if (chosen.length === 0 || chosen[chosen.length - 1]! < values[i]!) chosen.push(values[i]!);
      next++;
    }
  }
  while (chosen.length > 0 && chosen[chosen.length - 1]! >= distinct[distinct.length - 1]!) chosen.pop();
  return Float64Array.from(chosen);
}

function finite(v: number): number {
  return Number.isFinite(v) ? v : 0;
}

/** The bin of v: the number of cuts below it (binary search). */
export function binOf(cuts: Float64Array, v: number): number {
  let lo = 0;
  let hi = cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cuts[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Column-major bin codes of the rows under a binning. */
export function binRows(x: Matrix, binning: Binning): Uint8Array[] {
  return binning.cuts.map((cuts, c) => Uint8Array.from(x, (row) => binOf(cuts, finite(row[c]!))));
}

/** A tree as flat arrays; a node with feature -1 is a leaf holding `value`. */
interface Tree {
  feature: Int32Array;
  /** Rows with bin code <= threshold go left. */
  threshold: Int32Array;
  left: Int32Array;
  right: Int32Array;
  value: Float64Array;
}

export interface Forest {
  /** How raw numbers are binned (absent for a forest fitted on codes binned elsewhere). */
  binning?: Binning;
  trees: Tree[];
  /** Per column, the squared-error reduction of every split on it, summed over the trees. */
  gain: Float64Array;
}

/** Fit a forest: each tree on a bootstrap sample of the rows, a random share of the columns tried at each split. */
export function fitForest(x: Matrix, y: readonly number[], options: Partial<ForestOptions> = {}): Forest {
  const o = { ...DEFAULT_FOREST, ...options };
  if (x.length !== y.length) throw new RangeError(`${x.length} rows but ${y.length} targets`);
  const binning = fitBinning(x, Math.max(2, Math.min(256, o.bins)));
  const forest = fitForestOnCodes(binRows(x, binning), Float64Array.from(y, finite), Int32Array.from(x.keys()), o);
  return { ...forest, binning };
}

/**
 * Fit on rows already binned (column-major codes): `train` lists the rows to learn from and `y`
 * holds a target for every row (only the training rows' are read).
 */
export function fitForestOnCodes(codes: readonly Uint8Array[], y: Float64Array, train: Int32Array, options: Partial<ForestOptions> = {}): Omit<Forest, "binning"> & { binning?: Binning } {
  const o = { ...DEFAULT_FOREST, ...options };
  const gain = new Float64Array(codes.length);
  const trees: Tree[] = [];
  const draws = Math.min(train.length, o.maxSamples);
  for (let t = 0; t < o.trees && train.length > 0; t++) {
    const rng = createRng(deriveSeed(o.seed, t));
    const sample = Int32Array.from({ length: draws }, () => train[rng.below(train.length)]!);
    trees.push(growTree(codes, y, sample, o, rng, gain));
  }
  return { trees, gain };
}

function growTree(codes: readonly Uint8Array[], y: Float64Array, rows: Int32Array, o: ForestOptions, rng: Rng, gain: Float64Array): Tree {
  const nodes = { feature: [] as number[], threshold: [] as number[], left: [] as number[], right: [] as number[], value: [] as number[] };
  const columns = codes.length;
  const tried = Math.max(1, Math.round(columns * o.featureFraction));
  const order = Int32Array.from({ length: columns }, (_, i) => i);
  const sums = new Float64Array(256);
  const counts = new Float64Array(256);

  const addNode = (): number => {
    nodes.feature.push(-1);
    nodes.threshold.push(0);
    nodes.left.push(-1);
    nodes.right.push(-1);
    nodes.value.push(0);
    return nodes.feature.length - 1;
  };
  // Depth-first with an explicit stack: [node, rows, depth].
  const stack: Array<[number, Int32Array, number]> = [[addNode(), rows, 0]];
  while (stack.length > 0) {
    const [node, part, depth] = stack.pop()!;
    let total = 0;
    for (const r of part) total += y[r]!;
    const mean = total / part.length;
    nodes.value[node] = mean;
    if (depth >= o.maxDepth || part.length < 2 * o.minLeaf) continue;
    let sq = 0;
    for (const r of part) sq += (y[r]! - mean) ** 2;
    if (sq <= 1e-12) continue;

    // A partial Fisher-Yates shuffle picks the columns tried here.
    for (let i = 0; i < tried; i++) {
      const j = i + rng.below(columns - i);
      const t = order[i]!;
      order[i] = order[j]!;
      order[j] = t;
    }
    let best = { gain: 1e-12, feature: -1, threshold: 0 };
    for (let k = 0; k < tried; k++) {
      const f = order[k]!;
      const col = codes[f]!;
      sums.fill(0);
      counts.fill(0);
      let maxBin = 0;
      for (const r of part) {
        const b = col[r]!;
        sums[b] = sums[b]! + y[r]!;
        counts[b] = counts[b]! + 1;
        if (b > maxBin) maxBin = b;
      }
      let leftSum = 0;
      let leftCount = 0;
      for (let b = 0; b < maxBin; b++) {
        leftSum += sums[b]!;
        leftCount += counts[b]!;
        const rightCount = part.length - leftCount;
        if (leftCount < o.minLeaf || rightCount < o.minLeaf) continue;
        const rightSum = total - leftSum;
        // Squared-error reduction of the split (the parent's SSE minus the children's).
        const reduction = (leftSum * leftSum) / leftCount + (rightSum * rightSum) / rightCount - (total * total) / part.length;
        if (reduction > best.gain) best = { gain: reduction, feature: f, threshold: b };
      }
    }
    if (best.feature < 0) continue;
    const col = codes[best.feature]!;
    let leftSize = 0;
    for (const r of part) if (col[r]! <= best.threshold) leftSize++;
    const leftRows = new Int32Array(leftSize);
    const rightRows = new Int32Array(part.length - leftSize);
    let li = 0;
    let ri = 0;
    for (const r of part) {
      if (col[r]! <= best.threshold) leftRows[li++] = r;
      else rightRows[ri++] = r;
    }
    gain[best.feature] = gain[best.feature]! + best.gain;
    nodes.feature[node] = best.feature;
    nodes.threshold[node] = best.threshold;
    const left = addNode();
    const right = addNode();
    nodes.left[node] = left;
    nodes.right[node] = right;
    stack.push([left, leftRows, depth + 1], [right, rightRows, depth + 1]);
  }
  return {
    feature: Int32Array.from(nodes.feature),
    threshold: Int32Array.from(nodes.threshold),
    left: Int32Array.from(nodes.left),
    right: Int32Array.from(nodes.right),
    value: Float64Array.from(nodes.value),
  };
}

/** The forest's prediction (mean of the trees) for the listed rows of column-major bin codes. */
export function predictCodes(forest: Pick<Forest, "trees">, codes: readonly Uint8Array[], rows: Int32Array): Float64Array {
  const out = new Float64Array(rows.length);
  if (forest.trees.length === 0) return out;
  for (const tree of forest.trees) {
    for (let k = 0; k < rows.length; k++) {
      const r = rows[k]!;
      let node = 0;
      while (tree.feature[node]! >= 0) node = codes[tree.feature[node]!]![r]! <= tree.threshold[node]! ? tree.left[node]! : tree.right[node]!;
      out[k] = out[k]! + tree.value[node]!;
    }
  }
  for (let k = 0; k < rows.length; k++) out[k] = out[k]! / forest.trees.length;
  return out;
}

/** The forest's prediction for rows of numbers. */
export function predict(forest: Forest, x: Matrix): Float64Array {
  if (!forest.binning) throw new Error("this forest was fitted on binned codes; predict with predictCodes");
  return predictCodes(forest, binRows(x, forest.binning), Int32Array.from(x.keys()));
}
