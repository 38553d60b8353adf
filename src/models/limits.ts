/**
 * What each provider documents it accepts in one request with images, as one table. Request
 * shaping (models/shape.ts) fits every request inside these before it is sent, so that what
 * cannot fit is a recorded error for that item instead of a 400 from the server.
 *
 * Units: "MB" in the providers' pages is read as 10^6 bytes, the smaller reading, so a request
 * within it is within the binary reading (2^20) too. Byte counts say what they count:
 * - "base64": the length of the base64 text of the image, as it travels inline in the JSON body;
 * - "raw": the image file's own bytes;
 * - "body": the whole JSON request body (base64 images, text and field names).
 * Where a page leaves the count open, the larger count (base64 / body) is used, so the check is
 * never looser than the provider's.
 */

export type LimitProvider = "openai" | "anthropic" | "gemini";
export type ByteCount = "base64" | "raw";

export interface RequestLimits {
  provider: LimitProvider;
  /** The provider's name as shown in messages ("Anthropic allows at most ..."). */
  name: string;
  /** Largest single image, or null when the provider documents no per-image size. */
  imageBytes: { max: number; counts: ByteCount; source: string } | null;
  /** Longest side any image may have, or null when none is documented (the server scales down). */
  maxSide: { px: number; source: string } | null;
  /** A tighter side limit that applies when a request holds more than `moreThan` images. */
  manyImages: { moreThan: number; maxSide: number; source: string } | null;
  /** Most images one request may hold. */
  maxImages: { count: number; source: string };
  /** Largest request, counted over the whole JSON body. */
  requestBytes: { max: number; counts: "body"; source: string };
  /** What the table leaves out or reads in a particular way. */
  notes: string[];
}

const MB = 1_000_000;

const OPENAI_VISION = "https://platform.openai.com/docs/guides/images-vision#image-input-requirements";
const ANTHROPIC_VISION = "https://platform.claude.com/docs/en/build-with-claude/vision#evaluate-image-size";
const ANTHROPIC_REQUEST_SIZE = "https://platform.claude.com/docs/en/api/overview#request-size-limits";
const GEMINI_IMAGES = "https://ai.google.dev/gemini-api/docs/image-understanding";

export const PROVIDER_LIMITS: Record<LimitProvider, RequestLimits> = {
  openai: {
    provider: "openai",
    name: "OpenAI",
    // "Up to 20MB per image": the page does not say raw or base64; counted as base64 (the stricter).
    imageBytes: { max: 20 * MB, counts: "base64", source: OPENAI_VISION },
    // No side is rejected: high-detail images are scaled server-side (2048 square, then 768 short side).
    maxSide: null,
    manyImages: null,
    // "Up to 500 individual image inputs per request".
    maxImages: { count: 500, source: OPENAI_VISION },
    // "Up to 50 MB total payload size per request" (earlier wording: "50 MB image bytes per request").
    requestBytes: { max: 50 * MB, counts: "body", source: OPENAI_VISION },
    notes: ["no per-side limit is documented: larger images are scaled down by the server, not rejected"],
  },
  anthropic: {
    provider: "anthropic",
    name: "Anthropic",
    // The API rejects an image whose base64 data is over 5 MB.
    imageBytes: { max: 5 * MB, counts: "base64", source: ANTHROPIC_VISION },
    // "Images larger than 8000x8000 px will be rejected."
    maxSide: { px: 8000, source: ANTHROPIC_VISION },
    // "If you submit more than 20 images in one API request, this limit is 2000x2000 px."
    manyImages: { moreThan: 20, maxSide: 2000, source: ANTHROPIC_VISION },
    // "up to 100 images in a single request" on the API (claude.ai allows 20).
    maxImages: { count: 100, source: ANTHROPIC_VISION },
    // Messages API requests are limited to 32 MB.
    requestBytes: { max: 32 * MB, counts: "body", source: ANTHROPIC_REQUEST_SIZE },
    notes: ["the 2000 px rule applies to every image of a request that holds more than 20"],
  },
  gemini: {
    provider: "gemini",
    name: "Gemini",
    // No per-image size beyond the request total for inline data.
    imageBytes: null,
    // No side limit is documented: large images are scaled down by the server.
    maxSide: null,
    manyImages: null,
    // "Gemini supports a maximum of 3,600 image files per request."
    maxImages: { count: 3600, source: GEMINI_IMAGES },
    // Inline data: "the total request size limit is 20MB", text prompts and system instructions included.
    requestBytes: { max: 20 * MB, counts: "body", source: GEMINI_IMAGES },
    notes: ["no per-image byte or per-side limit is documented for inline images; only the 20 MB request total applies"],
  },
};

/** "5 MB" for 5 000 000, "1.25 MB" for 1 250 000, "812 kB" below 1 MB (decimal units, as the table). */
export function formatBytes(bytes: number): string {
  if (bytes >= MB) return `${Number((bytes / MB).toFixed(2))} MB`;
  if (bytes >= 1000) return `${Number((bytes / 1000).toFixed(1))} kB`;
  return `${bytes} B`;
}

/**
 * The table as Markdown (header, separator and one row per provider), for the README and notes.
 * Every value is followed by the page it comes from.
 */
export function limitsTable(limits: readonly RequestLimits[] = Object.values(PROVIDER_LIMITS)): string {
  const link = (url: string) => `[source](${url})`;
  const rows = limits.map((l) => {
    const image = l.imageBytes ? `${formatBytes(l.imageBytes.max)} (${l.imageBytes.counts}) ${link(l.imageBytes.source)}` : "not documented";
    const side = l.maxSide ? `${l.maxSide.px} px ${link(l.maxSide.source)}` : "not documented (scaled by the server)";
    const many = l.manyImages ? `${l.manyImages.maxSide} px per side when more than ${l.manyImages.moreThan} images ${link(l.manyImages.source)}` : "none";
    const count = `${l.maxImages.count} ${link(l.maxImages.source)}`;
    const request = `${formatBytes(l.requestBytes.max)} (whole body, base64 images) ${link(l.requestBytes.source)}`;
    return `| ${l.name} | ${image} | ${side} | ${many} | ${count} | ${request} |`;
  });
  return [
    "| Provider | Bytes per image | Pixels per side | Many-image rule | Images per request | Request bytes |",
    "|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}
