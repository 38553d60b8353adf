/**
 * Loading a release prior (`tour.prior`, prior.ts) for one item line: the folder
 * `<root>/<scene>/<hkey>` inside the dataset root, its listing as the release sorts it, the
 * window inside the listing, every picked entry an image inside the root, one annotation per
 * picked frame, and each annotation's `source_index` (when given) the folder position the
 * release picks for it. Problems go to `add(field, message)`.
 */
import path from "node:path";
import type { DataRoot } from "../../core/dataroot.js";
import { pickPriorFrames, releaseListing } from "./prior.js";
import type { Annotation, PriorData } from "./schema.js";

export const DEFAULT_TOURS_ROOT = "tours";

export interface ResolvedPrior {
  /** The folder as the item names it, e.g. "tours/2azQ1b91cZZ/3". */
  folder: string;
  /** Absolute paths of the picked frames, in the order shown (label k = frames[k]). */
  frames: string[];
  /** Folder positions of the picked frames. */
  positions: number[];
}

const SEGMENT = /^(?!\.\.?$)[^/\\]+$/;

export function priorFolderRef(prior: Pick<PriorData, "root" | "hkey">, scene: string): string {
  return [prior.root ?? DEFAULT_TOURS_ROOT, scene, prior.hkey].join("/");
}

export function resolvePrior(prior: PriorData, scene: string, annotations: readonly Annotation[], root: DataRoot, add: (field: string, message: string) => void): ResolvedPrior | null {
  if (!SEGMENT.test(scene)) {
    add("scene", "a prior tour lives in <root>/<scene>/<hkey>: the scene must be a single folder name (no / or \\, not . or ..)");
    return null;
  }
  const folder = priorFolderRef(prior, scene);
  const dir = root.resolve(folder, "dir", { what: "tour folder" });
  if (!dir.ok) {
    add("tour.prior.hkey", dir.message);
    return null;
  }
  let listing: string[];
  try {
    listing = releaseListing(dir.path);
  } catch {
    add("tour.prior.hkey", `tour folder ${folder} cannot be read`);
    return null;
  }
  const pick = pickPriorFrames(prior, listing.length);
  if (!pick.ok) {
    add(`tour.prior.${pick.field}`, `${pick.message} (tour folder ${folder})`);
    return null;
  }
  let ok = true;
  const frames = pick.positions.map((position) => {
    const name = listing[position]!;
    const frame = root.resolve(path.join(dir.path, name), "image", { what: "frame", shown: `${folder}/${name}` });
    if (frame.ok) return frame.path;
    ok = false;
    add("tour.prior", `entry ${position} of ${folder}: ${frame.message}`);
    return path.join(dir.path, name);
  });
  const n = annotations.length;
  if (pick.positions.length !== n) {
    const how = pick.stride !== null ? `${pick.stride === 1 ? "every frame" : `every ${pick.stride}${ordinalSuffix(pick.stride)} frame`} of [${prior.start_idx}, ${prior.end_idx})` : `${pick.positions.length} frames spread over [${prior.start_idx}, ${prior.end_idx})`;
    add("tour.prior", `the release picks ${pick.positions.length} frames (${how}) but ${n} tour frames are annotated`);
    return null;
  }
  annotations.forEach((a, i) => {
    if (a.source_index === undefined || a.index >= n) return;
    const expected = pick.positions[a.index]!;
    if (a.source_index !== expected) {
      ok = false;
      add(`annotations[${i}].source_index`, `tour frame ${a.index} is entry ${expected} (${listing[expected]}) of ${folder}, but the annotation says ${a.source_index}`);
    }
  });
  return ok ? { folder, frames, positions: pick.positions } : null;
}

function ordinalSuffix(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return "th";
  return ({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th";
}
