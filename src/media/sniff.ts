/**
 * What a media file is, read from its first bytes (magic numbers), never from its name: a text
 * file called `frame.png` is not an image, and a JPEG called `view.png` is sent as image/jpeg.
 */
import type { Part } from "../core/types.js";

export type MediaKind = "image" | "video";

export interface SniffedMedia {
  kind: MediaKind;
  /** The IANA media type the bytes are. */
  type: string;
}

/** Bytes read from the head of a file: enough for every signature below (MPEG-TS needs 189). */
export const SNIFF_BYTES = 256;

/** The image types every provider accepts inline (OpenAI, Anthropic and Gemini alike). */
export const SENDABLE_IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

const ascii = (head: Buffer, start: number, end: number) => head.subarray(start, end).toString("latin1");
const startsWith = (head: Buffer, bytes: readonly number[], offset = 0) => head.length >= offset + bytes.length && bytes.every((b, i) => head[offset + i] === b);

/** The sizes a BMP's DIB header can have (BITMAPCOREHEADER .. BITMAPV5HEADER). */
const BMP_HEADER_SIZES = new Set([12, 40, 52, 56, 64, 108, 124]);

/** ISO base-media brands that are still pictures (AVIF, HEIF), not videos. */
const IMAGE_BRANDS = new Set(["avif", "avis", "heic", "heix", "heim", "heis", "mif1", "msf1"]);

/** The media in `head` (the first bytes of a file), or undefined when no known signature matches. */
export function sniffMedia(head: Buffer): SniffedMedia | undefined {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { kind: "image", type: "image/png" };
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { kind: "image", type: "image/jpeg" };
  if (ascii(head, 0, 6) === "GIF87a" || ascii(head, 0, 6) === "GIF89a") return { kind: "image", type: "image/gif" };
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 12) === "WEBP") return { kind: "image", type: "image/webp" };
  if (ascii(head, 0, 2) === "BM" && head.length >= 18 && BMP_HEADER_SIZES.has(head.readUInt32LE(14))) return { kind: "image", type: "image/bmp" };
  if (ascii(head, 4, 8) === "ftyp") {
    const brand = ascii(head, 8, 12);
    if (IMAGE_BRANDS.has(brand)) return { kind: "image", type: brand.startsWith("avi") ? "image/avif" : "image/heif" };
    return { kind: "video", type: brand === "qt  " ? "video/quicktime" : "video/mp4" };
  }
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return { kind: "video", type: head.includes("webm", 0, "latin1") ? "video/webm" : "video/x-matroska" };
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 12) === "AVI ") return { kind: "video", type: "video/x-msvideo" };
  if (ascii(head, 0, 4) === "OggS") return { kind: "video", type: "video/ogg" };
  if (ascii(head, 0, 3) === "FLV") return { kind: "video", type: "video/x-flv" };
  if (startsWith(head, [0x00, 0x00, 0x01, 0xba])) return { kind: "video", type: "video/mpeg" };
  if (head[0] === 0x47 && head[188] === 0x47) return { kind: "video", type: "video/mp2t" };
  return undefined;
}

/**
 * Why a file's head is not the media `expected` (undefined when it is). The wording names the
 * file's kind, never its content.
 */
export function mediaMismatch(head: Buffer, expected: MediaKind): string | undefined {
  if (head.length === 0) return "is empty";
  const found = sniffMedia(head);
  if (expected === "image") {
    if (found?.kind === "image" && (SENDABLE_IMAGE_TYPES as readonly string[]).includes(found.type)) return undefined;
    return found ? `is ${found.type}, not a PNG, JPEG, GIF or WebP image` : "is not an image (its bytes are not PNG, JPEG, GIF or WebP)";
  }
  if (found?.kind === "video") return undefined;
  return found ? `is ${found.type}, not a video` : "is not a video (its bytes match no known container: MP4/MOV, Matroska/WebM, AVI, Ogg, FLV, MPEG)";
}

export class MediaContentError extends Error {}

/** An inline image part whose media type comes from the bytes; throws MediaContentError for anything else. */
export function imagePart(bytes: Buffer, source: string): Part & { type: "image" } {
  const problem = mediaMismatch(bytes.subarray(0, SNIFF_BYTES), "image");
  if (problem) throw new MediaContentError(`${source} ${problem}`);
  return { type: "image", mediaType: sniffMedia(bytes)!.type, base64: bytes.toString("base64"), source };
}
