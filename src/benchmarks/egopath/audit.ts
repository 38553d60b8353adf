/**
 * EgoPathBench's part of `spatialprobe audit` (issue 26): can its questions be answered without
 * the route reasoning they name?
 *
 * - a1/b1 (which displayed points are traversable): a `subset` answer, one candidate per marker,
 *   label 1 when the point is in walkable_ids. Non-visual features: the marker's number and its
 *   rank among the numbers (the release numbers markers nearest first, so the number is a depth
 *   rank a blind model knows). Cues: the marker's isolation and crowding, its height in the
 *   picture, and the picture's colour in a ring around it.
 * - a2/b2/c (an ordered route of marker numbers): a `choice` among label-free routes, the one-hop
 *   route from the start to each other displayed marker (what a model that cannot see the legal
 *   steps may answer); label 1 when that route succeeds under the evaluator's rules (SR). A
 *   question whose reference needs more than one step has no right candidate; this list is the
 *   blind ceiling of one-hop guessing, not of every route.
 *
 * The visible-waypoints files also hold the construction's own labels (walkable, feasible,
 * source): none is read here; only marker numbers and pixel positions, which the picture shows.
 */
import { realpathSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { AuditUnit, BenchmarkAudit, BlindRule, Candidate, Headline, Legibility } from "../../audit/types.js";
import type { ScoresDocument } from "../../core/benchmark.js";
import { DataRoot } from "../../core/dataroot.js";
import { readImageFileAsync, readRegularFileAsync } from "../../core/file-read.js";
import { pyStr } from "../../core/pycompat/keys.js";
import { imageDimensions } from "../../media/dimensions.js";
import { decodeRgb } from "../../media/png.js";
import { createRng, seedFromString } from "../../stats/rng.js";
import {
  labelCoverage, layoutCues, medianColour, pictureMarks, ringColour, UNREADABLE_COVERAGE, toReleasePx,
  type PlacedMarker, type RingColour,
} from "./audit-marks.js";
import { promptTexts } from "./prompt.js";
import { scoreRouteItem } from "./score.js";
import { isRouteTask, resolveTask, taskInfo, TASK_CODES } from "./tasks.js";
import type { EgoPathItem, RouteItem, SetItem } from "./types.js";
import { graphFileCandidates, sceneDirOf } from "./waypoint-graph.js";
import { allCandidates } from "../../audit/units.js";

/** A reply in the official runner's output contract (what the built-in models send). */
export const idsReply = (ids: readonly bigint[]): string => JSON.stringify({ display_ids: ids.map(Number) });

// ------------------------------------------------------------------ text and item features

/** The prompt's text parts as the release prompts send them (no picture read). */
function promptText(item: EgoPathItem): string {
  const { system, user } = promptTexts(item, { source: "release", control: "none" });
  return `${system}\n${user}`;
}

/** Side named in a request ("leftmost", "farthest to the right"): −1 left, +1 right, 0 none. */
export function sideWord(text: string): number {
  const t = text.toLowerCase();
  const left = /\bleft(most)?\b/.test(t), right = /\bright(most)?\b/.test(t);
  return left === right ? 0 : right ? 1 : -1;
}

/** Depth named in a request: −1 nearest/closest, +1 farthest (not "farthest to the left/right"), 0 none. */
export function depthWord(text: string): number {
  const t = text.toLowerCase().replace(/farthest to the (left|right)/g, "");
  const near = /\b(nearest|closest)\b/.test(t), far = /\b(farthest|furthest)\b/.test(t);
  return near === far ? 0 : far ? 1 : -1;
}

/** Integers written in the prompt, each with the order of its first mention. */
function mentionOrder(text: string): Map<string, number> {
  const order = new Map<string, number>();
  for (const match of text.matchAll(/(?<![\d.])\d+(?![\d.])/g)) if (!order.has(match[0])) order.set(match[0], order.size);
  return order;
}

function itemFeatures(item: EgoPathItem, text: string): Record<string, number> {
  const ids = item.kind === "set" ? item.candidates : item.displayed;
  const size = /(\d+(?:\.\d+)?)\s*m\b/.exec(item.userPrompt);
  return {
    task_variant: TASK_CODES.indexOf(item.task),
    markers: ids.length,
    max_id: ids.reduce((m, id) => Math.max(m, Number(id)), 0),
    prompt_words: text.split(/\s+/).filter(Boolean).length,
    prompt_numbers: [...text.matchAll(/\d+(?:\.\d+)?/g)].length,
    stated_size_m: size ? Number(size[1]) : -1,
    side_word: sideWord(item.userPrompt),
    depth_word: depthWord(item.userPrompt),
    ...(item.kind === "route" ? { start_id: Number(item.startId) } : {}),
  };
}

// ------------------------------------------------------------------ picture cues

/** What the picture shows of each marker, keyed by display id. */
interface MarkerCues {
  perMarker: Map<number, Record<string, number>>;
  positions: Map<number, PlacedMarker>;
  item: Record<string, number>;
}

function placedMarkers(item: EgoPathItem): PlacedMarker[] {
  return item.waypoints.flatMap((w) => (w.imageXY ? [{ id: w.displayId, x: w.imageXY[0], y: w.imageXY[1], ...(w.labelXY ? { label: { x: w.labelXY[0], y: w.labelXY[1] } } : {}) }] : []));
}

/** Cues of one picture (decoded once, through the dataset root). */
async function pictureCues(root: DataRoot, item: EgoPathItem): Promise<MarkerCues | undefined> {
  const image = root.resolve(item.imageRef, "image");
  if (!image.ok) return undefined;
  const { data, width, height } = await decodeRgb(await readImageFileAsync(image.path));
  const markers = placedMarkers(item);
  const layout = layoutCues(markers, width, height);
  const marks = pictureMarks(markers, width);
  const rings = markers.map((_, i) => ringColour(data, width, height, markers, i, marks));
  const [mr, mg, mb] = medianColour(rings);
  const perMarker = new Map<number, Record<string, number>>();
  markers.forEach((m, i) => {
    const ring: RingColour = rings[i]!;
    perMarker.set(m.id, {
      ...layout[i]!,
      ring_r: ring.r, ring_g: ring.g, ring_b: ring.b, ring_brightness: ring.brightness, ring_texture: ring.texture,
      // How far the colour around this marker is from the picture's typical marker surrounding.
      ring_vs_picture: ring.pixels === 0 ? 0 : Math.hypot(ring.r - mr, ring.g - mg, ring.b - mb),
    });
  });
  const nearest = layout.map((l) => l.nearest_px);
  return {
    perMarker,
    positions: new Map(markers.map((m) => [m.id, m])),
    item: {
      picture_markers: markers.length,
      mean_nearest_px: nearest.length ? nearest.reduce((s, v) => s + v, 0) / nearest.length : 0,
      crowded_share: nearest.length ? nearest.filter((d) => d < 24).length / nearest.length : 0,
      picture_width: width,
    },
  };
}

// ------------------------------------------------------------------ units

function setUnit(item: SetItem, text: string, features: Record<string, number>, cues?: MarkerCues): AuditUnit {
  const positives = new Set(item.positives);
  const mentions = mentionOrder(item.userPrompt);
  const n = item.candidates.length;
  const candidates: Candidate[] = item.candidates.map((id, k) => ({
    reply: idsReply([id]),
    label: positives.has(id) ? 1 : 0,
    features: { id: Number(id), rank: n > 1 ? k / (n - 1) : 0, mention: mentions.get(String(id)) ?? -1 },
    ...(cues ? { cues: cues.perMarker.get(Number(id)) ?? {} } : {}),
  }));
  const share = n === 0 ? 0 : item.candidates.filter((id) => positives.has(id)).length / n;
  return {
    id: item.id, task: item.task, cluster: item.cluster, text, features,
    ...(cues ? { cues: cues.item } : {}),
    answer: { kind: "subset", candidates, reply: (chosen) => idsReply(chosen.map((i) => item.candidates[i]!)) },
    answerClass: `walkable ${Math.round(share * 10) * 10}%`,
  };
}

/** The label-free routes offered for a route question: start, then one other displayed marker. */
export function oneHopTargets(item: RouteItem): bigint[] {
  return item.displayed.filter((id) => id !== item.startId);
}

function routeUnit(item: RouteItem, text: string, features: Record<string, number>, cues?: MarkerCues): AuditUnit {
  const targets = oneHopTargets(item);
  const mentions = mentionOrder(item.userPrompt);
  const side = sideWord(item.userPrompt), depth = depthWord(item.userPrompt);
  const start = cues?.positions.get(Number(item.startId));
  const width = cues?.item["picture_width"] ?? 1;
  const candidates: Candidate[] = targets.map((id, k) => {
    const route = [item.startId, id];
    const own = cues?.perMarker.get(Number(id));
    const at = cues?.positions.get(Number(id));
    return {
      reply: idsReply(route),
      label: scoreRouteItem(item, route).success ? 1 : 0,
      features: { id: Number(id), rank: targets.length > 1 ? k / (targets.length - 1) : 0, after_start: Number(id - item.startId), mention: mentions.get(String(id)) ?? -1 },
      ...(cues
        ? {
            cues: own && at && start
              ? {
                  ...own,
                  from_start_px: toReleasePx(Math.hypot(at.x - start.x, at.y - start.y), width),
                  dx_start_px: toReleasePx(at.x - start.x, width),
                  dy_start_px: toReleasePx(at.y - start.y, width),
                  // The named side or depth, signed so that larger means "more as asked".
                  side_x: side * (own["x"]! - 0.5),
                  depth_y: depth * (0.5 - own["y"]!),
                }
              : {},
          }
        : {}),
    };
  });
  const edges = Math.max(0, item.referenceRoute.length - 1);
  return {
    id: item.id, task: item.task, cluster: item.cluster, text, features,
    ...(cues ? { cues: cues.item } : {}),
    answer: { kind: "choice", candidates },
    answerClass: edges >= 3 ? "reference 3+ edges" : `reference ${edges} edge${edges === 1 ? "" : "s"}`,
  };
}

async function units(items: EgoPathItem[], options: { root: string; cues: boolean }): Promise<AuditUnit[]> {
  const root = new DataRoot(options.root);
  // Route questions of one view share a picture: each is decoded once.
  const pictures = new Map<string, Promise<MarkerCues | undefined>>();
  const out: AuditUnit[] = [];
  for (const item of items) {
    const text = promptText(item);
    const features = itemFeatures(item, text);
    let cues: MarkerCues | undefined;
    if (options.cues) {
      const key = `${item.imageRef}\0${item.waypoints.length}\0${item.source.file}`;
      if (!pictures.has(key)) pictures.set(key, pictureCues(root, item));
      cues = await pictures.get(key);
    }
    out.push(item.kind === "set" ? setUnit(item, text, features, cues) : routeUnit(item, text, features, cues));
  }
  return out;
}

// ------------------------------------------------------------------ fitting helpers for rules

interface Labelled {
  value: number;
  label: number;
}

/**
 * The threshold and direction that maximise balanced accuracy when candidates with
 * direction·value ≥ threshold are chosen (pooled over the training candidates).
 */
export function bestThreshold(rows: readonly Labelled[]): { threshold: number; direction: 1 | -1; ba: number } {
  const positives = rows.filter((r) => r.label >= 0.5).length;
  const negatives = rows.length - positives;
  let best = { threshold: Infinity, direction: 1 as 1 | -1, ba: 0.5 };
  if (positives === 0 || negatives === 0) return best;
  for (const direction of [1, -1] as const) {
    const sorted = rows.map((r) => ({ v: direction * r.value, y: r.label >= 0.5 })).sort((a, b) => b.v - a.v);
    let tp = 0, fp = 0;
    for (let i = 0; i < sorted.length; i++) {
      if (sorted[i]!.y) tp++;
      else fp++;
      if (i + 1 < sorted.length && sorted[i + 1]!.v === sorted[i]!.v) continue;
      const ba = (tp / positives + (negatives - fp) / negatives) / 2;
      if (ba > best.ba + 1e-12) best = { threshold: sorted[i]!.v, direction, ba };
    }
  }
  return best;
}

/** Rows a fitted rule learns from, at most this many (an even stride over the training candidates). */
const MAX_FIT_ROWS = 20_000;

function strided<T>(rows: readonly T[], cap = MAX_FIT_ROWS): T[] {
  if (rows.length <= cap) return rows.slice();
  const step = rows.length / cap;
  return Array.from({ length: cap }, (_, i) => rows[Math.floor(i * step)]!);
}

/**
 * A class-balanced logistic regression on standardised features (full-batch gradient descent,
 * fixed steps, deterministic); returns a scorer.
 */
export function fitLogistic(x: readonly number[][], y: readonly number[], steps = 300, rate = 0.5, l2 = 1e-3): (row: readonly number[]) => number {
  const d = x[0]?.length ?? 0;
  const mean = new Array<number>(d).fill(0), sd = new Array<number>(d).fill(0);
  for (const row of x) row.forEach((v, j) => (mean[j]! += v / x.length));
  for (const row of x) row.forEach((v, j) => (sd[j]! += (v - mean[j]!) ** 2 / x.length));
  const scale = sd.map((v) => (v > 1e-12 ? Math.sqrt(v) : 1));
  const z = x.map((row) => row.map((v, j) => (v - mean[j]!) / scale[j]!));
  const pos = y.filter((v) => v >= 0.5).length, neg = y.length - pos;
  const weight = y.map((v) => (v >= 0.5 ? 0.5 / Math.max(pos, 1) : 0.5 / Math.max(neg, 1)));
  const w = new Array<number>(d).fill(0);
  let b = 0;
  for (let step = 0; step < steps && pos > 0 && neg > 0; step++) {
    const gw = new Array<number>(d).fill(0);
    let gb = 0;
    z.forEach((row, i) => {
      const p = 1 / (1 + Math.exp(-(row.reduce((s, v, j) => s + v * w[j]!, b))));
      const g = weight[i]! * (p - (y[i]! >= 0.5 ? 1 : 0));
      row.forEach((v, j) => (gw[j]! += g * v));
      gb += g;
    });
    w.forEach((_, j) => (w[j]! -= rate * (gw[j]! + l2 * w[j]!)));
    b -= rate * gb;
  }
  return (row) => row.reduce((s, v, j) => s + ((v - mean[j]!) / scale[j]!) * w[j]!, b);
}

const subsetReply = (unit: AuditUnit, chosen: number[]): string => (unit.answer.kind === "subset" ? unit.answer.reply(chosen) : "");
const choiceReply = (unit: AuditUnit, index: number): string => allCandidates(unit)[index]?.reply ?? "";

/** The index of the largest score (first on ties), or −1 for an empty list. */
function argMax(scores: readonly number[]): number {
  let best = -1;
  scores.forEach((s, i) => {
    if (best < 0 || s > scores[best]!) best = i;
  });
  return best;
}

const SET_TASKS = ["a1", "b1"] as const;
const ROUTE_TASKS = ["a2", "b2", "c"] as const;

// ------------------------------------------------------------------ blind rules

/** Depth-rank buckets of the per-marker prior. */
const PRIOR_BUCKETS = 10;
const bucketOf = (rank: number) => Math.min(PRIOR_BUCKETS - 1, Math.floor(rank * PRIOR_BUCKETS));

/**
 * Per-marker prior: markers are numbered nearest first, so a marker's rank among the numbers is
 * its depth rank. A rank bucket is chosen when its share of the training positives exceeds its
 * share of the training negatives (the choice that maximises pooled balanced accuracy).
 */
const depthPrior: BlindRule = {
  name: "walkable by depth rank",
  describe: "chooses the markers whose rank among the numbers (nearest first) fell in a bucket richer in walkable points on the other folds",
  tasks: SET_TASKS,
  fit(train) {
    const pos = new Array<number>(PRIOR_BUCKETS).fill(0), neg = new Array<number>(PRIOR_BUCKETS).fill(0);
    for (const unit of train) for (const c of allCandidates(unit)) (c.label >= 0.5 ? pos : neg)[bucketOf(c.features["rank"] ?? 0)]!++;
    const P = pos.reduce((s, v) => s + v, 0), N = neg.reduce((s, v) => s + v, 0);
    const chosen = pos.map((p, k) => P > 0 && N > 0 && p / P > neg[k]! / N);
    return (unit) => subsetReply(unit, allCandidates(unit).flatMap((c, i) => (chosen[bucketOf(c.features["rank"] ?? 0)] ? [i] : [])));
  },
};

const randomHalf: BlindRule = {
  name: "random half",
  describe: "each marker with probability 1/2 (seeded by the question id): the chance reference, BA 0.5 in expectation",
  tasks: SET_TASKS,
  fit: () => (unit) => {
    const rng = createRng(seedFromString(unit.id, 26));
    return subsetReply(unit, allCandidates(unit).flatMap((_, i) => (rng.next() < 0.5 ? [i] : [])));
  },
};

const randomOneHop: BlindRule = {
  name: "random one-hop route",
  describe: "the start, then one other displayed marker drawn uniformly (seeded by the question id); reads no legal step or goal",
  tasks: ROUTE_TASKS,
  fit: () => (unit) => {
    const n = allCandidates(unit).length;
    return n === 0 ? "" : choiceReply(unit, createRng(seedFromString(unit.id, 26)).below(n));
  },
};

/** The depth rank (among the one-hop targets) of the right targets on the training folds: their median. */
const typicalGoalRank: BlindRule = {
  name: "one-hop to the typical goal rank",
  describe: "the start, then the marker whose number rank (nearest first) is closest to the median rank of right one-hop goals on the other folds",
  tasks: ROUTE_TASKS,
  fit(train) {
    const ranks = train.flatMap((u) => allCandidates(u).flatMap((c) => (c.label >= 0.5 ? [c.features["rank"] ?? 0] : []))).sort((a, b) => a - b);
    const target = ranks.length === 0 ? 1 : ranks[ranks.length >> 1]!;
    return (unit) => choiceReply(unit, argMax(allCandidates(unit).map((c) => -Math.abs((c.features["rank"] ?? 0) - target))));
  },
};

// ------------------------------------------------------------------ cue rules

/** A set rule that chooses markers by one cue, with the threshold and direction best on the training folds. */
function cueThresholdRule(name: string, cue: string, describe: string): BlindRule {
  return {
    name, describe, tasks: SET_TASKS, cue: true,
    fit(train) {
      const rows = strided(train.flatMap((u) => allCandidates(u).filter((c) => c.cues?.[cue] !== undefined).map((c) => ({ value: c.cues![cue]!, label: c.label }))));
      const { threshold, direction } = bestThreshold(rows);
      return (unit) => subsetReply(unit, allCandidates(unit).flatMap((c, i) => {
        const v = c.cues?.[cue];
        return v !== undefined && direction * v >= threshold ? [i] : [];
      }));
    },
  };
}

/** The cues the combined rules weigh: isolation, crowding, height in the picture and the colour around the marker. */
const SET_CUES = ["nearest_px", "within_32", "within_64", "y", "ring_r", "ring_g", "ring_b", "ring_brightness", "ring_texture", "ring_vs_picture"];
const ROUTE_CUES = ["x", "y", "nearest_px", "within_32", "from_start_px", "dx_start_px", "dy_start_px", "side_x", "depth_y", "ring_brightness", "ring_vs_picture"];

const cueRow = (c: Candidate, names: readonly string[]) => names.map((k) => c.cues?.[k] ?? 0);
const hasCues = (c: Candidate) => c.cues !== undefined && Object.keys(c.cues).length > 0;

/** Issue 26's "marker isolation plus floor colour": a logistic score of the layout and colour cues, cut where the training BA is best. */
const isolationAndColour: BlindRule = {
  name: "isolation + floor colour",
  describe: "a logistic score of marker isolation, crowding, height and ring colour fitted on the other folds, thresholded for the best training BA",
  tasks: SET_TASKS,
  cue: true,
  fit(train) {
    const rows = strided(train.flatMap((u) => allCandidates(u).filter(hasCues)));
    const score = fitLogistic(rows.map((c) => cueRow(c, SET_CUES)), rows.map((c) => c.label));
    const { threshold } = bestThreshold(rows.map((c) => ({ value: score(cueRow(c, SET_CUES)), label: c.label })));
    return (unit) => subsetReply(unit, allCandidates(unit).flatMap((c, i) => (hasCues(c) && score(cueRow(c, SET_CUES)) >= threshold ? [i] : [])));
  },
};

/** Route tasks: the one-hop route to the marker a logistic score of its position (and the named side) likes best. */
const oneHopByPosition: BlindRule = {
  name: "one-hop by marker position",
  describe: "the start, then the marker ranked highest by a logistic score of its picture position, distance from the start and the side or depth the request names, fitted on the other folds",
  tasks: ROUTE_TASKS,
  cue: true,
  fit(train) {
    const rows = strided(train.flatMap((u) => allCandidates(u).filter(hasCues)));
    const score = fitLogistic(rows.map((c) => cueRow(c, ROUTE_CUES)), rows.map((c) => c.label));
    return (unit) => choiceReply(unit, argMax(allCandidates(unit).map((c) => (hasCues(c) ? score(cueRow(c, ROUTE_CUES)) : -Infinity))));
  },
};

/** Route tasks, no fitting: with a side named, the marker farthest to that side; else the one highest in the picture (farthest). */
const oneHopToNamedSide: BlindRule = {
  name: "one-hop to the named side",
  describe: "the start, then the marker farthest to the side the request names (left/right), or the one highest in the picture when none is named",
  tasks: ROUTE_TASKS,
  cue: true,
  fit: () => (unit) => {
    const side = unit.features["side_word"] ?? 0;
    return choiceReply(unit, argMax(allCandidates(unit).map((c) => (!hasCues(c) ? -Infinity : side !== 0 ? side * c.cues!["x"]! : -c.cues!["y"]!))));
  },
};

const rules: BlindRule[] = [
  depthPrior,
  randomHalf,
  randomOneHop,
  typicalGoalRank,
  cueThresholdRule("isolated markers", "nearest_px", "chooses markers by their distance to the nearest other marker, threshold and direction fitted on the other folds"),
  cueThresholdRule("markers low in the picture", "y", "chooses markers by their height in the picture (low = near), threshold and direction fitted on the other folds"),
  cueThresholdRule("floor-coloured markers", "ring_vs_picture", "chooses markers whose surrounding colour is near (or far from) the picture's typical marker surrounding, threshold fitted on the other folds"),
  isolationAndColour,
  oneHopByPosition,
  oneHopToNamedSide,
];

// ------------------------------------------------------------------ credit, headline, chance

/** a1/b1: the share of markers judged right (1 = the exact walkable set); routes: 1 on success (SR). */
function credit(_item: EgoPathItem, detail: Record<string, unknown>): number {
  if (detail["kind"] === "route") return detail["success"] === true ? 1 : 0;
  const n = (k: string) => (typeof detail[k] === "number" ? (detail[k] as number) : 0);
  const all = n("tp") + n("fp") + n("fn") + n("tn");
  return all === 0 ? 1 : (n("tp") + n("tn")) / all;
}

type Summary = Omit<ScoresDocument, "benchmark" | "model">;

/** BA for a1/b1 and SR for routes (paper Table 2); "score" or "overall" gives the EgoPath Score. */
function headline(summary: Summary, task: string): Headline {
  if (task === "score" || task === "overall") {
    const ci = summary["score_ci"];
    const score = summary["score"];
    return { metric: "EgoPath Score", score: typeof score === "number" ? score : null, ci: Array.isArray(ci) ? (ci as [number, number]) : null };
  }
  const code = resolveTask(task);
  if (!code) return { metric: "score", score: null, ci: null };
  const metric = isRouteTask(code) ? "SR" : "BA";
  const tasks = summary["tasks"] as Record<string, Record<string, unknown>> | undefined;
  const entry = tasks?.[taskInfo(code).name];
  if (!entry || !(typeof entry["n"] === "number" && entry["n"] > 0)) return { metric, score: null, ci: null };
  const intervals = entry["ci"] as Record<string, [number, number]> | undefined;
  return { metric, score: entry[metric] as number, ci: intervals?.[metric] ?? null };
}

/**
 * a1/b1: 0.5 BA, exactly, for any answer drawn without the labels (recall p and TNR 1 − p in
 * expectation when each marker is chosen with probability p), when the task has both walkable and
 * blocked markers. Routes: the expected SR of a uniformly drawn one-hop route (start, then any
 * other displayed marker), the label-free route guess: the mean over questions of the share of
 * one-hop routes that succeed.
 */
function chance(items: EgoPathItem[], task: string): number | null {
  const code = resolveTask(task);
  if (!code) return null;
  const own = items.filter((i) => i.task === code);
  if (own.length === 0) return null;
  if (!isRouteTask(code)) {
    const sets = own as SetItem[];
    const walkable = sets.reduce((s, i) => s + new Set(i.positives.filter((id) => i.candidates.includes(id))).size, 0);
    const blocked = sets.reduce((s, i) => s + i.candidates.filter((id) => !i.positives.includes(id)).length, 0);
    return walkable > 0 && blocked > 0 ? 0.5 : null;
  }
  let total = 0;
  for (const item of own as RouteItem[]) {
    const targets = oneHopTargets(item);
    if (targets.length === 0) continue;
    total += targets.filter((id) => scoreRouteItem(item, [item.startId, id]).success).length / targets.length;
  }
  return total / own.length;
}

// ------------------------------------------------------------------ legibility

/**
 * Per task: the share of drawn labels covered at least 25% by later marks or the border, and the
 * questions that cannot be answered right by reading: a1/b1 when some walkable marker's label is
 * covered (it cannot be listed); routes when every acceptable goal's label is covered.
 */
async function legibility(items: EgoPathItem[], options: { root: string }): Promise<Record<string, Legibility>> {
  const root = new DataRoot(options.root);
  const coverageCache = new Map<string, Map<number, number> | undefined>();
  const out: Record<string, Legibility> = {};
  for (const item of items) {
    const key = `${item.imageRef}\0${item.source.file}`;
    if (!coverageCache.has(key)) coverageCache.set(key, pictureCoverage(root, item));
    const coverage = coverageCache.get(key);
    if (!coverage) continue;
    const entry = (out[item.task] ??= { labels_covered: 0, questions_unreadable: 0, labels: 0, questions: 0, unreadable_ids: [] });
    const covered = [...coverage.values()].filter((c) => c >= UNREADABLE_COVERAGE).length;
    // labels_covered holds the count until the end.
    entry.labels_covered += covered;
    entry.labels += coverage.size;
    entry.questions++;
    const unreadable = (id: bigint) => (coverage.get(Number(id)) ?? 1) >= UNREADABLE_COVERAGE;
    const lost = item.kind === "set" ? item.positives.some(unreadable) : item.acceptableGoals.length > 0 && item.acceptableGoals.every(unreadable);
    if (lost) {
      entry.questions_unreadable++;
      entry.unreadable_ids.push(item.id);
    }
  }
  for (const entry of Object.values(out)) {
    entry.labels_covered = entry.labels === 0 ? 0 : entry.labels_covered / entry.labels;
    entry.questions_unreadable = entry.questions === 0 ? 0 : entry.questions_unreadable / entry.questions;
  }
  return out;
}

/** Display id -> share of its label covered, for one item's picture (undefined when the picture cannot be read). */
function pictureCoverage(root: DataRoot, item: EgoPathItem): Map<number, number> | undefined {
  const image = root.resolve(item.imageRef, "image");
  if (!image.ok) return undefined;
  const size = imageDimensions(image.path);
  if (!size) return undefined;
  const markers = placedMarkers(item);
  const shares = labelCoverage(markers, size.width, size.height);
  return new Map(markers.map((m, i) => [m.id, shares[i]!]));
}

// ------------------------------------------------------------------ subset writer

/** The gt file beside a vqa file (…/vqa/vqa_next_<t>.jsonl → …/gt/gt_next_<t>.jsonl). */
function gtFileOf(vqaFile: string): string {
  return path.posix.join(path.posix.dirname(path.posix.dirname(vqaFile)), "gt", path.posix.basename(vqaFile).replace(/^vqa_/, "gt_"));
}

/** Lines as the loader numbers them (universal newlines, 1-based). */
const splitLines = (text: string) => text.split(/\r\n|\r|\n/);

/** Python truthiness of a JSON value (the evaluator's `gt.direct_pairs_ref or row.direct_pairs_ref`). */
const truthy = (v: unknown) => !(v == null || v === false || v === 0 || v === "" || (Array.isArray(v) && v.length === 0) || (typeof v === "object" && !Array.isArray(v) && Object.keys(v as object).length === 0));

/**
 * Every file a kept row reads, relative to the root: its picture, its visible-waypoints file, and
 * its direct-pairs sidecar (searched as the loader searches it) or, for rows on the legacy
 * contract, the scene's waypoint graphs.
 */
export function mediaOf(root: DataRoot, item: EgoPathItem, row: Record<string, unknown>): string[] {
  const files: string[] = [];
  // Resolved paths are real paths: relative to the root's real path (the root may be reached through a link).
  const realRoot = realpathSync.native(root.dir);
  const add = (resolved: { ok: true; path: string } | { ok: false }) => {
    if (resolved.ok) files.push(path.relative(realRoot, resolved.path));
  };
  const waypointsRef = typeof row["visible_waypoints_path"] === "string" ? row["visible_waypoints_path"] : undefined;
  add(root.resolve(item.imageRef, "image"));
  if (waypointsRef) add(root.resolve(waypointsRef, "file"));
  if (item.kind !== "route") return files;
  if (item.graph === "waypoint_graph") {
    const scene = sceneDirOf(item.imageRef);
    for (const graph of [...graphFileCandidates(scene, true), ...graphFileCandidates(scene, false)]) add(root.resolve(graph, "file"));
    return files;
  }
  const ref = truthy(item.groundTruth["direct_pairs_ref"]) ? item.groundTruth["direct_pairs_ref"] : row["direct_pairs_ref"];
  if (typeof ref === "string" && ref !== "") {
    const anchors = [
      waypointsRef ? path.dirname(waypointsRef) : undefined,
      item.imageRef ? path.dirname(item.imageRef) : undefined,
      path.dirname(item.source.file),
      path.dirname(path.dirname(item.source.file)),
      ".",
    ].filter((a): a is string => a !== undefined);
    add(path.isAbsolute(ref) ? root.resolve(ref, "file") : root.search(ref, "file", anchors.map((a) => path.resolve(root.dir, a))));
  }
  return files;
}

/**
 * The kept questions as a dataset in the release layout: each vqa file keeps its kept rows
 * byte for byte (others dropped), its gt file the rows of kept ids, and the files those rows
 * read are copied to the same places (plus ATTRIBUTION). Everything is read through the dataset
 * root's checks.
 */
async function writeSubset(rootDir: string, items: EgoPathItem[], keep: ReadonlySet<string>, outDir: string): Promise<void> {
  const root = new DataRoot(rootDir);
  const out = path.resolve(outDir);
  if (out === root.dir) throw new Error("writeSubset: the output folder is the dataset root itself");
  const kept = items.filter((i) => keep.has(i.id));
  const byFile = new Map<string, EgoPathItem[]>();
  for (const item of kept) (byFile.get(item.source.file) ?? byFile.set(item.source.file, []).get(item.source.file)!).push(item);
  const media = new Set<string>();
  const written = new Map<string, string>();
  for (const [file, own] of byFile) {
    const vqa = root.readText(file);
    if (!vqa.ok) throw new Error(vqa.message);
    const lines = splitLines(vqa.text);
    const wanted = new Set(own.map((i) => i.source.line));
    written.set(file, lines.filter((_, k) => wanted.has(k + 1)).map((l) => `${l}\n`).join(""));
    for (const item of own) {
      const row = JSON.parse(lines[item.source.line - 1]!) as Record<string, unknown>;
      for (const m of mediaOf(root, item, row)) media.add(m);
    }
    const ids = new Set(own.map((i) => i.id));
    const gt = root.readText(gtFileOf(file));
    if (gt.ok) {
      const rows = splitLines(gt.text).filter((line) => {
        if (!line.trim()) return false;
        try {
          const qid = (JSON.parse(line) as Record<string, unknown>)["question_id"];
          return qid != null && ids.has(pyStr(qid));
        } catch {
          return false;
        }
      });
      written.set(gtFileOf(file), rows.map((l) => `${l}\n`).join(""));
    }
  }
  const attribution = root.resolve("ATTRIBUTION", "file");
  if (attribution.ok) media.add("ATTRIBUTION");
  for (const [file, text] of written) {
    await mkdir(path.dirname(path.join(out, file)), { recursive: true });
    await writeFile(path.join(out, file), text);
  }
  for (const file of [...media].sort()) {
    const from = root.resolve(file, "file");
    if (!from.ok) continue;
    await mkdir(path.dirname(path.join(out, file)), { recursive: true });
    await writeFile(path.join(out, file), await readRegularFileAsync(from.path));
  }
}

/**
 * The EgoPath Score of label-free guessing: 2·0.5 − 1 = 0 for a1 and b1, the one-hop route chance
 * for a2, b2 and c, averaged over the five (aggregate.ts egoPathScore; linear, so the expectation
 * is the score of the expectations). Null unless all five tasks are asked.
 */
function overallChance(items: EgoPathItem[]): number | null {
  const parts = TASK_CODES.map((code) => (isRouteTask(code) ? chance(items, code) : chance(items, code) === null ? null : 0));
  return parts.some((p) => p === null) ? null : (parts as number[]).reduce((a, b) => a + b, 0) / TASK_CODES.length;
}

export const egopathAudit: BenchmarkAudit<EgoPathItem> = { units, rules, credit, headline, chance, overallMetric: "EgoPath Score", overallChance, legibility, writeSubset };
