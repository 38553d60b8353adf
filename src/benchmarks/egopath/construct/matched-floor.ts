/**
 * The a1/b1 sheet drawn so that no cheap cue answers it (issue 27, "no cheap cue").
 *
 * The release mixes free floor on a 0.4 m grid with markers on furniture and walls, so the
 * colour around a marker, its isolation or its height in the picture tell most positives from
 * negatives without judging where the agent fits. Here every marker sits on floor the picture
 * shows, taken from one 0.05 m lattice whatever its label, in three kinds: floor no agent may take
 * (an occupied cell: under a table top, between legs), floor only the point agent may take
 * (within 0.30 m of an obstacle) and floor both may take. Markers are kept in matched triples,
 * one of each kind, whose surroundings look alike (mean colour, brightness and texture of the
 * ring around the marker, height and side in the picture, within a caliper), with one spacing
 * rule for all. So a1 (point) and b1 (embodied) are both balanced on what the picture offers
 * without reasoning, and only where the floor ends under the furniture, and how far the body
 * reaches, separates the kinds.
 */
import type { Rng } from "../../../stats/rng.js";
import { STRUCTURE_ID_BASE } from "../../../world/types.js";
import { floorLatticeInView, labelFloorCandidate, type ViewInputs } from "./candidates.js";
import { EGOPATH_PARAMS as P } from "./params.js";
import { ringColour } from "../audit-marks.js";
import type { Candidate } from "./types.js";

/** Lattice step of the sheet's floor points, metres (the release: 0.4 m for free floor only). */
export const LATTICE_M = 0.05;

/** Floor kinds: 0 = no agent (occupied), 1 = point agent only, 2 = both agents. */
export type FloorKind = 0 | 1 | 2;

export const floorKind = (c: Candidate): FloorKind => (!c.pointWalkable ? 0 : !c.embodiedFeasible ? 1 : 2);

/**
 * Floor points every 0.05 m inside the rooms whose pixel shows the floor itself (not a rug, an
 * object or a wall in front of it) and is not hidden, labelled for both agents.
 */
export function visibleFloorLattice(v: ViewInputs, firstKey: number): Candidate[] {
  const b = v.buffers;
  const out: Candidate[] = [];
  for (const { world, q } of floorLatticeInView(v, LATTICE_M)) {
    const k = Math.floor(q.y) * b.width + Math.floor(q.x);
    const id = b.instance[k]!;
    if (id < STRUCTURE_ID_BASE.floor || id >= STRUCTURE_ID_BASE.wall) continue;
    if (b.depth[k]! < q.depth - P.visibilityToleranceM) continue;
    const c = labelFloorCandidate(v, firstKey + out.length, "floor_grid", world, q);
    if (!c.occluded) out.push(c);
  }
  return out;
}

/**
 * What a marker's surroundings look like before any marker is drawn: mean r, g, b, brightness
 * and texture (standard deviation of brightness) in the ring the audit reads (audit-marks.ts
 * `ringColour`, here with no mark to leave out), and the marker's place as shares of the picture's
 * width and height. All in 0..1.
 */
export function surroundings(rgb: Uint8Array, width: number, height: number, x: number, y: number): number[] {
  const ring = ringColour(rgb, width, height, [{ id: 0, x, y }], 0, []);
  return [ring.r, ring.g, ring.b, ring.brightness, ring.texture, x / width, y / height];
}

/**
 * Weights of the surroundings in the matching distance (r, g, b, brightness, texture, x, y): a
 * colour difference of 0.04 (about 10 of 255), a texture difference of 0.015 and a place
 * difference of 5% of the picture count alike.
 */
const CUE_SCALE = [0.04, 0.04, 0.04, 0.04, 0.015, 0.05, 0.05];

/**
 * Partners lie within this many marker spacings of their triple's first point in the picture, so
 * that the three share a neighbourhood and no kind stands more alone than another.
 */
export const TRIPLE_REACH_SPACINGS = 8;
/** Triples farther apart than this (in those units, root mean square) are not matched. */
export const CALIPER = 1;

export function cueDistance(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let k = 0; k < CUE_SCALE.length; k++) s += ((a[k]! - b[k]!) / CUE_SCALE[k]!) ** 2;
  return Math.sqrt(s / CUE_SCALE.length);
}

/** Triples kept per view at most: about the release's 80 markers. */
export const MAX_TRIPLES = 27;

export interface MatchedFloor {
  candidates: Candidate[];
  /** Floor points of each kind the lattice offered, and triples kept. */
  offered: [number, number, number];
  triples: number;
}

/**
 * Greedy caliper matching: occupied-floor points in a seeded order, each with the nearest unused
 * point-only and both-agents points in surroundings, within TRIPLE_REACH_SPACINGS spacings of it
 * in the picture, every marker at least `minPx` from every other kept one; a triple is kept only
 * when both partners are within the caliper.
 */
export function matchTriples(floor: readonly Candidate[], cues: ReadonlyMap<number, readonly number[]>, rng: Rng, minPx: number, maxTriples = MAX_TRIPLES): MatchedFloor {
  const byKind: Candidate[][] = [[], [], []];
  for (const c of floor) byKind[floorKind(c)]!.push(c);
  const offered = byKind.map((k) => k.length) as [number, number, number];
  const kept: Candidate[] = [];
  const used = new Set<number>();
  const min2 = minPx * minPx;
  const clear = (c: Candidate, extra: readonly Candidate[]) =>
    [...kept, ...extra].every((k) => (k.image[0] - c.image[0]) ** 2 + (k.image[1] - c.image[1]) ** 2 >= min2);
  const reach2 = (TRIPLE_REACH_SPACINGS * minPx) ** 2;
  const nearest = (kind: FloorKind, cue: readonly number[], extra: readonly Candidate[]): Candidate | null => {
    const anchor = extra[0]!;
    let best: Candidate | null = null, bestD = CALIPER;
    for (const c of byKind[kind]!) {
      if (used.has(c.key)) continue;
      if ((c.image[0] - anchor.image[0]) ** 2 + (c.image[1] - anchor.image[1]) ** 2 > reach2) continue;
      const d = cueDistance(cue, cues.get(c.key)!);
      if (d <= bestD && clear(c, extra)) {
        best = c;
        bestD = d;
      }
    }
    return best;
  };
  let triples = 0;
  for (const a of rng.shuffle(byKind[0]!)) {
    if (triples >= maxTriples) break;
    if (!clear(a, [])) continue;
    const cue = cues.get(a.key)!;
    const b = nearest(1, cue, [a]);
    if (!b) continue;
    const c = nearest(2, cue, [a, b]);
    if (!c) continue;
    kept.push(a, b, c);
    used.add(a.key).add(b.key).add(c.key);
    triples++;
  }
  return { candidates: kept, offered, triples };
}

/**
 * Evens out the kinds after the numbers are laid out: the layout leaves out markers whose number
 * has no free place, most often where occupied and near-obstacle points crowd around furniture, so
 * the kind out in the open would outnumber the others and stand more alone. While one kind has
 * more markers than the scarcest, its most isolated marker (farthest from its nearest neighbour)
 * goes. Returns the kept candidates in their given order.
 */
export function balanceKinds(candidates: readonly Candidate[]): Candidate[] {
  const kept = candidates.slice();
  const nearest = (c: Candidate) => {
    let best = Infinity;
    for (const o of kept) if (o !== c) best = Math.min(best, (o.image[0] - c.image[0]) ** 2 + (o.image[1] - c.image[1]) ** 2);
    return best;
  };
  for (;;) {
    const counts = [0, 0, 0];
    for (const c of kept) counts[floorKind(c)]!++;
    const fewest = Math.min(...counts);
    const over = counts.findIndex((n) => n > fewest);
    if (over < 0) return kept;
    let worst = -1, worstD = -1;
    kept.forEach((c, i) => {
      if (floorKind(c) !== over) return;
      const d = nearest(c);
      if (d > worstD) {
        worst = i;
        worstD = d;
      }
    });
    kept.splice(worst, 1);
  }
}
