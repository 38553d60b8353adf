/**
 * The displayed waypoint sheets of a view (build_task_outputs.py `main`,
 * `select_classification_points`, `ensure_a1_positive_negative_balance`): one shared sheet for
 * a1/b1, one for the route tasks, each numbered 1..N by increasing depth.
 */
import type { Rng } from "../../../stats/rng.js";
import { layoutLabels, originInBox, type Point } from "./label-layout.js";
import { markerStyle } from "./markers.js";
import { EGOPATH_PARAMS as P, scalePx } from "./params.js";
import type { Candidate } from "./types.js";

export interface Sheet {
  /** Candidates in display order: display id k + 1 is candidates[k]. */
  candidates: Candidate[];
  /** Where each candidate's number is drawn (baseline start), same order. */
  labels: Point[];
}

/** What laying out the numbers cost a sheet: optional markers left out because their number had no free place. */
export interface LabelledSheet {
  sheet: Sheet;
  dropped: number;
  /** Keys of required candidates whose number found no free place (the sheet then leaves them out too). */
  failed: number[];
}

const digitsOf = (n: number): number => String(Math.max(1, n)).length;
const at = (c: Candidate): Point => ({ x: c.image[0], y: c.image[1] });

/**
 * Numbers every kept candidate legibly (label-layout.ts): `required` candidates first (their
 * circles always drawn), then the `optional` ones in the order given, each kept only when its
 * circle and number fit. Display ids follow depth; a label reserves room for the widest id.
 */
export function labelSheet(required: readonly Candidate[], optional: readonly Candidate[], imageSide: number): LabelledSheet {
  const style = markerStyle(imageSide);
  const inputs = [...required.map((c) => ({ ...at(c), required: true })), ...optional.map((c) => ({ ...at(c), required: false }))];
  const all = [...required, ...optional];
  const layout = layoutLabels(inputs, imageSide, imageSide, digitsOf(all.length), style);
  const kept = all.map((c, i) => ({ c, box: layout.boxes[i] })).filter((k): k is { c: Candidate; box: NonNullable<typeof k.box> } => k.box !== null);
  kept.sort((a, b) => byDepth(a.c, b.c));
  return {
    sheet: { candidates: kept.map((k) => k.c), labels: kept.map((k, i) => originInBox(k.box, at(k.c), digitsOf(i + 1), style)) },
    dropped: layout.dropped.length,
    failed: layout.failed.map((i) => all[i]!.key),
  };
}

const isSurface = (c: Candidate): boolean => c.source === "object_surface" || c.source === "structural_surface";
/** A floor point a point agent can take: the a1 positives. */
const isGround = (c: Candidate): boolean => c.pointWalkable && !c.onObjectPixel && !c.onStructuralPixel && !c.occluded;
const isGap = (c: Candidate): boolean => isGround(c) && !c.embodiedFeasible;
/**
 * A floor point the camera sees but a point agent cannot take (its cell is occupied: under a
 * table top, between chair legs, against a wall). The release drops these; we keep them as
 * negatives so that the floor's colour alone does not answer a1 (issue 11).
 */
const isBlockedFloor = (c: Candidate): boolean => c.source === "floor_grid" && !c.pointWalkable && !c.onObjectPixel && !c.onStructuralPixel && !c.occluded;

function byDepth(a: Candidate, b: Candidate): number {
  return a.depth - b.depth || a.key - b.key;
}

/** Greedy: keeps candidates in order, dropping any within `minPx` of one already kept; at most `cap`. */
export function spaceOut(ordered: readonly Candidate[], minPx: number, cap: number, kept: Candidate[] = []): Candidate[] {
  const out = kept.slice();
  const min2 = minPx * minPx;
  for (const c of ordered) {
    if (out.length >= cap) break;
    if (out.some((k) => (k.image[0] - c.image[0]) ** 2 + (k.image[1] - c.image[1]) ** 2 < min2)) continue;
    out.push(c);
  }
  return out;
}

/**
 * The a1/b1 sheet: ground points (positives for a1 where the point agent fits; for b1 where the
 * body fits) and surface negatives (object or structure pixels). Plain blocked floor points are
 * left out. Order of preference: surface negatives, point-only ("gap") points, the rest; spaced
 * 16 px apart; up to 4 surface negatives and 4 gap points reserved, then a balanced fill, with at
 * least 12 positives where the view has them and never more positives than negatives.
 */
export function traversabilitySheet(candidates: readonly Candidate[], rng: Rng, imageSide: number): LabelledSheet {
  const rank = (c: Candidate): number => (isBlockedFloor(c) ? 0 : isSurface(c) ? 1 : isGap(c) ? 2 : isGround(c) ? 3 : 4);
  const protocol = candidates.filter((c) => isSurface(c) || isGround(c) || isBlockedFloor(c));
  const ordered = protocol.slice().sort((a, b) => rank(a) - rank(b) || byDepth(a, b));
  const spaced = spaceOut(ordered, scalePx(P.minPixelDistPx, imageSide), P.maxVisible);
  const negatives = spaced.filter((c) => isSurface(c) || isBlockedFloor(c));
  const positives = spaced.filter(isGround);

  const surfaces = negatives.filter(isSurface);
  const chosenNeg = surfaces.slice(0, Math.min(surfaces.length, P.minSurfaceNegatives));
  const gaps = positives.filter(isGap);
  const chosenPos = gaps.slice(0, P.gapPointsReserved);
  const restNeg = negatives.filter((c) => !chosenNeg.includes(c));
  // Hard positives first: the free points closest to an obstacle (the release's challenge-set
  // selection; with blocked floor as negatives this keeps a1 about where free floor ends).
  const restPos = rng.shuffle(positives.filter((c) => !chosenPos.includes(c))).sort((a, b) => a.pointClearanceM - b.pointClearanceM);
  // Balanced fill: about half negatives, never more positives than negatives.
  let room = P.traversabilityTarget - chosenNeg.length - chosenPos.length;
  while (room > 0 && (restNeg.length > 0 || restPos.length > 0)) {
    const wantNeg = chosenNeg.length <= chosenPos.length;
    if (wantNeg && restNeg.length > 0) chosenNeg.push(restNeg.shift()!);
    else if (restPos.length > 0 && chosenPos.length < chosenNeg.length) chosenPos.push(restPos.shift()!);
    else if (restNeg.length > 0) chosenNeg.push(restNeg.shift()!);
    else break;
    room--;
  }
  // At least 12 positives when there are, then negatives until they are at least as many, then
  // the deepest positives go until positives <= negatives.
  while (chosenPos.length < P.minA1Positives && restPos.length > 0) chosenPos.push(restPos.shift()!);
  while (chosenNeg.length < chosenPos.length && restNeg.length > 0) chosenNeg.push(restNeg.shift()!);
  chosenPos.sort(byDepth);
  while (chosenPos.length > chosenNeg.length) chosenPos.pop();
  return labelSheet([], [...chosenNeg, ...chosenPos].sort(byDepth), imageSide);
}

/**
 * The route sheet shared by a2, b2 and c: point-walkable floor points only; every waypoint a
 * route needs first (spacing ignored), then the others nearest first, 22 px apart, at most 280,
 * each kept only where its number can be read.
 */
export function routeSheet(candidates: readonly Candidate[], required: readonly Candidate[], imageSide: number): LabelledSheet {
  const needed = [...new Set(required)].sort(byDepth);
  const floor = candidates.filter((c) => isGround(c) && !needed.includes(c)).sort(byDepth);
  const kept = spaceOut(floor, scalePx(P.routeMinPixelDistPx, imageSide), P.maxVisible, needed);
  return labelSheet(needed, kept.slice(needed.length), imageSide);
}

/** Display id of each candidate key on a sheet. */
export function displayIds(sheet: Sheet): Map<number, number> {
  return new Map(sheet.candidates.map((c, k) => [c.key, k + 1]));
}
