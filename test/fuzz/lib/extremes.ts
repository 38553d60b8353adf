/**
 * The extreme values a fuzz case puts into one field, by the field's kind. Each has a name (part
 * of the case id) and makes its value inside the case's root when it needs files there (a FIFO, a
 * link out of the root, a folder). Values that must be written as raw JSON tokens are Raw.
 *
 * Numbers: 0, -1, 1.5, 1e16, +-1e300, 2^53 + 1 (written exactly), NaN (a token Python's JSON
 * reads and JSON.parse refuses), 5e-324, and the wrong types "x7", null and a list 100,000 deep.
 * Strings: "", a NUL inside, 1 MiB, lone surrogate / RTL override / template braces, 0, null, a
 * list 100,000 deep; and
 * where the field names a file: ../ out of the root, an absolute path to the canary, /etc/passwd,
 * /dev/zero, a FIFO, a link out of the root (to a file, through a folder), a folder, the root itself,
 * a link to /dev/zero.
 * Lists: empty, 200,000 copies of the first element, 150,000 out-of-range numbers (lists of
 * numbers), nested 100,000 deep. Objects: {}, [], nested 100,000 deep. Booleans and nulls: the
 * wrong types, and a list 100,000 deep.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { canaryFile } from "./canary.js";
import { fieldName, kindOf, Raw, type FieldNode, type NodeKind } from "./json-tree.js";

export interface ExtremeContext {
  /** The case's dataset root. */
  root: string;
  /** The canary folder outside the root. */
  canary: string;
  /** The field's value in the valid row. */
  original: unknown;
}

export interface Extreme {
  name: string;
  make(ctx: ExtremeContext): unknown;
}

export const MIB = 1024 * 1024;
export const HUGE_LIST = 200_000;
export const OUT_OF_RANGE_LIST = 150_000;
export const DEEP = 100_000;

const deepArray = (depth: number) => new Raw("[".repeat(depth) + "]".repeat(depth));
const deepObject = (depth: number) => new Raw('{"a":'.repeat(depth) + "1" + "}".repeat(depth));

/** The extension of a file-naming value (".png"), or "" for none. */
export function extensionOf(value: unknown): string {
  return typeof value === "string" ? path.extname(value).toLowerCase() : "";
}

const FILE_FIELD = /(path|file|video|image|frames?|dir|root|ref|current_frame|front|left|back|right)$/i;

/** Whether a string field names a file or folder (by its value or by its name). */
export function namesFile(node: FieldNode): boolean {
  if (node.kind !== "string") return false;
  const value = node.value as string;
  return /\.(png|jpe?g|webp|mp4|json|jsonl|txt)$/i.test(value) || (value.includes("/") && !value.includes(" ")) || FILE_FIELD.test(fieldName(node.path));
}

/** Make `name` in the root (by `create`) and return the reference to it, relative to the root. */
function inRoot(ctx: ExtremeContext, name: string, create: (full: string) => void): string {
  const full = path.join(ctx.root, name);
  create(full);
  return name;
}

const NUMBERS: Extreme[] = [
  { name: "0", make: () => 0 },
  { name: "-1", make: () => -1 },
  { name: "1.5", make: () => 1.5 },
  { name: "1e16", make: () => 1e16 },
  { name: "1e300", make: () => 1e300 },
  { name: "-1e300", make: () => -1e300 },
  { name: "2^53+1", make: () => new Raw("9007199254740993") },
  { name: "NaN", make: () => new Raw("NaN") },
  { name: "5e-324", make: () => 5e-324 },
  { name: "string", make: () => "x7" },
  { name: "null", make: () => null },
  { name: "deep", make: () => deepArray(DEEP) },
];

const TEXTS: Extreme[] = [
  { name: "empty", make: () => "" },
  { name: "nul", make: () => "a\u0000b" },
  { name: "1MiB", make: () => "x".repeat(MIB) },
  { name: "odd-unicode", make: () => "\ud800\u202e{answer}{relation}%s\u{1F600}" },
  { name: "number", make: () => 0 },
  { name: "null", make: () => null },
  { name: "deep", make: () => deepArray(DEEP) },
];

const PATHS: Extreme[] = [
  { name: "climb", make: (ctx) => path.relative(ctx.root, canaryFile(ctx.canary, extensionOf(ctx.original))) },
  { name: "climb-deep", make: (ctx) => `${"../".repeat(12)}${canaryFile(ctx.canary, extensionOf(ctx.original)).slice(1)}` },
  { name: "absolute-canary", make: (ctx) => canaryFile(ctx.canary, extensionOf(ctx.original)) },
  { name: "/etc/passwd", make: () => "/etc/passwd" },
  { name: "/dev/zero", make: () => "/dev/zero" },
  { name: "fifo", make: (ctx) => inRoot(ctx, `fuzz-fifo${extensionOf(ctx.original)}`, (full) => execFileSync("mkfifo", [full])) },
  { name: "link-out", make: (ctx) => inRoot(ctx, `fuzz-link${extensionOf(ctx.original)}`, (full) => symlinkSync(canaryFile(ctx.canary, extensionOf(ctx.original)), full)) },
  {
    name: "link-dir-out",
    make: (ctx) => `${inRoot(ctx, "fuzz-linkdir", (full) => symlinkSync(ctx.canary, full))}/${path.basename(canaryFile(ctx.canary, extensionOf(ctx.original)))}`,
  },
  { name: "folder", make: (ctx) => inRoot(ctx, `fuzz-dir${extensionOf(ctx.original)}`, (full) => mkdirSync(full)) },
  { name: "root-itself", make: () => "." },
  { name: "link-dev-zero", make: (ctx) => inRoot(ctx, `fuzz-zero${extensionOf(ctx.original)}`, (full) => symlinkSync("/dev/zero", full)) },
];

const BOOLEANS: Extreme[] = [
  { name: "string", make: () => "true" },
  { name: "number", make: () => 1 },
  { name: "null", make: () => null },
  { name: "deep", make: () => deepArray(DEEP) },
];

const NULLS: Extreme[] = [
  { name: "1e300", make: () => 1e300 },
  { name: "string", make: () => "x" },
  { name: "object", make: () => ({}) },
  { name: "deep", make: () => deepArray(DEEP) },
];

const firstOf = (ctx: ExtremeContext) => (Array.isArray(ctx.original) && ctx.original.length > 0 ? ctx.original[0] : 0);

const ARRAYS: Extreme[] = [
  { name: "empty", make: () => [] },
  { name: "huge", make: (ctx) => new Array(HUGE_LIST).fill(firstOf(ctx)) },
  { name: "deep", make: () => deepArray(DEEP) },
  { name: "object", make: () => ({}) },
];

/** Only for lists of numbers: the 150,000 out-of-range indices of issue 25. */
const OUT_OF_RANGE: Extreme = { name: "huge-out-of-range", make: () => new Array(OUT_OF_RANGE_LIST).fill(1_000_000_000) };

const OBJECTS: Extreme[] = [
  { name: "empty", make: () => ({}) },
  { name: "array", make: () => [] },
  { name: "deep", make: () => deepObject(DEEP) },
];

const BY_KIND: Record<NodeKind, Extreme[]> = { number: NUMBERS, string: TEXTS, boolean: BOOLEANS, null: NULLS, array: ARRAYS, object: OBJECTS };

/** The extremes for one node of a row. */
export function extremesFor(node: FieldNode): Extreme[] {
  const list = [...BY_KIND[node.kind]];
  if (namesFile(node)) list.push(...PATHS);
  if (node.kind === "array" && Array.isArray(node.value) && node.value.length > 0 && node.value.every((v) => kindOf(v) === "number")) list.push(OUT_OF_RANGE);
  return list;
}

export function extremeNamed(node: FieldNode, name: string): Extreme {
  const found = extremesFor(node).find((e) => e.name === name);
  if (!found) throw new Error(`no extreme ${name} for ${node.kind} field`);
  return found;
}

/**
 * Numbers a benchmark reads although validate does not check their type (they are read with the
 * official evaluators' tolerance): by benchmark, the field paths. Issue 25 bounds them all the same.
 */
export const READ_UNCHECKED: Record<string, readonly string[]> = {
  egopath: ["ground_truth.robot_diameter_m"],
};

/** Extremes that are magnitudes no bounded field may hold (issue 25: |x| <= 1e4, safe integers). */
export const UNBOUNDED_NUMBERS = new Set(["1e16", "1e300", "-1e300", "2^53+1"]);

/**
 * Fields that, when read, must not be negative (radii, diameters, rates, counts, frame numbers,
 * pixel sizes): -1 there passing validate is a missing bound.
 */
export const NON_NEGATIVE_FIELD = /(diameter|radius|radii|fps|count|index|indices|_idx|first_frame|last_frame|width|height|size|video_max_frame)/i;
