/**
 * How a dataset fuzz case changes a seed: one field of one document set to an extreme
 * (extremes.ts), one document replaced by a malformed one, or one file replaced whole (a link out of
 * the root, a FIFO, a folder, garbage, a header claiming 1e9 x 1e9 pixels, a sparse file over the
 * size limits); and how the change is undone. Each worker mutates its own copy of a seed in place
 * and restores it after the case (one file, and the fuzz-* entries an extreme made), which costs
 * far less than a fresh tree per case. Shared by the test files (which list the cases) and the
 * workers (which make them).
 */
import { execFileSync } from "node:child_process";
import { closeSync, copyFileSync, ftruncateSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { canaryFile } from "./canary.js";
import { extremeNamed, MIB } from "./extremes.js";
import { fieldNodes, kindOf, replaceAt, toJsonText, type JsonPath } from "./json-tree.js";
import { seededBytes } from "./random.js";
import type { Seed } from "./seeds.js";
import type { DatasetCase } from "./types.js";

/** Remove whatever is at `file` (file, link, FIFO or folder), so what is written next is a new file. */
function clear(file: string): void {
  rmSync(file, { recursive: true, force: true });
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

/** A PNG whose header says 1e9 x 1e9 pixels (and holds no pixels). */
export function hugeHeaderPng(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1_000_000_000, 0);
  ihdr.writeUInt32BE(1_000_000_000, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([PNG_SIGNATURE, pngChunk("IHDR", ihdr), pngChunk("IEND", Buffer.alloc(0))]);
}

/** A sparse file of `bytes` (nothing is written to disk). */
function sparse(file: string, bytes: number): void {
  const fd = openSync(file, "w");
  try {
    ftruncateSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}

const isImage = (file: string) => /\.(png|jpe?g|webp)$/i.test(file);

/** File-level variants: what replaces a seed's file. */
export const FILE_VARIANTS: Record<string, { applies: (file: string, role: "doc" | "media" | "frame") => boolean; write: (full: string, ctx: { canary: string; original: string; id: string }) => void }> = {
  "link-out": { applies: () => true, write: (full, ctx) => symlinkSync(canaryFile(ctx.canary, path.extname(full)), full) },
  "link-dev-zero": { applies: (_f, role) => role !== "doc", write: (full) => symlinkSync("/dev/zero", full) },
  fifo: { applies: () => true, write: (full) => execFileSync("mkfifo", [full]) },
  folder: { applies: () => true, write: (full) => mkdirSync(full) },
  empty: { applies: () => true, write: (full) => writeFileSync(full, "") },
  garbage: { applies: (_f, role) => role !== "doc", write: (full, ctx) => writeFileSync(full, seededBytes(ctx.id, 4096)) },
  truncated: { applies: (_f, role) => role !== "doc", write: (full, ctx) => writeFileSync(full, readFileSync(ctx.original).subarray(0, Math.floor(lstatSync(ctx.original).size / 2))) },
  "huge-header": { applies: (file, role) => role !== "doc" && isImage(file), write: (full) => writeFileSync(full, hugeHeaderPng()) },
  "over-size": { applies: (file, role) => role === "doc" || isImage(file), write: (full) => sparse(full, /\.jsonl?$/.test(full) ? 1100 * MIB : 300 * MIB) },
};

/**
 * Variants of a media file a row names that `validate` must refuse (a run could not use the file).
 * Not for the frames of a frame folder: a folder's frames are its regular image files, so a FIFO or
 * a folder among them is not a frame (media/frames.ts frameFolderNames).
 */
export const MEDIA_VALIDATE_MUST_REFUSE = new Set(["link-out", "link-dev-zero", "fifo", "folder", "empty", "garbage", "huge-header", "over-size"]);

/** Whole-document variants (a JSONL row, or a JSON file's text). */
export const ROW_VARIANTS: Record<string, { applies: (format: "jsonl" | "json") => boolean; text: (row: string, id: string) => string }> = {
  "not-object": { applies: () => true, text: () => "[1,2,3]" },
  garbage: { applies: () => true, text: (_row, id) => seededBytes(id, 4096).toString("latin1").replace(/[\r\n]/g, " ") },
  "deep-balanced": { applies: () => true, text: () => "[".repeat(100_000) + "]".repeat(100_000) },
  "deep-open": { applies: () => true, text: () => "[".repeat(100_000) },
  bom: { applies: () => true, text: (row) => `\ufeff${row}` },
  duplicate: { applies: (format) => format === "jsonl", text: (row) => `${row}\n${row}` },
  "extra-key": { applies: (format) => format === "jsonl", text: (row) => `${row.slice(0, -1)},"zz_fuzz":${JSON.stringify("x".repeat(MIB))}}` },
  "string-row": { applies: () => true, text: () => JSON.stringify("x".repeat(MIB)) },
  "empty-file": { applies: () => true, text: () => "" },
};

/** The whole file a document lives in, parsed (cached per worker). */
const wholeDocs = new Map<string, unknown>();
function wholeDoc(seed: Seed, file: string, format: "jsonl" | "json"): unknown {
  const key = `${seed.name}\0${file}`;
  if (!wholeDocs.has(key)) {
    const text = readFileSync(path.join(seed.base, file), "utf8");
    wholeDocs.set(key, JSON.parse(format === "jsonl" ? text.split("\n")[0]! : text));
  }
  return wholeDocs.get(key);
}

function valueAt(value: unknown, where: JsonPath): unknown {
  let at = value;
  for (const key of where) at = (at as Record<string | number, unknown>)[key];
  return at;
}

/** Write the case's mutation into `root`. */
export function mutate(fuzzCase: DatasetCase, seed: Seed, root: string, canary: string): void {
  const m = fuzzCase.mutation;
  if (m.kind === "none") return;
  if (m.kind === "file") {
    const full = path.join(root, m.file);
    clear(full);
    FILE_VARIANTS[m.variant]!.write(full, { canary, original: path.join(seed.base, m.file), id: fuzzCase.id });
    return;
  }
  const doc = seed.docs[m.doc]!;
  const full = path.join(root, doc.file);
  const whole = wholeDoc(seed, doc.file, doc.format);
  let text: string;
  if (m.kind === "row") {
    text = ROW_VARIANTS[m.variant]!.text(JSON.stringify(whole), fuzzCase.id);
  } else {
    const where = [...doc.at, ...m.path];
    const original = valueAt(whole, where);
    const node = { path: m.path, kind: kindOf(original), value: original };
    const value = extremeNamed(node, m.extreme).make({ root, canary, original });
    text = toJsonText(replaceAt(whole, where, value));
  }
  clear(full);
  writeFileSync(full, doc.format === "jsonl" && text !== "" ? `${text}\n` : text);
}

/** The file a case changes (relative to the root). */
export function changedFile(fuzzCase: DatasetCase, seed: Seed): string | null {
  const m = fuzzCase.mutation;
  if (m.kind === "none") return null;
  return m.kind === "file" ? m.file : seed.docs[m.doc]!.file;
}

/** Undo the case's change: the changed file copied back from the seed, the entries an extreme made removed. */
export function restore(fuzzCase: DatasetCase, seed: Seed, root: string): void {
  const file = changedFile(fuzzCase, seed);
  if (file !== null) {
    clear(path.join(root, file));
    copyFileSync(path.join(seed.base, file), path.join(root, file));
  }
  for (const name of readdirSync(root)) if (name.startsWith("fuzz-")) clear(path.join(root, name));
}

/** The fields of a seed's documents a case can set (the fuzzed object's own node included for a record inside a file). */
export function fuzzableNodes(seed: Seed, doc: number, pickIndex: (length: number) => number) {
  const ref = seed.docs[doc]!;
  const value = valueAt(wholeDoc(seed, ref.file, ref.format), ref.at);
  const nodes = fieldNodes(value, pickIndex);
  return ref.at.length > 0 ? [{ path: [] as JsonPath, kind: kindOf(value), value }, ...nodes] : nodes;
}

