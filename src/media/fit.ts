/**
 * Fit one image to a budget before it is sent: a pure function of (bytes, budget). The same
 * input and budget give the same bytes (for a given sharp/libvips build), so the request hash of
 * a shaped request is stable and a resumed run finds its stored replies.
 *
 * The rule, in order:
 * 1. Size: the longest side is brought down to `maxSide` (the other side rounded, at least 1 px),
 *    then the area to `maxPixels` (frames.ts fitWithin: floor of both sides); never up, aspect
 *    kept. `keepSize` leaves the size alone (the scorer reads pixel coordinates in this frame).
 * 2. Encoding: "png" / "jpeg" (at `jpegQuality`); "keep" sends the bytes untouched when no resize
 *    is needed, the type is one every provider takes and the bytes fit, and otherwise re-encodes
 *    a JPEG as JPEG and anything else as PNG. JPEG output is flattened on white (no alpha).
 * 3. Bytes: when the result is over `maxBytes` (counted as `countBytes` says), a fixed ladder is
 *    tried until one fits: JPEG at the asked quality, then at 75, 60, 45 (only those below the
 *    asked quality); then, unless keepSize, the fitted size scaled by 0.75, 0.5, 0.35, 0.25,
 *    0.18, 0.125 as JPEG at min(quality, 75). When nothing fits, the smallest result is returned
 *    with `overBudget` set; the caller decides (models/shape.ts records a limit error).
 */
import sharp from "sharp";
import { fitWithin } from "./frames.js";
import { PNG_OPTIONS } from "./png.js";
import { SENDABLE_IMAGE_TYPES, sniffMedia } from "./sniff.js";

export type ImageFormat = "png" | "jpeg" | "keep";
export type ByteCounting = "base64" | "raw";

/** A budget as a benchmark or a user states it (every field optional). */
export interface ImageBudgetSpec {
  /** Longest side in pixels. */
  maxSide?: number;
  /** Width x height in pixels. */
  maxPixels?: number;
  format?: ImageFormat;
  /** 1..100, used when JPEG is written (default 85). */
  jpegQuality?: number;
  /** Never change the pixel size: answers are pixel coordinates of the image as stored. */
  keepSize?: boolean;
}

/** The budget one image is fitted to. */
export interface ImageBudget {
  maxSide?: number;
  maxPixels?: number;
  format: ImageFormat;
  jpegQuality: number;
  maxBytes?: number;
  countBytes: ByteCounting;
  keepSize?: boolean;
}

export interface ImageFacts {
  width: number;
  height: number;
  /** Raw bytes of the image file. */
  bytes: number;
  mediaType: string;
}

export interface FittedImage {
  bytes: Buffer;
  mediaType: string;
  width: number;
  height: number;
  original: ImageFacts;
  /** "none", or what was done, e.g. "resize 1280x720->768x432, jpeg q85". */
  transform: string;
  /** Set when no step of the ladder fits maxBytes (`bytes` counted as the budget counts). */
  overBudget?: { bytes: number; maxBytes: number };
}

export const DEFAULT_JPEG_QUALITY = 85;

/** Qualities tried after the asked one (only those below it). */
const QUALITY_STEPS = [75, 60, 45] as const;
/** Scale factors tried after the quality steps, on the fitted size. */
const SCALE_STEPS = [0.75, 0.5, 0.35, 0.25, 0.18, 0.125] as const;
/** The JPEG quality used with the scale steps (at most the asked one). */
const SCALE_STEP_QUALITY = 75;

/** Fixed JPEG encoder settings: same pixels, same bytes. */
const JPEG_OPTIONS = Object.freeze({ chromaSubsampling: "4:2:0", mozjpeg: false, progressive: false, optimiseCoding: true });

/** Base64 length of `raw` bytes (RFC 4648, padded). */
export function base64Length(raw: number): number {
  return 4 * Math.ceil(raw / 3);
}

/** The largest base64 length whose decoded bytes stay within `raw` bytes. */
export function base64WithinRaw(raw: number): number {
  return 4 * Math.floor(raw / 3);
}

export function countedBytes(raw: number, counting: ByteCounting): number {
  return counting === "base64" ? base64Length(raw) : raw;
}

/** The size an image of width x height is brought to (rule 1 above). */
export function targetSize(width: number, height: number, limits: { maxSide?: number; maxPixels?: number }): [number, number] {
  let w = width;
  let h = height;
  const side = limits.maxSide;
  if (side !== undefined && Math.max(w, h) > side) {
    if (w >= h) {
      h = Math.max(1, Math.round((h * side) / w));
      w = side;
    } else {
      w = Math.max(1, Math.round((w * side) / h));
      h = side;
    }
  }
  if (limits.maxPixels !== undefined) {
    const fit = fitWithin(w, h, limits.maxPixels);
    if (fit) [w, h] = fit;
  }
  return [w, h];
}

function checkBudget(budget: ImageBudget): void {
  const positive = (name: string, v: number | undefined) => {
    if (v !== undefined && !(Number.isInteger(v) && v >= 1)) throw new RangeError(`image budget: ${name} must be a whole number >= 1 (got ${v})`);
  };
  positive("maxSide", budget.maxSide);
  positive("maxPixels", budget.maxPixels);
  positive("maxBytes", budget.maxBytes);
  if (!(Number.isInteger(budget.jpegQuality) && budget.jpegQuality >= 1 && budget.jpegQuality <= 100)) {
    throw new RangeError(`image budget: jpegQuality must be a whole number 1..100 (got ${budget.jpegQuality})`);
  }
  if (!["png", "jpeg", "keep"].includes(budget.format)) throw new RangeError(`image budget: format must be png, jpeg or keep (got ${String(budget.format)})`);
}

interface Step {
  width: number;
  height: number;
  encoding: "png" | "jpeg";
  quality: number;
}

/** The steps tried, in order (rule 2 then rule 3). */
function ladder(width: number, height: number, primary: "png" | "jpeg", budget: ImageBudget): Step[] {
  const q = budget.jpegQuality;
  const steps: Step[] = [{ width, height, encoding: primary, quality: q }];
  if (primary === "png") steps.push({ width, height, encoding: "jpeg", quality: q });
  for (const lower of QUALITY_STEPS) if (lower < q) steps.push({ width, height, encoding: "jpeg", quality: lower });
  if (!budget.keepSize) {
    const quality = Math.min(q, SCALE_STEP_QUALITY);
    for (const s of SCALE_STEPS) {
      steps.push({ width: Math.max(1, Math.round(width * s)), height: Math.max(1, Math.round(height * s)), encoding: "jpeg", quality });
    }
  }
  return steps;
}

/** Fit `bytes` (any image sharp reads) to `budget`. Throws for bytes that are not a readable image. */
export async function fitImage(bytes: Buffer, budget: ImageBudget): Promise<FittedImage> {
  checkBudget(budget);
  const meta = await sharp(bytes).metadata();
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) throw new Error("image has no dimensions");
  const mediaType = sniffMedia(bytes)?.type ?? `image/${meta.format}`;
  const original: ImageFacts = { width, height, bytes: bytes.length, mediaType };
  const fits = (raw: number) => budget.maxBytes === undefined || countedBytes(raw, budget.countBytes) <= budget.maxBytes;

  const [tw, th] = budget.keepSize ? [width, height] : targetSize(width, height, budget);
  const resized = tw !== width || th !== height;
  const sendable = (SENDABLE_IMAGE_TYPES as readonly string[]).includes(mediaType);
  if (budget.format === "keep" && !resized && sendable && fits(bytes.length)) {
    return { bytes, mediaType, width, height, original, transform: "none" };
  }

  // Decode once (orientation applied, sRGB, 8 bits, alpha kept for PNG); every step encodes from it.
  const decoded = await sharp(bytes).autoOrient().toColourspace("srgb").raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  const raw = { width: decoded.info.width, height: decoded.info.height, channels: decoded.info.channels };
  const encode = async (step: Step): Promise<Buffer> => {
    let image = sharp(decoded.data, { raw });
    if (step.width !== raw.width || step.height !== raw.height) image = image.resize(step.width, step.height, { fit: "fill", kernel: "lanczos3" });
    if (step.encoding === "jpeg") return image.flatten({ background: "#ffffff" }).jpeg({ quality: step.quality, ...JPEG_OPTIONS }).toBuffer();
    return image.png(PNG_OPTIONS).toBuffer();
  };

  const primary = budget.format === "keep" ? (mediaType === "image/jpeg" ? "jpeg" : "png") : budget.format;
  const steps = ladder(tw, th, primary, budget);
  let smallest: { step: Step; out: Buffer } | undefined;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    const out = await encode(step);
    if (fits(out.length)) return result(step, out, i > 0);
    if (!smallest || out.length < smallest.out.length) smallest = { step, out };
  }
  // Without a byte budget the first step always fits, so only an over-budget image gets here.
  const over = result(smallest!.step, smallest!.out, true);
  return { ...over, overBudget: { bytes: countedBytes(smallest!.out.length, budget.countBytes), maxBytes: budget.maxBytes! } };

  function result(step: Step, out: Buffer, stepped: boolean): FittedImage {
    const parts: string[] = [];
    if (step.width !== width || step.height !== height) parts.push(`resize ${width}x${height}->${step.width}x${step.height}`);
    parts.push(step.encoding === "jpeg" ? `jpeg q${step.quality}` : "png");
    if (stepped) parts.push(`stepped down for a ${budget.maxBytes} byte budget (${budget.countBytes})`);
    return {
      bytes: out,
      mediaType: step.encoding === "jpeg" ? "image/jpeg" : "image/png",
      width: step.width,
      height: step.height,
      original,
      transform: parts.join(", "),
    };
  }
}
