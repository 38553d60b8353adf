/**
 * The displayed waypoint sheets of a view (build_task_outputs.py `main`): one shared sheet for
 * a1/b1 (its points chosen in matched-floor.ts), one for the route tasks, each numbered 1..N with
 * every number legible: by increasing depth as the release, or in a drawn order (`Numbering`).
 */
import type { Rng } from "../../../stats/rng.js";
import { layoutLabels, originInBox, type Box, type Point } from "./label-layout.js";
import { markerSpacing, markerStyle } from "./markers.js";
import { EGOPATH_PARAMS as P } from "./params.js";
import type { Candidate } from "./types.js";

export interface Sheet {
  /** Candidates in display order: display id k + 1 is candidates[k]. */
  candidates: Candidate[];
  /** Where each candidate's number is drawn (baseline start), same order. */
  labels: Point[];
}

/** What laying out the numbers cost a sheet: optional markers left out because their number had no free place. */
export interface LabelledSheet {
  /** Numbered nearest first. */
  sheet: Sheet;
  /** The room reserved for each marker's number (sheet order): a renumbering re-centres its digits in it. */
  boxes: Box[];
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
    boxes: kept.map((k) => k.box),
    dropped: layout.dropped.length,
    failed: layout.failed.map((i) => all[i]!.key),
  };
}

/** A floor point a point agent can take (the route sheet's points). */
const isGround = (c: Candidate): boolean => c.pointWalkable && !c.onObjectPixel && !c.onStructuralPixel && !c.occluded;

/** Nearest first (display order); ties by candidate key. */
export function byDepth(a: Candidate, b: Candidate): number {
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
 * The route sheet shared by a2, b2 and c: point-walkable floor points only; every waypoint a
 * route needs first (spacing ignored), then the others nearest first, 22 px apart, at most 280,
 * each kept only where its number can be read.
 */
export function routeSheet(candidates: readonly Candidate[], required: readonly Candidate[], imageSide: number): LabelledSheet {
  const needed = [...new Set(required)].sort(byDepth);
  const floor = candidates.filter((c) => isGround(c) && !needed.includes(c)).sort(byDepth);
  const kept = spaceOut(floor, markerSpacing(P.routeMinPixelDistPx, imageSide), P.maxVisible, needed);
  return labelSheet(needed, kept.slice(needed.length), imageSide);
}

/**
 * How markers are numbered. The release numbers them nearest first, so a number's rank among the
 * numbers is the marker's depth rank and a reply can be guessed from the text alone (issue 27: one
 * hop to the typical goal rank reached Point Path SR 25 without the picture). "shuffled" numbers
 * them in a drawn order; a route sheet's start keeps number 1 (the prompt names it either way).
 */
export type Numbering = "shuffled" | "depth";

/** What `generate egopath` uses unless `--set numbering=` says otherwise. */
export const DEFAULT_NUMBERING: Numbering = "shuffled";

/**
 * The sheet numbered as `numbering` says: unchanged for "depth"; for "shuffled" the markers in an
 * order drawn from `rng`, `first` (when on the sheet) numbered 1, each number re-centred for its
 * digits in the room its marker reserved.
 */
export function numberSheet(laid: LabelledSheet, numbering: Numbering, rng: Rng, imageSide: number, first?: Candidate): Sheet {
  if (numbering === "depth") return laid.sheet;
  const style = markerStyle(imageSide);
  const positions = laid.sheet.candidates.map((_, k) => k);
  const head = first === undefined ? -1 : laid.sheet.candidates.indexOf(first);
  const order = [...(head >= 0 ? [head] : []), ...rng.shuffle(positions.filter((k) => k !== head))];
  return {
    candidates: order.map((k) => laid.sheet.candidates[k]!),
    labels: order.map((k, i) => originInBox(laid.boxes[k]!, at(laid.sheet.candidates[k]!), digitsOf(i + 1), style)),
  };
}

/** Display id of each candidate key on a sheet. */
export function displayIds(sheet: Sheet): Map<number, number> {
  return new Map(sheet.candidates.map((c, k) => [c.key, k + 1]));
}
