/**
 * Request shaping: before a request goes to a provider, every image is fitted to a budget
 * (media/fit.ts) derived from the benchmark's or user's budget for its kind (picture / frame)
 * and the provider's documented limits (models/limits.ts); then the whole request is checked.
 * What cannot be fitted is an error naming the limit and the values, and nothing is sent.
 *
 * Budget of one image: the kind's budget, with the side capped by the provider's per-side limit
 * (the many-image limit when the request holds more images than its threshold) and the bytes
 * by the provider's per-image limit. Request bytes: the body is estimated as the messages' JSON
 * without the image data plus a fixed allowance for the wire format's own fields, plus each
 * image's base64. When the images do not fit what is left of the request limit, the space is
 * shared out (water filling: images smaller than an equal share keep their size, the larger
 * ones are refitted to the share of what remains).
 *
 * Shaping knows no benchmark: budgets come in as data.
 */
import { canonicalJson } from "../core/hash.js";
import type { Message, Part, SentImage } from "../core/types.js";
import { base64Length, base64WithinRaw, DEFAULT_JPEG_QUALITY, fitImage, type FittedImage, type ImageBudget, type ImageBudgetSpec } from "../media/fit.js";
import { formatBytes, type RequestLimits } from "./limits.js";

export type ImageKind = "picture" | "frame";
export type ImageBudgets = Record<ImageKind, ImageBudgetSpec>;

/** What the user's flags or config set (`--max-pixels`, `--image-format`, `--jpeg-quality`). */
export interface BudgetOverrides {
  maxPixels?: number;
  format?: "png" | "jpeg";
  jpegQuality?: number;
}

export type ShapeResult =
  | { messages: Message[]; images: SentImage[]; /** Estimated request body bytes. */ requestBytes: number }
  | { error: { kind: "limit" | "prompt"; message: string }; images?: SentImage[] };

/** Allowance for the body's own fields (model, settings, roles, extra_body of modest size). */
export const REQUEST_OVERHEAD_BYTES = 16 * 1024;
/** Allowance per image for its wrapper on the wire (data-URL prefix, field names, detail). */
export const IMAGE_OVERHEAD_BYTES = 256;

/**
 * The budgets a run uses: the benchmark's defaults per kind, then the user's overrides for both
 * kinds. A user's --max-pixels replaces the size budget (the default's maxSide too), except for
 * images kept at their size (keepSize: the scorer reads pixel coordinates). Every field is made
 * explicit, so the object recorded in scores.json and hashed into each request key says it all.
 */
export function resolveImageBudgets(defaults: ImageBudgets | undefined, overrides: BudgetOverrides = {}): ImageBudgets {
  const resolve = (kind: ImageKind): ImageBudgetSpec => {
    const base = defaults?.[kind] ?? {};
    const keepSize = base.keepSize === true;
    const size = keepSize ? {} : overrides.maxPixels !== undefined ? { maxPixels: overrides.maxPixels } : { maxSide: base.maxSide, maxPixels: base.maxPixels };
    const spec: ImageBudgetSpec = {
      ...size,
      format: overrides.format ?? base.format ?? "keep",
      jpegQuality: overrides.jpegQuality ?? base.jpegQuality ?? DEFAULT_JPEG_QUALITY,
      ...(keepSize ? { keepSize: true } : {}),
    };
    return Object.fromEntries(Object.entries(spec).filter(([, v]) => v !== undefined)) as ImageBudgetSpec;
  };
  return { picture: resolve("picture"), frame: resolve("frame") };
}

/**
 * The largest cap c with sum(min(size, c)) <= available (Infinity when everything fits as is):
 * sizes below an equal share of what is left are kept, the rest get that share.
 */
export function fairCap(sizes: readonly number[], available: number): number {
  const sorted = [...sizes].sort((a, b) => a - b);
  let remaining = available;
  for (let i = 0; i < sorted.length; i++) {
    const share = remaining / (sorted.length - i);
    if (sorted[i]! > share) return Math.max(0, Math.floor(share));
    remaining -= sorted[i]!;
  }
  return Infinity;
}

/** Bytes of the request body besides the image data (estimate; see the module comment). */
export function nonImageBytes(messages: readonly Message[]): number {
  let images = 0;
  const stripped = messages.map((m) => ({
    role: m.role,
    content: m.content.map((p) => {
      if (p.type !== "image") return p;
      images++;
      return { type: "image", mediaType: p.mediaType };
    }),
  }));
  return Buffer.byteLength(JSON.stringify(stripped)) + REQUEST_OVERHEAD_BYTES + images * IMAGE_OVERHEAD_BYTES;
}

/**
 * A fit as shaping keeps it: `size` is the byte length sent; `encoded` holds the new bytes only
 * when the image was re-encoded (transform "none" sends the base64 it was given), so the fit cache
 * holds no copy of images that go out as they are.
 */
type Fit = Omit<FittedImage, "bytes"> & { size: number; encoded?: Buffer };

function toFit(f: FittedImage): Fit {
  const { bytes, ...facts } = f;
  return { ...facts, size: bytes.length, ...(f.transform !== "none" ? { encoded: bytes } : {}) };
}

interface Slot {
  message: number;
  part: number;
  image: Extract<Part, { type: "image" }>;
  kind: ImageKind;
}

/** Fit every image of `messages` to its budget and the provider's limits; see the module comment. */
export async function shapeMessages(messages: readonly Message[], limits: RequestLimits | undefined, budgets: ImageBudgets): Promise<ShapeResult> {
  const slots: Slot[] = [];
  messages.forEach((m, mi) =>
    m.content.forEach((p, pi) => {
      if (p.type === "image") slots.push({ message: mi, part: pi, image: p, kind: p.kind === "frame" ? "frame" : "picture" });
    }),
  );
  const n = slots.length;
  if (n === 0) return { messages: messages.slice(), images: [], requestBytes: nonImageBytes(messages) };
  const name = limits?.name ?? "the provider";
  const limitError = (message: string, images?: SentImage[]): ShapeResult => ({ error: { kind: "limit", message }, ...(images ? { images } : {}) });

  if (limits && n > limits.maxImages.count) {
    return limitError(`${name} allows at most ${limits.maxImages.count} images per request; this item has ${n}`);
  }
  const many = limits?.manyImages && n > limits.manyImages.moreThan ? limits.manyImages : null;
  const sideCap = many ? Math.min(many.maxSide, limits?.maxSide?.px ?? Infinity) : limits?.maxSide?.px;
  const sideRule = many ? `${sideCap} px per side when a request holds more than ${many.moreThan} images` : `${sideCap} px per side`;
  const perImage = limits?.imageBytes ? (limits.imageBytes.counts === "base64" ? limits.imageBytes.max : base64WithinRaw(limits.imageBytes.max)) : undefined;

  const budgetFor = (kind: ImageKind, maxBytes: number | undefined): ImageBudget => {
    const spec = budgets[kind];
    const side = spec.keepSize ? undefined : minDefined(spec.maxSide, sideCap);
    return {
      ...(side !== undefined ? { maxSide: side } : {}),
      ...(spec.maxPixels !== undefined && !spec.keepSize ? { maxPixels: spec.maxPixels } : {}),
      format: spec.format ?? "keep",
      jpegQuality: spec.jpegQuality ?? DEFAULT_JPEG_QUALITY,
      ...(maxBytes !== undefined ? { maxBytes } : {}),
      countBytes: "base64",
      ...(spec.keepSize ? { keepSize: true } : {}),
    };
  };
  const label = (i: number) => `image ${i + 1} of ${n}${slots[i]!.image.source ? ` (${slots[i]!.image.source})` : ""}`;

  const fitted: Fit[] = [];
  const fitSlot = async (i: number, maxBytes: number | undefined): Promise<Fit | string> => {
    try {
      return await fitCached(slots[i]!.image.base64, budgetFor(slots[i]!.kind, maxBytes));
    } catch (error) {
      return `${label(i)} cannot be read as an image: ${(error as Error).message}`;
    }
  };
  for (let i = 0; i < n; i++) {
    const fit = await fitSlot(i, perImage);
    if (typeof fit === "string") return { error: { kind: "prompt", message: fit }, ...(fitted.length ? { images: sentImages(slots, fitted) } : {}) };
    fitted.push(fit);
  }

  for (let i = 0; i < n; i++) {
    const f = fitted[i]!;
    if (f.overBudget) {
      return limitError(`${name} allows at most ${formatBytes(perImage!)} (base64) per image; ${label(i)} is ${formatBytes(f.overBudget.bytes)} even after shaping (${f.transform})`, sentImages(slots, fitted));
    }
    if (sideCap !== undefined && Math.max(f.width, f.height) > sideCap) {
      // Only images kept at their size get here: the others were resized to the cap.
      return limitError(`${name} allows at most ${sideRule}; ${label(i)} is ${f.width}x${f.height} and is kept at its size (its answers are pixel coordinates)`, sentImages(slots, fitted));
    }
  }

  const fixed = nonImageBytes(messages);
  if (limits) {
    const max = limits.requestBytes.max;
    const available = max - fixed;
    const sizes = fitted.map((f) => base64Length(f.size));
    const cap = fairCap(sizes, available);
    if (cap !== Infinity) {
      if (cap < 1) return limitError(`${name} allows at most ${formatBytes(max)} per request; this item's text alone needs ${formatBytes(fixed)}`, sentImages(slots, fitted));
      for (let i = 0; i < n; i++) {
        if (sizes[i]! <= cap) continue;
        const refit = await fitSlot(i, minDefined(perImage, cap));
        if (typeof refit === "string") return { error: { kind: "prompt", message: refit }, images: sentImages(slots, fitted) };
        fitted[i] = refit;
      }
    }
    const total = fixed + fitted.reduce((sum, f) => sum + base64Length(f.size), 0);
    if (total > max || fitted.some((f) => f.overBudget)) {
      return limitError(`${name} allows at most ${formatBytes(max)} per request; this item's ${n} images and text need ${formatBytes(total)} even at the smallest sizes tried`, sentImages(slots, fitted));
    }
  }

  const shaped: Message[] = messages.map((m) => ({ ...m, content: m.content.slice() }));
  slots.forEach((slot, i) => {
    const f = fitted[i]!;
    const { source, kind } = slot.image;
    shaped[slot.message]!.content[slot.part] = {
      type: "image",
      mediaType: f.mediaType,
      base64: f.transform === "none" ? slot.image.base64 : f.encoded!.toString("base64"),
      ...(source !== undefined ? { source } : {}),
      ...(kind !== undefined ? { kind } : {}),
    };
  });
  const requestBytes = fixed + fitted.reduce((sum, f) => sum + base64Length(f.size), 0);
  return { messages: shaped, images: sentImages(slots, fitted), requestBytes };
}

function sentImages(slots: readonly Slot[], fitted: readonly Fit[]): SentImage[] {
  return fitted.map((f, i) => ({
    ...(slots[i]!.image.source !== undefined ? { source: slots[i]!.image.source } : {}),
    kind: slots[i]!.kind,
    original: { width: f.original.width, height: f.original.height, bytes: f.original.bytes, media_type: f.original.mediaType },
    sent: { width: f.width, height: f.height, bytes: f.size, media_type: f.mediaType },
    transform: f.transform,
  }));
}

function minDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}

/**
 * fitImage is pure, so its results can be shared: items of one VCN house or one EgoTL clip send
 * the same frames. Bounded by the bytes it holds (oldest entry dropped first); a failed fit is
 * not kept.
 */
const FIT_CACHE_BYTES = 128 * 1024 * 1024;
const fitCache = new Map<string, { fit: Promise<Fit>; bytes: number }>();
/** What an entry without encoded bytes counts for (its facts and key), so their number stays bounded too. */
const FIT_ENTRY_BYTES = 1024;
let fitCacheBytes = 0;

/**
 * An id per distinct recent base64 content, for the fit cache's key. Map keys compare strings by
 * content, so equal images get the same id without hashing megabytes: a lookup of the same string
 * object is constant time, an equal copy costs one comparison (V8 hashes long strings by length).
 * A navigation episode sends the same prior-video strings in every decision. Bounded by characters
 * held; an image dropped from it gets a new id when it comes back (its old fits age out).
 */
const IMAGE_ID_CHARS = 64 * 1024 * 1024;
const imageIds = new Map<string, number>();
let imageIdChars = 0;
let nextImageId = 0;

function imageIdOf(base64: string): number {
  const known = imageIds.get(base64);
  if (known !== undefined) return known;
  const id = nextImageId++;
  imageIds.set(base64, id);
  imageIdChars += base64.length;
  for (const [k] of imageIds) {
    if (imageIdChars <= IMAGE_ID_CHARS) break;
    imageIds.delete(k);
    imageIdChars -= k.length;
  }
  return id;
}

function fitCached(base64: string, budget: ImageBudget): Promise<Fit> {
  const key = `${imageIdOf(base64)}\0${canonicalJson(budget)}`;
  const hit = fitCache.get(key);
  if (hit) {
    fitCache.delete(key); // most recently used goes last
    fitCache.set(key, hit);
    return hit.fit;
  }
  const entry = { fit: fitImage(Buffer.from(base64, "base64"), budget).then(toFit), bytes: 0 };
  fitCache.set(key, entry);
  entry.fit.then(
    (f) => {
      if (fitCache.get(key) !== entry) return;
      entry.bytes = f.encoded?.length ?? FIT_ENTRY_BYTES;
      fitCacheBytes += entry.bytes;
      for (const [k, e] of fitCache) {
        if (fitCacheBytes <= FIT_CACHE_BYTES) break;
        fitCache.delete(k);
        fitCacheBytes -= e.bytes;
      }
    },
    () => {
      if (fitCache.get(key) === entry) fitCache.delete(key);
    },
  );
  return entry.fit;
}
