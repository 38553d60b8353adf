/**
 * COCO run-length encoding (RLE) of binary masks, as written by pycocotools.
 *
 * Format: `{size: [h, w], counts}`. The pixels are read column by column (column-major, i.e. the
 * Fortran order of an h x w array: linear index `x * h + y`); `counts` are the lengths of the
 * alternating runs, the first run being zeros (it is 0 when the first pixel is set). `counts` is a
 * list of numbers ("uncompressed") or a string ("compressed", pycocotools' rleToString /
 * rleFrString): each count is stored as a signed value in 5-bit groups, least significant group
 * first, one character per group (character = 48 + group, plus 32 when more groups follow); the
 * last group's bit 4 is the sign. From the fourth count on (index 3 and up), the stored value is
 * the difference from the count two places earlier.
 *
 * Two behaviours (option `strict`, default true):
 *
 * | input | strict (default) | strict: false (the official EPIC-Bench evaluator with pycocotools) |
 * |---|---|---|
 * | counts summing to more than h*w, list | RleError | runs cut at h*w (the official fallback decoder; pycocotools itself writes past its buffer) |
 * | counts summing to more than h*w, string | RleError | RleError (pycocotools writes past its buffer: undefined, or an abort) |
 * | counts summing to less than h*w | RleError | the remaining pixels are 0 (pycocotools leaves them uninitialised; in practice 0) |
 * | list counts that are non-integer numbers | RleError | truncated toward zero (numpy uint32 / int()) |
 * | list counts that are integer strings | RleError | read as numbers (numpy uint32) |
 * | string characters outside '0'..'o' | RleError | read with rleFrString's C arithmetic on the UTF-8 bytes |
 * | string ending inside a value (continuation bit set) | RleError | RleError (the C code reads past the end) |
 * | size given as numbers with fractions or as integer strings | RleError | truncated / parsed (Python int()) |
 * | size given as a string ("57") | RleError | its first two characters, as Python indexes it (5 x 7) |
 * | empty counts (`[]` or `""`) | RleError | an all-zero mask |
 *
 * In both modes: a missing or malformed `size`, zero height or width, missing `counts`, negative
 * runs and counts that are neither a string nor a list of numbers are errors. Errors are `RleError`s
 * with a message that names the problem; callers add the file and field.
 */
import { BitMask, type PixelBox } from "./mask.js";

export class RleError extends Error {
  /** Position of the failing instance when the error comes from a list of RLEs. */
  readonly instance: number | undefined;
  constructor(message: string, instance?: number) {
    super(instance === undefined ? message : `instance ${instance}: ${message}`);
    this.name = "RleError";
    this.instance = instance;
  }
}

/** An RLE as found in JSON. */
export interface Rle {
  size: readonly number[];
  counts: string | readonly number[];
}

/** What `encodeRle` returns: pycocotools' `encode` output with counts as a string. */
export interface CompressedRle {
  size: [number, number];
  counts: string;
}

export interface RleOptions {
  /** true (default): reject anything malformed. false: the official evaluator's tolerance (see the table above). */
  strict?: boolean;
}

/** An RLE read and checked: run lengths that sum to exactly height * width. */
export interface RleRuns {
  height: number;
  width: number;
  /** Alternating runs, zeros first; may hold zero-length runs. */
  counts: number[];
}

const UINT32 = 4294967296;

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + "…" : value)}`;
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

function readDimension(value: unknown, name: string, strict: boolean): number {
  let n: number;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RleError(`size ${name} is not a finite number (${value})`);
    if (strict && !Number.isInteger(value)) throw new RleError(`size ${name} is not an integer (${value})`);
    n = Math.trunc(value);
  } else if (!strict && typeof value === "string" && /^\s*[+-]?\d+\s*$/.test(value)) {
    n = Number.parseInt(value, 10);
  } else {
    throw new RleError(`size ${name} must be a number, got ${describe(value)}`);
  }
  if (n <= 0) throw new RleError(`size ${name} must be positive, got ${n}`);
  if (!Number.isSafeInteger(n)) throw new RleError(`size ${name} is too large (${n})`);
  return n;
}

function readSize(rle: Record<string, unknown>, strict: boolean): { height: number; width: number } {
  let size = rle["size"];
  if (size === undefined || size === null) throw new RleError("RLE has no size");
  // Python indexes a string too: the official int(size[0]), int(size[1]) read "57" as 5 x 7.
  if (!strict && typeof size === "string") size = [...size];
  if (!Array.isArray(size)) throw new RleError(`RLE size must be a list [h, w], got ${describe(size)}`);
  if (strict ? size.length !== 2 : size.length < 2) throw new RleError(`RLE size must be [h, w], got a list of ${size.length}`);
  const height = readDimension(size[0], "h", strict);
  const width = readDimension(size[1], "w", strict);
  if (!Number.isSafeInteger(height * width)) throw new RleError(`RLE size [${height}, ${width}] is too large`);
  return { height, width };
}

/**
 * pycocotools' rleFrString: the run lengths stored in a compressed counts string. Strict (default):
 * characters must be '0'..'o' (48..111), every value complete, at most 6 characters per value and
 * every count in 0..2^32-1. Not strict: the C arithmetic on the string's UTF-8 bytes (stops at a
 * NUL; counts wrap to uint32), except that a string ending inside a value still throws.
 */
export function rleCountsFromString(s: string, options: RleOptions = {}): number[] {
  const strict = options.strict ?? true;
  const counts: number[] = [];
  if (strict) {
    let p = 0;
    while (p < s.length) {
      let x = 0;
      let k = 0;
      let more = true;
      const start = p;
      while (more) {
        if (p >= s.length) throw new RleError(`counts string ends inside a value (the value starting at position ${start} is incomplete)`);
        const code = s.charCodeAt(p);
        if (code < 48 || code > 111) {
          throw new RleError(`bad character ${JSON.stringify(s[p])} (code ${code}) at position ${p} of the counts string; allowed: '0'..'o'`);
        }
        if (k >= 6) throw new RleError(`value starting at position ${start} of the counts string is longer than 6 characters`);
        const c = code - 48;
        x |= (c & 0x1f) << (5 * k);
        more = (c & 0x20) !== 0;
        p++;
        k++;
        if (!more && (c & 0x10) !== 0) x |= -1 << (5 * k);
      }
      const m = counts.length;
      if (m > 2) x += counts[m - 2]!;
      if (x < 0 || x >= UINT32) throw new RleError(`count ${m} of the counts string is ${x}, outside 0..2^32-1`);
      counts.push(x);
    }
    return counts;
  }
  // The C code: char c = s[p] - 48 (signed char), long x built from int-sized shifts, cnts as uint.
  const bytes = new TextEncoder().encode(s);
  let end = bytes.indexOf(0);
  if (end < 0) end = bytes.length;
  let p = 0;
  while (p < end) {
    // x stays a sign-extended 32-bit value: every term OR'ed into it is an int.
    let x = 0;
    let k = 0;
    let more = true;
    const start = p;
    while (more) {
      if (p >= end) throw new RleError(`counts string ends inside a value (the value starting at byte ${start} is incomplete)`);
      const c = ((bytes[p]! - 48) << 24) >> 24;
      x |= (c & 0x1f) << (5 * k);
      more = (c & 0x20) !== 0;
      p++;
      k++;
      if (!more && (c & 0x10) !== 0) x |= -1 << (5 * k);
    }
    const m = counts.length;
    let v = x;
    if (m > 2) v += counts[m - 2]!;
    counts.push(v >>> 0);
  }
  return counts;
}

/** pycocotools' rleToString: the compressed string of run lengths (each 0..2^32-1). */
export function rleCountsToString(counts: ArrayLike<number>): string {
  const out: number[] = [];
  for (let i = 0; i < counts.length; i++) {
    const v = counts[i]!;
    if (!Number.isInteger(v) || v < 0 || v >= UINT32) throw new RleError(`count ${i} is ${v}, not an integer in 0..2^32-1`);
    let x = i > 2 ? v - counts[i - 2]! : v;
    let more = true;
    while (more) {
      let c = x & 0x1f;
      x = Math.floor(x / 32); // arithmetic shift right by 5 on a 64-bit value
      more = (c & 0x10) !== 0 ? x !== -1 : x !== 0;
      if (more) c |= 0x20;
      out.push(c + 48);
    }
  }
  let s = "";
  for (let i = 0; i < out.length; i += 8192) s += String.fromCharCode(...out.slice(i, i + 8192));
  return s;
}

function readListCounts(list: readonly unknown[], strict: boolean): number[] {
  const counts = new Array<number>(list.length);
  for (let i = 0; i < list.length; i++) {
    // Not strict: integer strings as numpy's uint32 conversion reads them (very large values arrive
    // as such strings from the JSON reader).
    const v = !strict && typeof list[i] === "string" && /^\s*\+?\d+\s*$/.test(list[i] as string) ? Number(list[i]) : list[i];
    if (typeof v !== "number" || !Number.isFinite(v)) throw new RleError(`counts[${i}] must be a number, got ${describe(v)}`);
    if (v < 0) throw new RleError(`counts[${i}] is negative (${v})`);
    if (strict && !Number.isInteger(v)) throw new RleError(`counts[${i}] is not an integer (${v})`);
    counts[i] = Math.trunc(v);
  }
  return counts;
}

/**
 * Read and check an RLE: its size and run lengths summing to exactly h*w (see the module comment
 * for what `strict: false` tolerates and how it repairs the runs).
 */
export function readRle(rle: unknown, options: RleOptions = {}): RleRuns {
  const strict = options.strict ?? true;
  if (typeof rle !== "object" || rle === null || Array.isArray(rle)) throw new RleError(`RLE must be an object {size, counts}, got ${describe(rle)}`);
  const obj = rle as Record<string, unknown>;
  const { height, width } = readSize(obj, strict);
  const raw = obj["counts"];
  if (raw === undefined || raw === null) throw new RleError("RLE has no counts");
  let counts: number[];
  let fromString: boolean;
  if (typeof raw === "string") {
    counts = rleCountsFromString(raw, { strict });
    fromString = true;
  } else if (Array.isArray(raw)) {
    counts = readListCounts(raw, strict);
    fromString = false;
  } else {
    throw new RleError(`RLE counts must be a string or a list of numbers, got ${describe(raw)}`);
  }
  const total = height * width;
  let sum = 0;
  for (const c of counts) sum += c;
  if (sum === total) return { height, width, counts };
  if (strict) {
    throw new RleError(`counts sum to ${sum} but size [${height}, ${width}] has ${total} pixels`);
  }
  if (sum > total) {
    if (fromString) throw new RleError(`counts sum to ${sum}, more than the ${total} pixels of size [${height}, ${width}] (pycocotools rejects this)`);
    // The official fallback decoder: cut the runs at h*w.
    const cut: number[] = [];
    let at = 0;
    for (const c of counts) {
      const n = Math.min(c, total - at);
      cut.push(n);
      at += n;
      if (at >= total) break;
    }
    return { height, width, counts: cut };
  }
  // Too short: the rest is zeros.
  const padded = counts.slice();
  if (padded.length % 2 === 1) padded.push(0);
  padded.push(total - sum);
  return { height, width, counts: padded };
}

/** Fill a mask from checked runs (column-major, zeros first). */
function runsToMask(runs: RleRuns): BitMask {
  const { height: h, width: w, counts } = runs;
  const mask = new BitMask(w, h);
  const { stride, words } = mask;
  let pos = 0;
  for (let i = 0; i < counts.length; i++) {
    const n = counts[i]!;
    if (i % 2 === 1 && n > 0) {
      let x = Math.floor(pos / h);
      let y = pos - x * h;
      let left = n;
      while (left > 0) {
        const take = Math.min(left, h - y);
        const bit = 1 << (x & 31);
        let idx = y * stride + (x >>> 5);
        for (let t = 0; t < take; t++, idx += stride) words[idx]! |= bit;
        left -= take;
        x++;
        y = 0;
      }
    }
    pos += n;
  }
  return mask;
}

/** Decode one RLE (counts as a list or a compressed string) into a mask of width w and height h. */
export function decodeRle(rle: unknown, options: RleOptions = {}): BitMask {
  return runsToMask(readRle(rle, options));
}

/** The column-major run lengths of a mask, zeros first (pycocotools' rleEncode). */
export function encodeRleCounts(mask: BitMask): number[] {
  const { width, height, stride, words } = mask;
  const counts: number[] = [];
  let prev = 0;
  let run = 0;
  for (let x = 0; x < width; x++) {
    const wi = x >>> 5;
    const shift = x & 31;
    let idx = wi;
    for (let y = 0; y < height; y++, idx += stride) {
      const v = (words[idx]! >>> shift) & 1;
      if (v !== prev) {
        counts.push(run);
        run = 0;
        prev = v;
      }
      run++;
    }
  }
  counts.push(run);
  return counts;
}

/** pycocotools' `mask.encode` of one mask, with counts as a string: `{size: [h, w], counts}`. */
export function encodeRle(mask: BitMask): CompressedRle {
  return { size: [mask.height, mask.width], counts: rleCountsToString(encodeRleCounts(mask)) };
}

/** Number of set pixels, from the runs (pycocotools' `area`). */
export function rleArea(rle: unknown, options: RleOptions = {}): number {
  return runsArea(readRle(rle, options));
}

/**
 * The box around the set pixels as `[x, y, width, height]` (pycocotools' `toBbox`), from the runs;
 * `[0, 0, 0, 0]` for an empty mask.
 */
export function rleToBbox(rle: unknown, options: RleOptions = {}): [x: number, y: number, width: number, height: number] {
  const { height: h, counts } = readRle(rle, options);
  let xs = Infinity;
  let ys = Infinity;
  let xe = -1;
  let ye = -1;
  let pos = 0;
  for (let i = 0; i < counts.length; i++) {
    const n = counts[i]!;
    if (i % 2 === 1 && n > 0) {
      const x0 = Math.floor(pos / h);
      const x1 = Math.floor((pos + n - 1) / h);
      if (x0 < xs) xs = x0;
      if (x1 > xe) xe = x1;
      if (x0 < x1) {
        ys = 0;
        ye = h - 1;
      } else {
        const y0 = pos - x0 * h;
        const y1 = pos + n - 1 - x1 * h;
        if (y0 < ys) ys = y0;
        if (y1 > ye) ye = y1;
      }
    }
    pos += n;
  }
  if (xe < 0) return [0, 0, 0, 0];
  return [xs, ys, xe - xs + 1, ye - ys + 1];
}

/** The same box as `rleToBbox` with exclusive ends `[x1, y1, x2, y2]`, or null for an empty mask. */
export function rleBounds(rle: unknown, options: RleOptions = {}): PixelBox | null {
  const [x, y, w, h] = rleToBbox(rle, options);
  return w === 0 ? null : [x, y, x + w, y + h];
}

export interface RleUnionOptions extends RleOptions {
  /** Not strict: told about each instance left out (not an RLE object, undecodable, other size). */
  onSkip?: (instance: number, reason: string) => void;
}

/** The checked runs of the instances a union keeps, all of one size. */
export interface RleUnionRuns {
  height: number;
  width: number;
  instances: RleRuns[];
}

/**
 * The instances of a list of RLEs (or of one RLE object) that `decodeRleUnion` unions, read and
 * checked but not drawn (so an RLE of any stated size costs only its run list); null when there is
 * no instance. Same rules as decodeRleUnion.
 */
export function readRleUnion(rles: unknown, options: RleUnionOptions = {}): RleUnionRuns | null {
  const strict = options.strict ?? true;
  let items: unknown[];
  if (Array.isArray(rles)) items = rles;
  else if (typeof rles === "object" && rles !== null) items = [rles];
  else if (strict) throw new RleError(`expected a list of RLEs or one RLE object, got ${describe(rles)}`);
  else return null;
  let out: RleUnionRuns | null = null;
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    if (typeof it !== "object" || it === null || Array.isArray(it)) {
      if (strict) throw new RleError(`RLE must be an object {size, counts}, got ${describe(it)}`, i);
      options.onSkip?.(i, `not an RLE object (${describe(it)})`);
      continue;
    }
    let runs: RleRuns;
    try {
      runs = readRle(it, { strict });
    } catch (e) {
      if (!(e instanceof RleError)) throw e;
      if (strict) throw new RleError(e.message, i);
      options.onSkip?.(i, e.message);
      continue;
    }
    if (out === null) {
      out = { height: runs.height, width: runs.width, instances: [runs] };
    } else if (runs.height !== out.height || runs.width !== out.width) {
      const msg = `size [${runs.height}, ${runs.width}] differs from the first instance's [${out.height}, ${out.width}]`;
      if (strict) throw new RleError(msg, i);
      options.onSkip?.(i, msg);
    } else {
      out.instances.push(runs);
    }
  }
  return out;
}

/** Set pixels of checked runs (the odd runs). */
export function runsArea(runs: RleRuns): number {
  let n = 0;
  for (let i = 1; i < runs.counts.length; i += 2) n += runs.counts[i]!;
  return n;
}

/** The union of instances read by readRleUnion, drawn. */
export function drawRleUnion(union: RleUnionRuns): BitMask {
  const out = runsToMask(union.instances[0]!);
  for (let i = 1; i < union.instances.length; i++) out.union(runsToMask(union.instances[i]!));
  return out;
}

/**
 * The union of a list of RLE instances (or of one RLE object), as the official
 * `decode_rle_list_to_mask`; null when there is no instance (`[]` means "no target").
 *
 * Strict (default): every entry must be an RLE object that decodes, all of the same size; the first
 * failure throws an RleError whose `instance` is its position. Not strict (the official
 * behaviour): entries that are not objects, that fail to decode, or whose size differs from the
 * first decoded instance are left out (reported through `onSkip`); null when none decodes.
 */
export function decodeRleUnion(rles: unknown, options: RleUnionOptions = {}): BitMask | null {
  const union = readRleUnion(rles, options);
  return union === null ? null : drawRleUnion(union);
}
