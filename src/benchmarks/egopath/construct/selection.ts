/**
 * The benchmark's challenge-set selection (paper §3 "Benchmark Selection and Release", App. C;
 * the release's benchmark and tier policies for the definitions): every view bundle (a1 + b1 of
 * one view) and route bundle (a2 + b2 of one route unit, c riding with its b2) is described by
 * facts, each axis of difficulty gets a level low / medium / high, eligible bundles are ranked by
 * hardness (geometry first for routes) and the hardest kept, with one-edge references held at the
 * paper's shares. Train and val keep everything.
 */
import { quantile } from "../../../stats/bootstrap.js";
import { worldToCell, type OccupancyGrid } from "../../../world/space/index.js";
import type { Vec2 } from "../../../world/types.js";
import type { TaskCode } from "../tasks.js";
import { familyOf, type CueType } from "./identity.js";
import { EGOPATH_PARAMS as P, OFFICIAL_IMAGE_SIDE, round4 } from "./params.js";
import type { Candidate, ViewTarget } from "./types.js";

export type Level = "low" | "medium" | "high";
const RANK: Record<Level, number> = { low: 0, medium: 1, high: 2 };

// ---------------------------------------------------------------------------------------------
// View bundles (a1 + b1)

/** What makes a traversability sheet hard to read and to label. */
export interface ViewFacts {
  candidates: number;
  /** 25th percentile of each marker's distance to its nearest neighbour, px at 1024 px. */
  nnP25Px: number;
  /** Share of markers whose nearest neighbour is closer than 24 px at 1024 px (their labels touch). */
  labelOverlap: number;
  /** Share of markers the point agent may take with at most 0.15 m to the nearest obstacle. */
  nearPointBoundary: number;
  /** Share of point-walkable markers whose body margin (point clearance - 0.30 m) is within +-0.10 m. */
  nearEmbodiedBoundary: number;
  /** Share of markers where the point and embodied labels differ. */
  disagreement: number;
  /** Share of markers the point agent takes but the body misses by at most 0.10 m. */
  hardNegative: number;
}

/** Markers closer than this (px at 1024 px) have touching labels. */
export const LABEL_TOUCH_PX = 24;

const share = (n: number, of: number): number => (of > 0 ? round4(n / of) : 0);

/** Each point's distance to its nearest other point (empty when fewer than two). */
export function nearestNeighbourDistances(points: ReadonlyArray<readonly [number, number]>): number[] {
  if (points.length < 2) return [];
  return points.map((p, a) => {
    let best = Infinity;
    points.forEach((q, b) => { if (a !== b) best = Math.min(best, Math.hypot(p[0] - q[0], p[1] - q[1])); });
    return best;
  });
}

export function viewFacts(candidates: readonly Candidate[], imageSide: number): ViewFacts {
  const to1024 = (px: number): number => (px * OFFICIAL_IMAGE_SIDE) / imageSide;
  const nn = nearestNeighbourDistances(candidates.map((c) => c.image)).map(to1024);
  const n = candidates.length;
  const margin = (c: Candidate): number => c.pointClearanceM - P.agentRadiusM;
  return {
    candidates: n,
    nnP25Px: nn.length > 0 ? round4(quantile(nn.slice().sort((a, b) => a - b), 0.25)) : 999,
    labelOverlap: share(nn.filter((d) => d < LABEL_TOUCH_PX).length, nn.length),
    nearPointBoundary: share(candidates.filter((c) => c.pointWalkable && c.pointClearanceM <= 0.15).length, n),
    nearEmbodiedBoundary: share(candidates.filter((c) => c.pointWalkable && Math.abs(margin(c)) <= 0.1).length, n),
    disagreement: share(candidates.filter((c) => c.pointWalkable !== c.embodiedFeasible).length, n),
    hardNegative: share(candidates.filter((c) => c.pointWalkable && !c.embodiedFeasible && margin(c) >= -0.1 && margin(c) <= 0).length, n),
  };
}

/** Many markers, or markers packed closely enough that labels crowd. */
export function clutterLevel(f: ViewFacts): Level {
  if (f.candidates > 65 || f.nnP25Px < 28 || f.labelOverlap > 0.15) return "high";
  if (f.candidates <= 35 && f.nnP25Px >= 42 && f.labelOverlap <= 0.05) return "low";
  return "medium";
}

/** Markers close to the edge of either agent's free space. */
export function boundaryLevel(f: ViewFacts): Level {
  if (f.nearPointBoundary > 0.25 || f.nearEmbodiedBoundary > 0.25) return "high";
  if (f.nearPointBoundary <= 0.1 && f.nearEmbodiedBoundary <= 0.1) return "low";
  return "medium";
}

/** Markers whose answer changes between the point agent and the 0.6 m body. */
export function embodimentGapLevel(f: ViewFacts): Level {
  if (f.disagreement > 0.3 || f.hardNegative > 0.2) return "high";
  if (f.disagreement <= 0.1) return "low";
  return "medium";
}

export interface ViewAxes { clutter: Level; boundary: Level; gap: Level }

export const viewAxes = (f: ViewFacts): ViewAxes => ({ clutter: clutterLevel(f), boundary: boundaryLevel(f), gap: embodimentGapLevel(f) });

/** Why a view bundle is not a challenge candidate (empty: eligible): high clutter and a high boundary or gap. */
export function viewRejections(a: ViewAxes): string[] {
  const out: string[] = [];
  if (a.clutter !== "high") out.push("clutter_not_high");
  if (a.boundary !== "high" && a.gap !== "high") out.push("boundary_and_gap_not_high");
  return out;
}

// ---------------------------------------------------------------------------------------------
// Route bundles (a2 + b2, c with its b2)

/** How the question tells its target apart from the other objects of its category in view. */
export type Resolution = "category_only" | "relation" | "distance" | "colour";

export function resolutionOf(cue: CueType): Resolution {
  return cue === "none" ? "category_only" : cue === "side" ? "relation" : cue === "distance_rank" ? "distance" : "colour";
}

export interface RouteFacts {
  resolution: Resolution;
  /** Objects of the target's category the view shows, the target included. */
  cohort: number;
  /**
   * Objects of the target's family the view shows (the intent families of identity.ts, e.g. chair,
   * sofa, armchair, stool; a category without a family is its own), the target included: the
   * paper's same-type ambiguity counts same-family objects (App. C, Table S10).
   */
  familyCohort: number;
  /** Smallest difference of camera distance between the target and another of its category, metres (null: none). */
  runnerUpGapM: number | null;
  /** The point agent's continuous path: length, length over the start-goal straight line, turns of 20 degrees or more. */
  pointLengthM: number;
  detourRatio: number;
  turns: number;
  /** Waypoints between the start and the goal on the point route (decisions after the first step). */
  decisions: number;
  /** The embodied continuous path's body margin (clearance on the inflated grid): least, at the goal. */
  embodiedMinMarginM: number;
  embodiedGoalMarginM: number;
  /** Share of the embodied path's length with a body margin below NARROW_MARGIN_M. */
  narrowFraction: number;
  /** Embodied minus point: continuous length, decisions. */
  extraLengthM: number;
  extraDecisions: number;
  /** Intersection over union of the 0.25 m cells the two paths cross. */
  overlap: number;
}

/**
 * A passage is narrow where the body passes within 0.20 m of an obstacle (its clearance on the
 * inflated grid is below 0.20 m): the release's clearance-sensitive share, Table S10 (median 40%).
 */
export const NARROW_MARGIN_M = 0.2;
/** Step at which a path's clearance is read: the grid cell. */
const SAMPLE_M = P.gridCellM;
/** Cell size of the path overlap. */
const OVERLAP_CELL_M = 0.25;

/** Midpoints of pieces of at most `step` metres along a polyline, each with the length it stands for. */
export function polylineSamples(path: readonly Vec2[], step: number): Array<{ p: Vec2; w: number }> {
  const out: Array<{ p: Vec2; w: number }> = [];
  for (let k = 1; k < path.length; k++) {
    const a = path[k - 1]!, b = path[k]!;
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (len === 0) continue;
    const n = Math.ceil(len / step);
    for (let s = 0; s < n; s++) {
      const t = (s + 0.5) / n;
      out.push({ p: [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t], w: len / n });
    }
  }
  return out;
}

/** Interior vertices of the polyline where the heading changes by `minDeg` or more. */
export function turnsOf(path: readonly Vec2[], minDeg: number = P.keypointTurnDeg): number {
  let n = 0;
  for (let k = 1; k + 1 < path.length; k++) {
    const a = path[k - 1]!, b = path[k]!, c = path[k + 1]!;
    const u: Vec2 = [b[0] - a[0], b[1] - a[1]], v: Vec2 = [c[0] - b[0], c[1] - b[1]];
    const nu = Math.hypot(u[0], u[1]), nv = Math.hypot(v[0], v[1]);
    if (nu < 1e-9 || nv < 1e-9) continue;
    const cos = Math.max(-1, Math.min(1, (u[0] * v[0] + u[1] * v[1]) / (nu * nv)));
    if ((Math.acos(cos) * 180) / Math.PI >= minDeg - 1e-9) n++;
  }
  return n;
}

const polylineLength = (path: readonly Vec2[]): number => path.slice(1).reduce((s, p, k) => s + Math.hypot(p[0] - path[k]![0], p[1] - path[k]![1]), 0);

/** Intersection over union of the cells of `cell` metres that the two paths' samples fall in. */
export function pathOverlap(a: readonly Vec2[], b: readonly Vec2[], cell: number = OVERLAP_CELL_M): number {
  const cells = (path: readonly Vec2[]): Set<string> => {
    const out = new Set<string>();
    const pts = path.length === 1 ? [{ p: path[0]! }] : [...polylineSamples(path, cell / 2), { p: path[0]! }, { p: path[path.length - 1]! }];
    for (const { p } of pts) out.add(`${Math.floor(p[0] / cell)},${Math.floor(p[1] / cell)}`);
    return out;
  };
  const ca = cells(a), cb = cells(b);
  let inter = 0;
  for (const c of ca) if (cb.has(c)) inter++;
  const union = ca.size + cb.size - inter;
  return union > 0 ? round4(inter / union) : 0;
}

export interface MarginReading {
  grid: OccupancyGrid;
  /** Clearance of every cell of `grid`, metres (grids.ts clearanceMap). */
  clearance: Float64Array;
}

const marginAt = (m: MarginReading, p: Vec2): number => {
  const [i, j] = worldToCell(m.grid, p);
  if (i < 0 || j < 0 || i >= m.grid.width || j >= m.grid.height) return 0;
  return m.clearance[j * m.grid.width + i]!;
};

/** Clearance facts of the embodied path: least margin, margin at the goal, narrow share of the length. */
export function clearanceFacts(path: readonly Vec2[], m: MarginReading): { min: number; goal: number; narrow: number } {
  const samples = polylineSamples(path, SAMPLE_M);
  const goal = marginAt(m, path[path.length - 1]!);
  if (samples.length === 0) return { min: round4(goal), goal: round4(goal), narrow: goal < NARROW_MARGIN_M ? 1 : 0 };
  let total = 0, narrow = 0, min = goal;
  for (const s of samples) {
    const d = marginAt(m, s.p);
    total += s.w;
    if (d < NARROW_MARGIN_M) narrow += s.w;
    min = Math.min(min, d);
  }
  return { min: round4(min), goal: round4(goal), narrow: round4(narrow / total) };
}

export interface RouteFactInputs {
  target: ViewTarget;
  /** Every object the view shows (identity universe). */
  shown: readonly ViewTarget[];
  cueType: CueType;
  point: { path: readonly Vec2[]; keys: readonly number[] };
  embodied: { path: readonly Vec2[]; keys: readonly number[] };
  embodiedMargins: MarginReading;
}

export function routeFacts(x: RouteFactInputs): RouteFacts {
  const same = x.shown.filter((s) => s.object.category === x.target.object.category && s.object.id !== x.target.object.id);
  const family = (category: string): string => familyOf(category)?.family ?? `category:${category}`;
  const targetFamily = family(x.target.object.category);
  const gap = same.length > 0 ? round4(Math.min(...same.map((s) => Math.abs(s.distanceM - x.target.distanceM)))) : null;
  const p = x.point.path, e = x.embodied.path;
  const length = polylineLength(p);
  const straight = Math.hypot(p[p.length - 1]![0] - p[0]![0], p[p.length - 1]![1] - p[0]![1]);
  const clear = clearanceFacts(e, x.embodiedMargins);
  const decisions = Math.max(0, x.point.keys.length - 2);
  return {
    resolution: resolutionOf(x.cueType),
    cohort: same.length + 1,
    familyCohort: x.shown.filter((s) => s.object.id === x.target.object.id || family(s.object.category) === targetFamily).length,
    runnerUpGapM: gap,
    pointLengthM: round4(length),
    detourRatio: round4(straight > 1e-6 ? length / straight : 1),
    turns: turnsOf(p),
    decisions,
    embodiedMinMarginM: clear.min,
    embodiedGoalMarginM: clear.goal,
    narrowFraction: clear.narrow,
    extraLengthM: round4(polylineLength(e) - length),
    extraDecisions: Math.max(0, x.embodied.keys.length - 2) - decisions,
    overlap: pathOverlap(p, e),
  };
}

/** How hard it is to tell which object is meant. */
export function referenceLevel(f: RouteFacts): Level {
  if (f.resolution === "category_only") return "low";
  if (f.cohort >= 3 || (f.runnerUpGapM !== null && f.runnerUpGapM < 0.4)) return "high";
  return "medium";
}

/** How much route composition the point path asks for. */
export function geometryLevel(f: RouteFacts): Level {
  if ((f.turns >= 2 && f.decisions >= 1) || (f.pointLengthM > 3.5 && f.detourRatio > 1.05 && f.turns >= 1)) return "high";
  if (f.pointLengthM <= 3 && f.detourRatio <= 1.08 && f.turns === 0 && f.decisions === 0) return "low";
  return "medium";
}

/** How much the body changes the route: tight clearances together with a different route are high. */
export function embodimentLevel(f: RouteFacts): Level {
  const differs = f.overlap < 0.5 || f.extraLengthM > 0.6 || f.extraDecisions >= 1;
  const tight = f.embodiedMinMarginM < 0.05 || f.embodiedGoalMarginM < 0.05 || f.narrowFraction > 0.35;
  if (differs && tight) return "high";
  if (f.embodiedMinMarginM >= 0.07 && f.embodiedGoalMarginM >= 0.07 && f.narrowFraction <= 0.12 && f.extraLengthM <= 0.3 && f.extraDecisions <= 0 && f.overlap >= 0.9) return "low";
  return "medium";
}

export interface RouteAxes { reference: Level; geometry: Level; embodiment: Level }

export const routeAxes = (f: RouteFacts): RouteAxes => ({ reference: referenceLevel(f), geometry: geometryLevel(f), embodiment: embodimentLevel(f) });

/**
 * Why a route bundle is not a challenge candidate (empty: eligible). The target must compete with
 * others (reference high: three or more of its category in view, or one at nearly its distance):
 * the paper selects for competing targets and its routes have a median of four same-family objects
 * in view (§3 "Benchmark Selection and Release", Table S10); a medium reference left the median at 2.
 */
export function routeRejections(f: RouteFacts, a: RouteAxes): string[] {
  const out: string[] = [];
  if (f.resolution === "category_only") out.push("reference_category_only");
  else if (a.reference !== "high") out.push("reference_not_high");
  if (a.geometry === "low") out.push("geometry_low");
  return out;
}

// ---------------------------------------------------------------------------------------------
// Ranking and the kept set

/** Route hardness, compared in order: geometry dominates, then reference, then embodiment, then the point path's length. */
export function routeHardness(f: RouteFacts, a: RouteAxes): number[] {
  return [RANK[a.geometry], RANK[a.reference], RANK[a.embodiment], f.decisions, f.pointLengthM];
}

/** View hardness: both high first, then the sum of boundary and gap levels, then the disagreement share. */
export function viewHardness(f: ViewFacts, a: ViewAxes): number[] {
  return [a.boundary === "high" && a.gap === "high" ? 1 : 0, RANK[a.boundary] + RANK[a.gap], f.disagreement, f.nearEmbodiedBoundary];
}

/** Descending comparison of hardness vectors, then ascending by key (a stable, seed-free order). */
export function byHardness<T extends { hardness: number[]; key: string }>(a: T, b: T): number {
  for (let k = 0; k < Math.max(a.hardness.length, b.hardness.length); k++) {
    const d = (b.hardness[k] ?? 0) - (a.hardness[k] ?? 0);
    if (d !== 0) return d;
  }
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** The bundle fields a question row carries (its ground truth's `challenge` block). */
export interface ChallengeBlock {
  bundle: "view" | "route";
  facts: ViewFacts | RouteFacts;
  axes: ViewAxes | RouteAxes;
  rejections: string[];
  hardness: number[];
}

export function viewChallenge(f: ViewFacts): ChallengeBlock {
  const axes = viewAxes(f);
  return { bundle: "view", facts: f, axes, rejections: viewRejections(axes), hardness: viewHardness(f, axes) };
}

export function routeChallenge(f: RouteFacts): ChallengeBlock {
  const axes = routeAxes(f);
  return { bundle: "route", facts: f, axes, rejections: routeRejections(f, axes), hardness: routeHardness(f, axes) };
}

/** The minimal row shape selection reads. */
export interface SelectableRow {
  question_id: string;
  task: TaskCode;
  scene_id: string;
  view_id: number;
  routing_id?: string;
  ground_truth: Record<string, unknown>;
}

export const bundleKey = (r: SelectableRow): string => (r.task === "a1" || r.task === "b1" ? `${r.scene_id}::v${r.view_id}` : `${r.scene_id}::v${r.view_id}::${r.routing_id}`);

/** Paper Table 1: route bundles (309) per view bundle (146). */
export const PAPER_VIEW_PER_ROUTE_BUNDLE = 146 / 309;

export interface SelectionReport {
  bundles: { view: number; route: number };
  /** Bundles each rule removed (a bundle may fail several rules), and those eligible but past the quota. */
  removed: { view: Record<string, number>; route: Record<string, number> };
  kept: { view: number; route: number };
  /** Bundles missing a required task, dropped whole (a2 without b2, a1 without b1). */
  incomplete: number;
}

export interface SelectionOptions {
  /** False: every complete bundle is kept (the facts and the report are still made). */
  select: boolean;
  /** Largest share of kept route bundles whose a2 (or b2) reference is a single edge. */
  oneEdgeCap: { a2: number; b2: number };
  /** Route bundles kept per view at most (spreads the benchmark over views; the paper has 309 routes on 365 views). */
  routesPerView: number;
  /** View bundles kept per kept route bundle at most. */
  viewPerRoute: number;
}

/**
 * The paper's one-edge shares of the reference routes (Table S12: a2 250/309, b2 135/309). Our
 * rooms are more open than scanned ones: before selection 95% of a2 references are one edge, and
 * ranking by geometry alone left 87%, so the selection holds the shares at the paper's.
 */
export const PAPER_ONE_EDGE_SHARE = { a2: 250 / 309, b2: 135 / 309 };

export const DEFAULT_SELECTION: SelectionOptions = { select: true, oneEdgeCap: PAPER_ONE_EDGE_SHARE, routesPerView: 2, viewPerRoute: PAPER_VIEW_PER_ROUTE_BUNDLE };
export const NO_SELECTION: SelectionOptions = { select: false, oneEdgeCap: { a2: 1, b2: 1 }, routesPerView: Infinity, viewPerRoute: Infinity };

interface RankedRoute { key: string; hardness: number[]; view: string; oneEdge: { a2: boolean; b2: boolean } }

/**
 * The kept route bundles (hardest first) without the least hard ones whose reference is one edge,
 * until one-edge references are at most `cap` of each task: with m multi-edge bundles, at most
 * floor(m x cap / (1 - cap)) one-edge ones stay. A bundle dropped for b2 may be multi-edge in
 * a2, so the two caps are applied until both hold.
 */
export function capOneEdge(kept: readonly RankedRoute[], cap: { a2: number; b2: number }): { kept: RankedRoute[]; dropped: number } {
  let out = kept.slice();
  for (let changed = true; changed; ) {
    changed = false;
    for (const task of ["a2", "b2"] as const) {
      if (cap[task] >= 1) continue;
      const multi = out.filter((b) => !b.oneEdge[task]).length;
      const allowed = Math.floor((multi * cap[task]) / (1 - cap[task]) + 1e-9);
      let excess = out.length - multi - allowed;
      if (excess <= 0) continue;
      const drop = new Set<string>();
      for (let k = out.length - 1; k >= 0 && excess > 0; k--) {
        if (out[k]!.oneEdge[task]) { drop.add(out[k]!.key); excess--; }
      }
      out = out.filter((b) => !drop.has(b.key));
      changed = true;
    }
  }
  return { kept: out, dropped: kept.length - out.length };
}

/**
 * The challenge subset of one split's rows, whole bundles only: eligible route bundles by
 * hardness (at most `routesPerView` of a view, one-edge references at most `oneEdgeCap`), then
 * eligible view bundles by hardness up to `viewPerRoute` x the route bundles kept. Rows keep
 * their order.
 */
export function selectChallenge<R extends SelectableRow>(rows: Record<TaskCode, R[]>, opts: SelectionOptions = DEFAULT_SELECTION): { rows: Record<TaskCode, R[]>; report: SelectionReport } {
  const groups = new Map<string, { key: string; kind: "view" | "route"; tasks: Set<TaskCode>; block: ChallengeBlock; view: string; oneEdge: { a2: boolean; b2: boolean } }>();
  for (const task of ["a1", "b1", "a2", "b2", "c"] as const) {
    for (const r of rows[task]) {
      const key = bundleKey(r);
      const block = r.ground_truth["challenge"] as ChallengeBlock | undefined;
      if (!block) throw new Error(`selectChallenge: ${r.question_id} has no challenge facts`);
      const g = groups.get(key) ?? { key, kind: block.bundle, tasks: new Set<TaskCode>(), block, view: `${r.scene_id}::v${r.view_id}`, oneEdge: { a2: false, b2: false } };
      g.tasks.add(task);
      if (task === "a2" || task === "b2") g.oneEdge[task] = (r.ground_truth["answer"] as unknown[]).length === 2;
      groups.set(key, g);
    }
  }
  const report: SelectionReport = { bundles: { view: 0, route: 0 }, removed: { view: {}, route: {} }, kept: { view: 0, route: 0 }, incomplete: 0 };
  const count = (kind: "view" | "route", why: string) => (report.removed[kind][why] = (report.removed[kind][why] ?? 0) + 1);
  const eligible = { view: [] as Array<{ key: string; hardness: number[]; view: string }>, route: [] as RankedRoute[] };
  for (const g of groups.values()) {
    report.bundles[g.kind]++;
    const complete = g.kind === "view" ? g.tasks.has("a1") && g.tasks.has("b1") : g.tasks.has("a2") && g.tasks.has("b2");
    if (!complete) { report.incomplete++; continue; }
    const rejections = opts.select ? g.block.rejections : [];
    for (const why of rejections) count(g.kind, why);
    if (rejections.length === 0) eligible[g.kind].push({ key: g.key, hardness: g.block.hardness, view: g.view, oneEdge: g.oneEdge });
  }
  const perView = new Map<string, number>();
  const ranked: RankedRoute[] = [];
  for (const b of eligible.route.sort(byHardness)) {
    const n = perView.get(b.view) ?? 0;
    if (n >= opts.routesPerView) { count("route", "view_route_cap"); continue; }
    perView.set(b.view, n + 1);
    ranked.push(b);
  }
  const capped = capOneEdge(ranked, opts.oneEdgeCap);
  for (let k = 0; k < capped.dropped; k++) count("route", "one_edge_share");
  const kept = new Set(capped.kept.map((b) => b.key));
  report.kept.route = kept.size;
  const viewQuota = opts.select ? Math.max(1, Math.round(report.kept.route * opts.viewPerRoute)) : Infinity;
  for (const b of eligible.view.sort(byHardness)) {
    if (report.kept.view >= viewQuota) { count("view", "past_quota"); continue; }
    kept.add(b.key);
    report.kept.view++;
  }
  const out = Object.fromEntries((["a1", "b1", "a2", "b2", "c"] as const).map((t) => [t, rows[t].filter((r) => kept.has(bundleKey(r)))])) as Record<TaskCode, R[]>;
  return { rows: out, report };
}
