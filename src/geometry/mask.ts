/**
 * Binary masks for region scoring (EPIC-Bench localization and path scores).
 *
 * A `BitMask` is a packed bitset, row-major: pixel (x, y) is bit `x & 31` of word
 * `y * stride + (x >>> 5)`, with `stride = ceil(width / 32)`. Each row starts on a fresh word and the
 * padding bits past `width` are always zero, so whole-word operations (union, popcount, overlap
 * counts) need no masking. Pixel coordinates are integer indices: x is the column, y the row, as in
 * numpy's `mask[y, x]`.
 *
 * The official-semantics helpers mirror `epic_eval/utils/masks.py` of the EPIC-Bench evaluator:
 * - `BitMask.fromBoxes` is `bboxes_to_mask` (each corner truncated toward zero like Python `int()`,
 *   clipped with max(0, ·) / min(W or H, ·), exclusive end, zero-area boxes dropped; boxes with
 *   fewer than 4 numbers skipped). Corners are not sorted here: callers sort them first, as the
 *   official `normalize_bboxes` does.
 * - `iou` is `mask_iou` (a missing mask or a shape mismatch gives 0; both empty gives 1).
 * - `containsPoint` is the pixel lookup of the official path scorer: `mask[int(round(y)), int(round(x))]`
 *   with Python's round-half-to-even.
 */
import { labelComponents, type Connectivity } from "./components.js";

/** A pixel box `[x1, y1, x2, y2]` with exclusive ends: columns x1..x2-1, rows y1..y2-1. */
export type PixelBox = [x1: number, y1: number, x2: number, y2: number];

/** Anything `fromBoxes` accepts as one box: at least 4 numbers, extra entries ignored. */
export type BoxLike = ArrayLike<number>;

function checkDimension(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`mask ${name} must be a non-negative integer, got ${value}`);
}

/** Number of set bits in a 32-bit word. */
export function popcount32(v: number): number {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Index of the lowest set bit of a non-zero 32-bit word. */
function lowestBit(v: number): number {
  return 31 - Math.clz32(v & -v);
}

/** Python's round(v) for a finite float: nearest integer, ties to even. */
export function roundHalfEven(v: number): number {
  const f = Math.floor(v);
  const d = v - f;
  if (d < 0.5) return f;
  if (d > 0.5) return f + 1;
  return f % 2 === 0 ? f : f + 1;
}

/** Python int() of a float: truncation toward zero; non-finite values raise in Python, so throw. */
function pyIntOfFloat(v: number, what: string): number {
  if (!Number.isFinite(v)) throw new RangeError(`${what} is not a finite number: ${v}`);
  return Math.trunc(v) + 0; // + 0 turns -0 into 0
}

export class BitMask {
  readonly width: number;
  readonly height: number;
  /** Words per row. */
  readonly stride: number;
  /** The bits, row-major, `stride` words per row; padding bits past `width` are zero. */
  readonly words: Uint32Array;

  /**
   * An empty mask, or a mask over `words` (taken as is, not copied; must hold `stride * height`
   * words; padding bits are cleared).
   */
  constructor(width: number, height: number, words?: Uint32Array) {
    checkDimension("width", width);
    checkDimension("height", height);
    this.width = width;
    this.height = height;
    this.stride = (width + 31) >>> 5;
    const n = this.stride * height;
    if (words === undefined) {
      this.words = new Uint32Array(n);
    } else {
      if (words.length !== n) throw new RangeError(`a ${width}x${height} mask needs ${n} words, got ${words.length}`);
      this.words = words;
      this.clearPadding();
    }
  }

  private clearPadding(): void {
    const tail = this.width & 31;
    if (tail === 0) return;
    const keep = (-1 >>> (32 - tail)) >>> 0;
    for (let i = this.stride - 1; i < this.words.length; i += this.stride) this.words[i]! &= keep;
  }

  /** From row-major values (index y * width + x); any non-zero value is a set pixel. */
  static fromUint8(data: ArrayLike<number>, width: number, height: number): BitMask {
    const m = new BitMask(width, height);
    if (data.length !== width * height) throw new RangeError(`expected ${width * height} values for ${width}x${height}, got ${data.length}`);
    const { stride, words } = m;
    for (let y = 0; y < height; y++) {
      const src = y * width;
      const dst = y * stride;
      for (let x = 0; x < width; x++) if (data[src + x]) words[dst + (x >>> 5)]! |= 1 << (x & 31);
    }
    return m;
  }

  /** Set where `predicate(x, y)` is true; called once per pixel in raster order. */
  static fromPredicate(width: number, height: number, predicate: (x: number, y: number) => boolean): BitMask {
    const m = new BitMask(width, height);
    const { stride, words } = m;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) if (predicate(x, y)) words[y * stride + (x >>> 5)]! |= 1 << (x & 31);
    }
    return m;
  }

  /**
   * The union of boxes rasterised as the official `bboxes_to_mask`: for `[x1, y1, x2, y2, ...]`,
   * `x1 = max(0, int(x1))`, `y1 = max(0, int(y1))`, `x2 = min(width, int(x2))`,
   * `y2 = min(height, int(y2))` (int() truncates toward zero), then the pixels
   * `x1 <= x < x2, y1 <= y < y2` if that is non-empty. Entries that are null or hold fewer than 4
   * numbers are skipped (as the official code does); a non-finite coordinate throws (Python's int()
   * raises on it). Reversed corners give an empty box: sort them before calling.
   */
  static fromBoxes(boxes: Iterable<BoxLike | null | undefined>, width: number, height: number): BitMask {
    const m = new BitMask(width, height);
    for (const b of boxes) {
      if (!b || b.length < 4) continue;
      const x1 = Math.max(0, pyIntOfFloat(b[0]!, "box x1"));
      const y1 = Math.max(0, pyIntOfFloat(b[1]!, "box y1"));
      const x2 = Math.min(width, pyIntOfFloat(b[2]!, "box x2"));
      const y2 = Math.min(height, pyIntOfFloat(b[3]!, "box y2"));
      if (x2 > x1 && y2 > y1) m.fillBox(x1, y1, x2, y2);
    }
    return m;
  }

  /** True when (x, y) is an integer pixel inside the mask and set; false anywhere else. */
  get(x: number, y: number): boolean {
    if (!(x >= 0 && x < this.width && y >= 0 && y < this.height) || !Number.isInteger(x) || !Number.isInteger(y)) return false;
    return ((this.words[y * this.stride + (x >>> 5)]! >>> (x & 31)) & 1) === 1;
  }

  /** Set or clear one pixel; throws outside the mask. Returns this. */
  set(x: number, y: number, value = true): this {
    if (!(Number.isInteger(x) && Number.isInteger(y) && x >= 0 && x < this.width && y >= 0 && y < this.height)) {
      throw new RangeError(`pixel (${x}, ${y}) is outside the ${this.width}x${this.height} mask`);
    }
    const i = y * this.stride + (x >>> 5);
    if (value) this.words[i]! |= 1 << (x & 31);
    else this.words[i]! &= ~(1 << (x & 31));
    return this;
  }

  /**
   * The official path scorer's lookup for a continuous point: the pixel at row `round(y)`, column
   * `round(x)` (Python round, ties to even), false outside. Throws on non-finite coordinates
   * (Python's int(round(nan)) raises).
   */
  containsPoint(x: number, y: number): boolean {
    if (!Number.isFinite(x) || !Number.isFinite(y)) throw new RangeError(`point (${x}, ${y}) is not finite`);
    return this.get(roundHalfEven(x) + 0, roundHalfEven(y) + 0);
  }

  /**
   * Set every pixel of the box `x1 <= x < x2, y1 <= y < y2` after clipping it to the mask; nothing
   * happens for an empty box. Corners must be integers (throws otherwise). Returns this.
   */
  fillBox(x1: number, y1: number, x2: number, y2: number): this {
    if (!(Number.isInteger(x1) && Number.isInteger(y1) && Number.isInteger(x2) && Number.isInteger(y2))) {
      throw new RangeError(`fillBox needs integer corners, got [${x1}, ${y1}, ${x2}, ${y2}]`);
    }
    x1 = Math.max(0, x1);
    y1 = Math.max(0, y1);
    x2 = Math.min(this.width, x2);
    y2 = Math.min(this.height, y2);
    if (!(x2 > x1 && y2 > y1)) return this;
    const w0 = x1 >>> 5;
    const w1 = (x2 - 1) >>> 5;
    const first = (-1 << (x1 & 31)) >>> 0;
    const last = (-1 >>> (31 - ((x2 - 1) & 31))) >>> 0;
    const { stride, words } = this;
    for (let y = y1; y < y2; y++) {
      const row = y * stride;
      if (w0 === w1) {
        words[row + w0]! |= first & last;
      } else {
        words[row + w0]! |= first;
        for (let w = w0 + 1; w < w1; w++) words[row + w] = 0xffffffff;
        words[row + w1]! |= last;
      }
    }
    return this;
  }

  /** Number of set pixels. */
  count(): number {
    const words = this.words;
    let n = 0;
    for (let i = 0; i < words.length; i++) {
      const v = words[i]!;
      if (v !== 0) n += popcount32(v);
    }
    return n;
  }

  isEmpty(): boolean {
    const words = this.words;
    for (let i = 0; i < words.length; i++) if (words[i] !== 0) return false;
    return true;
  }

  sameShape(other: BitMask): boolean {
    return this.width === other.width && this.height === other.height;
  }

  private requireSameShape(other: BitMask, op: string): void {
    if (!this.sameShape(other)) {
      throw new RangeError(`${op}: mask shapes differ (${this.width}x${this.height} vs ${other.width}x${other.height})`);
    }
  }

  /** In place: this |= other. Throws when the shapes differ. Returns this. */
  union(other: BitMask): this {
    this.requireSameShape(other, "union");
    const a = this.words;
    const b = other.words;
    for (let i = 0; i < a.length; i++) a[i]! |= b[i]!;
    return this;
  }

  /** In place: this &= other. Throws when the shapes differ. Returns this. */
  intersect(other: BitMask): this {
    this.requireSameShape(other, "intersect");
    const a = this.words;
    const b = other.words;
    for (let i = 0; i < a.length; i++) a[i]! &= b[i]!;
    return this;
  }

  /** In place: this &= ~other. Throws when the shapes differ. Returns this. */
  subtract(other: BitMask): this {
    this.requireSameShape(other, "subtract");
    const a = this.words;
    const b = other.words;
    for (let i = 0; i < a.length; i++) a[i]! &= ~b[i]!;
    return this;
  }

  clone(): BitMask {
    return new BitMask(this.width, this.height, this.words.slice());
  }

  /** Same shape and same pixels. */
  equals(other: BitMask): boolean {
    if (!this.sameShape(other)) return false;
    const a = this.words;
    const b = other.words;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  /** Row-major 0/1 bytes (index y * width + x). */
  toUint8(): Uint8Array {
    const { width, height, stride, words } = this;
    const out = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      const row = y * stride;
      const dst = y * width;
      for (let x = 0; x < width; x++) out[dst + x] = (words[row + (x >>> 5)]! >>> (x & 31)) & 1;
    }
    return out;
  }

  /**
   * Calls `fn(y, x1, x2)` for every horizontal run of set pixels (columns x1..x2-1 of row y), in
   * raster order.
   */
  forEachRun(fn: (y: number, x1: number, x2: number) => void): void {
    const { width, height, stride, words } = this;
    for (let y = 0; y < height; y++) {
      const row = y * stride;
      let start = -1;
      for (let wi = 0; wi < stride; wi++) {
        const v = words[row + wi]!;
        const base = wi << 5;
        if (start < 0 ? v === 0 : v === 0xffffffff) continue;
        let bit = 0;
        for (;;) {
          if (start < 0) {
            const rest = v & (-1 << bit);
            if (rest === 0) break;
            bit = lowestBit(rest);
            start = base + bit;
          } else {
            const rest = ~v & (-1 << bit);
            if (rest === 0) break;
            bit = lowestBit(rest);
            fn(y, start, base + bit);
            start = -1;
          }
        }
      }
      if (start >= 0) fn(y, start, width);
    }
  }

  /** Calls `fn(x, y)` for every set pixel, in raster order. */
  forEachPixel(fn: (x: number, y: number) => void): void {
    const { height, stride, words } = this;
    for (let y = 0; y < height; y++) {
      const row = y * stride;
      for (let wi = 0; wi < stride; wi++) {
        let v = words[row + wi]!;
        while (v !== 0) {
          const b = lowestBit(v);
          fn((wi << 5) + b, y);
          v &= v - 1;
        }
      }
    }
  }

  /** The box around all set pixels (exclusive ends), or null for an empty mask. */
  bounds(): PixelBox | null {
    let x1 = Infinity;
    let y1 = Infinity;
    let x2 = -Infinity;
    let y2 = -Infinity;
    this.forEachRun((y, a, b) => {
      if (y < y1) y1 = y;
      y2 = y + 1;
      if (a < x1) x1 = a;
      if (b > x2) x2 = b;
    });
    return x2 < 0 ? null : [x1, y1, x2, y2];
  }

  /**
   * The box (exclusive ends) of every connected component, in the order scipy.ndimage.label numbers
   * them (raster order of each component's first pixel). 4-connectivity by default, as
   * scipy.ndimage.label's default structure in 2-D. `BitMask.fromBoxes(mask.boundingBoxes(), w, h)`
   * covers the mask.
   */
  boundingBoxes(connectivity: Connectivity = 4): PixelBox[] {
    return labelComponents(this, connectivity).components.map((c) => c.box);
  }
}

/** Set pixels in both masks. Throws when the shapes differ. */
export function intersectionCount(a: BitMask, b: BitMask): number {
  return overlapCounts(a, b).intersection;
}

/** Set pixels in either mask. Throws when the shapes differ. */
export function unionCount(a: BitMask, b: BitMask): number {
  return overlapCounts(a, b).union;
}

/** Intersection and union pixel counts in one pass. Throws when the shapes differ. */
export function overlapCounts(a: BitMask, b: BitMask): { intersection: number; union: number } {
  if (!a.sameShape(b)) throw new RangeError(`mask shapes differ (${a.width}x${a.height} vs ${b.width}x${b.height})`);
  const wa = a.words;
  const wb = b.words;
  let inter = 0;
  let uni = 0;
  for (let i = 0; i < wa.length; i++) {
    const x = wa[i]!;
    const y = wb[i]!;
    const o = x | y;
    if (o === 0) continue;
    uni += popcount32(o);
    const n = x & y;
    if (n !== 0) inter += popcount32(n);
  }
  return { intersection: inter, union: uni };
}

/**
 * Intersection over union with the official `mask_iou` rules: a missing mask (null/undefined) or
 * masks of different shapes give 0; two empty masks give 1; otherwise |A∩B| / |A∪B| (one float
 * division of the two integer counts, as Python's float(inter) / float(union)).
 */
export function iou(a: BitMask | null | undefined, b: BitMask | null | undefined): number {
  if (!a || !b || !a.sameShape(b)) return 0;
  const { intersection, union } = overlapCounts(a, b);
  if (union === 0) return 1;
  return intersection / union;
}
