/**
 * The prior video as the VCN-Bench release names it: a tour frame folder `<tours>/<scene>/<hkey>`
 * and a window `[start_idx, end_idx)` of it, thinned to fewer than `video_max_frame` frames.
 *
 * How the released evaluation picks the frames (siqiZ805/VCN-Bench, run_eval_mvdualvln.py and
 * run_eval_3dmem.py, read for this; config/eval_*.yaml set video_max_frame: 50):
 *   - the folder listing is every entry of the folder, sorted as Python sorts strings (by code
 *     point, so "10.png" < "2.png"); no extension filter, hidden files included;
 *   - the window is the slice listing[start_idx:end_idx]: start inclusive, end exclusive;
 *   - the stride is the smallest whole step >= 1 with (end_idx - start_idx) / step < video_max_frame,
 *     and every step-th frame of the window is kept, starting with the first.
 * So the count is ceil(length / stride): a 157-frame window gives stride 4 and 40 frames, 100
 * frames stride 3 and 34, 50 frames stride 2 and 25, 149 frames stride 3 and 50; windows of 50
 * frames or more keep between 25 and 50. The paper says the prior video is "downsampled to 50
 * frames" (§4.1, App. C); `sampling: "uniform"` is that reading (np.linspace over the window,
 * exactly min(video_max_frame, length) frames, first and last kept), kept as an option.
 * The model labels the picked frames 0..k-1 in this order (the released prompt lists "0 <image>,
 * 1 <image>, ...").
 */
import { readdirSync } from "node:fs";
import { uniformIndices } from "../../media/frames.js";

/** The released configs' video_max_frame. */
export const RELEASE_VIDEO_MAX_FRAME = 50;

export const PRIOR_SAMPLINGS = ["release", "uniform"] as const;
export type PriorSampling = (typeof PRIOR_SAMPLINGS)[number];

export interface PriorWindow {
  start_idx: number;
  end_idx: number;
  /** Default RELEASE_VIDEO_MAX_FRAME. */
  video_max_frame?: number;
  /** Default "release" (the official code); "uniform" is the paper's "downsampled to 50 frames". */
  sampling?: PriorSampling;
}

/** Python's string order: by Unicode code point (JavaScript's default sort compares UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** `sorted(os.listdir(dir))`: every entry name, in code-point order. Throws the fs error. */
export function releaseListing(dir: string): string[] {
  return readdirSync(dir).sort(compareCodePoints);
}

/** The smallest step >= 1 with length / step < maxFrames (the released `while` loop, in integers). */
export function releaseStride(length: number, maxFrames: number): number {
  if (!Number.isInteger(length) || length < 0) throw new RangeError(`window length must be a whole number >= 0, got ${length}`);
  if (!Number.isInteger(maxFrames) || maxFrames < 1) throw new RangeError(`video_max_frame must be a whole number >= 1, got ${maxFrames}`);
  // length / step < maxFrames  <=>  length < maxFrames * step  <=>  step > length / maxFrames.
  return Math.floor(length / maxFrames) + 1;
}

export type PriorPick = { ok: true; positions: number[]; stride: number | null } | { ok: false; field: "start_idx" | "end_idx"; message: string };

/**
 * Folder positions of the prior video's frames, in the order shown. `folderSize` is the number of
 * entries the listing has. The window must lie inside the folder (0 <= start_idx < end_idx <=
 * folderSize): Python would silently clip or wrap a window that does not, we refuse it.
 * `stride` is the release's step (null for "uniform").
 */
export function pickPriorFrames(window: PriorWindow, folderSize: number): PriorPick {
  const { start_idx: start, end_idx: end } = window;
  const max = window.video_max_frame ?? RELEASE_VIDEO_MAX_FRAME;
  if (!Number.isInteger(start) || start < 0) return { ok: false, field: "start_idx", message: `must be a whole number >= 0, got ${start}` };
  if (!Number.isInteger(end) || end <= start) return { ok: false, field: "end_idx", message: `must be greater than start_idx ${start} (the window is [start_idx, end_idx)), got ${end}` };
  if (start >= folderSize) return { ok: false, field: "start_idx", message: `${start} is outside the folder's ${folderSize} entries (0..${folderSize - 1})` };
  if (end > folderSize) return { ok: false, field: "end_idx", message: `${end} is past the folder's ${folderSize} entries (end_idx is exclusive: at most ${folderSize})` };
  const length = end - start;
  if ((window.sampling ?? "release") === "uniform") {
    return { ok: true, positions: uniformIndices(length, max).map((i) => start + i), stride: null };
  }
  const stride = releaseStride(length, max);
  const positions: number[] = [];
  for (let p = start; p < end; p += stride) positions.push(p);
  return { ok: true, positions, stride };
}
