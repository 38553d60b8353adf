/**
 * The stored width and height of a PNG, JPEG, GIF or WebP image, read from its header without
 * decoding it (synchronous, for data loaders): a few small reads per file, whatever its size.
 * Stored means before any EXIF rotation, as sharp's metadata() reports them.
 *
 * Sources: PNG IHDR (ISO/IEC 15948 §11.2.2); JPEG SOFn segments (ITU-T T.81 §B.2.2); GIF logical
 * screen descriptor (GIF89a §18); WebP VP8 / VP8L / VP8X chunks (RFC 9649 §2.5–2.7).
 */
import { readSync } from "node:fs";
import { openRegularFile } from "../core/file-read.js";

export interface Dimensions {
  width: number;
  height: number;
}

/** JPEG start-of-frame markers (baseline, extended, progressive, lossless; Huffman and arithmetic). */
const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** Markers without a length field: TEM, RSTn, SOI, EOI. */
const STANDALONE = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9);

/** Segments a JPEG header may have before its frame header; a file with more is not read further. */
const MAX_SEGMENTS = 4096;

/** Up to `length` bytes from `position` (fewer at the end). */
type ReadAt = (position: number, length: number) => Buffer;

function fileReader(fd: number): ReadAt {
  return (position, length) => {
    const buffer = Buffer.alloc(length);
    const n = readSync(fd, buffer, 0, length, position);
    return buffer.subarray(0, n);
  };
}

function jpegDimensions(readAt: ReadAt): Dimensions | undefined {
  let position = 2; // after SOI
  for (let segment = 0; segment < MAX_SEGMENTS; segment++) {
    const head = readAt(position, 9);
    if (head.length < 2 || head[0] !== 0xff) return undefined;
    const marker = head[1]!;
    if (marker === 0xff) {
      position += 1; // fill byte
      continue;
    }
    if (STANDALONE(marker)) {
      position += 2;
      continue;
    }
    if (head.length < 4) return undefined;
    if (SOF_MARKERS.has(marker)) {
      if (head.length < 9) return undefined;
      return { width: head.readUInt16BE(7), height: head.readUInt16BE(5) };
    }
    if (marker === 0xda) return undefined; // start of scan before any frame header
    position += 2 + head.readUInt16BE(2);
  }
  return undefined;
}

function webpDimensions(head: Buffer): Dimensions | undefined {
  const chunk = head.toString("latin1", 12, 16);
  if (chunk === "VP8 " && head.length >= 30) return { width: head.readUInt16LE(26) & 0x3fff, height: head.readUInt16LE(28) & 0x3fff };
  if (chunk === "VP8L" && head.length >= 25) {
    const bits = head.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X" && head.length >= 30) return { width: head.readUIntLE(24, 3) + 1, height: head.readUIntLE(27, 3) + 1 };
  return undefined;
}

function headerDimensions(readAt: ReadAt): Dimensions | undefined {
  const head = readAt(0, 32);
  if (head.length >= 24 && head.readUInt32BE(0) === 0x89504e47 && head.toString("latin1", 12, 16) === "IHDR") {
    return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
  }
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return jpegDimensions(readAt);
  if (head.length >= 10 && head.toString("latin1", 0, 3) === "GIF") return { width: head.readUInt16LE(6), height: head.readUInt16LE(8) };
  if (head.length >= 16 && head.toString("latin1", 0, 4) === "RIFF" && head.toString("latin1", 8, 12) === "WEBP") return webpDimensions(head);
  return undefined;
}

/**
 * The image's stored size, or undefined when the header cannot be read as one of the four formats.
 * The file is opened as a dataset file (core/file-read.ts: no link followed, a regular file);
 * throws FileRefusedError otherwise.
 */
export function imageDimensions(file: string): Dimensions | undefined {
  const opened = openRegularFile(file);
  try {
    return headerDimensions(fileReader(opened.fd));
  } finally {
    opened.close();
  }
}

/** The same for an encoded image held in memory (e.g. received over the wire). */
export function bufferImageDimensions(bytes: Buffer): Dimensions | undefined {
  return headerDimensions((position, length) => bytes.subarray(Math.min(position, bytes.length), Math.min(position + length, bytes.length)));
}
