/**
 * Adversarial model replies and the list of every reader of model text and of prediction rows,
 * shared by test/core/adversarial-replies.test.ts (correctness on 1 MB inputs) and
 * bench/replies.ts (timing). Items are the smallest objects each reader looks at.
 */
import type { Answer } from "../../src/core/benchmark.js";
import { pyJsonLoads, PyJsonError, PyRecursionError, type PyDict } from "../../src/core/pycompat/json.js";
import { LiteralRecursionError, LiteralSyntaxError, LiteralTypeError, pyLiteralDecode, pyLiteralEval } from "../../src/core/pycompat/literal.js";
import { egopath } from "../../src/benchmarks/egopath/index.js";
import type { EgoPathItem } from "../../src/benchmarks/egopath/types.js";
import { parseAnswer } from "../../src/benchmarks/patheval/parse.js";
import { patheval } from "../../src/benchmarks/patheval/index.js";
import type { PathEvalItem } from "../../src/benchmarks/patheval/types.js";
import { epic } from "../../src/benchmarks/epic/index.js";
import { leafTask } from "../../src/benchmarks/epic/taxonomy.js";
import type { EpicItem } from "../../src/benchmarks/epic/types.js";
import { vcn } from "../../src/benchmarks/vcn/index.js";
import type { VcnItem } from "../../src/benchmarks/vcn/types.js";
import { readNavReply } from "../../src/benchmarks/vcn/navigate/reply.js";
import type { ReplyReading } from "../../src/benchmarks/vcn/navigate/types.js";
import { egotl } from "../../src/benchmarks/egotl/index.js";
import type { EgoTLItem } from "../../src/benchmarks/egotl/load.js";
import type { EgoTLTask } from "../../src/benchmarks/egotl/schema.js";

export const MB = 1024 * 1024;

/**
 * A flat copy of a string (lone surrogates kept). Built strings are trees of pieces until first
 * read; a reply from the network or a file is flat, so the readers get flat text.
 */
export function flat(text: string): string {
  return Buffer.from(text, "utf16le").toString("utf16le");
}

/** `unit` repeated to exactly `length` UTF-16 units. */
export function repeatTo(unit: string, length: number): string {
  return flat(unit.repeat(Math.ceil(length / unit.length)).slice(0, length));
}

/** `open` repeated, a core, then `close` repeated as often: balanced nesting of about `length` units. */
function nested(open: string, core: string, close: string, length: number): string {
  const k = Math.max(1, Math.floor((length - core.length) / (open.length + close.length)));
  return flat(open.repeat(k) + core + close.repeat(k));
}

/** Adversarial reply shapes of about `length` UTF-16 units each. */
export const SHAPES: Readonly<Record<string, (length: number) => string>> = {
  "braces {x}": (n) => repeatTo("{x}", n),
  "open braces {{{": (n) => repeatTo("{", n),
  "open brackets [[[": (n) => repeatTo("[", n),
  "open parens (((": (n) => repeatTo("(", n),
  "closers }]) ": (n) => repeatTo("}]) ", n),
  "nested object": (n) => nested('{"a":', "1", "}", n),
  "nested frame object": (n) => nested('{"frame":', "1", "}", n),
  "nested array": (n) => nested("[", "1", "]", n),
  "nested tuples": (n) => nested("(", "1", ",)", n),
  "long array": (n) => flat("[" + repeatTo("1,", n - 3) + "1]"),
  "long object": (n) => flat("{" + repeatTo('"k":1,', n - 8) + '"k":1}'),
  "list of lists": (n) => flat("[" + repeatTo("[1],", n - 4) + "[1]]"),
  "array, trailing comma": (n) => flat("[" + repeatTo("1,", n - 2) + "]"),
  "lists, then junk": (n) => flat("[" + repeatTo("[1],", n - 6) + "[1]] x"),
  "digits": (n) => repeatTo("7", n),
  "decimal digits": (n) => flat("0." + repeatTo("5", n - 2)),
  "whitespace": (n) => repeatTo(" ", n),
  "newlines": (n) => repeatTo("\n", n),
  "unbalanced quotes": (n) => repeatTo('"', n),
  "open strings {\"a": (n) => repeatTo('{"a', n),
  "single quotes": (n) => repeatTo("'a", n),
  "backslashes": (n) => repeatTo("\\", n),
  "Answer: x100k": (n) => repeatTo("Answer: ", n),
  "Answer Path 1 Path 2": (n) => repeatTo("Answer: Path 1 Path 2 ", n),
  "emoji": (n) => repeatTo("\u{1F600}", n),
  "CJK": (n) => repeatTo("\u8def\u5f84", n),
  "lone surrogates": (n) => repeatTo("\ud800x\udc00", n),
  "NUL bytes": (n) => repeatTo("\0", n),
  "frame 1 x": (n) => repeatTo("frame 1.", n),
  "frame words": (n) => repeatTo("frame ", n),
  "minus signs": (n) => repeatTo("-", n),
  "think opens": (n) => flat("</think>" + repeatTo("<think>", n - 8)),
  "fence then spaces": (n) => flat("```" + repeatTo(" ", n - 3)),
  "fences": (n) => repeatTo("```json\n", n),
  "best keys": (n) => repeatTo('"best": "', n),
  "best objects": (n) => repeatTo('{"best": "A"', n),
  "box key lists": (n) => repeatTo('"bounding_boxes": [(1, 2)', n),
  "points key lists": (n) => repeatTo('{"points": [', n),
  "tuples (1, 2)": (n) => repeatTo("(1, 2), ", n),
  "True None": (n) => repeatTo("True None ", n),
  "option words": (n) => repeatTo("turn left and ", n),
  "turn words": (n) => repeatTo("turn ", n),
  "letters A B": (n) => repeatTo("AB ", n),
  "descriptors": (n) => repeatTo("Minimum clearance ", n),
};

// ------------------------------------------------------------------ the smallest items

export const egopathSetItem = {
  id: "q1", rawId: 1, task: "a1", kind: "set", cluster: "s", groundTruth: { all_ids: [1, 2, 3, 4] }, candidates: [1n, 2n, 3n, 4n], positives: [1n, 2n],
} as unknown as EgoPathItem;
export const egopathRouteItem = {
  id: "q2", rawId: 2, task: "a2", kind: "route", cluster: "s", groundTruth: { answer: [1, 2] }, startId: 1n, referenceRoute: [1n, 2n],
} as unknown as EgoPathItem;

export const pathevalItem = { id: "2D/1", recordId: 1, task: "2D", cluster: "e", truth: "Path 1" } as unknown as PathEvalItem;
export const pathevalProbeItem = { ...pathevalItem, id: "2D/1#abstraction", probe: { kind: "attribute-abstraction", scenarioId: 1 } } as unknown as PathEvalItem;
export const PATHEVAL_PROMPTS: Readonly<Record<string, Record<string, unknown>>> = {
  plain: { variant: "plain", names: ["Path 1", "Path 2"], flipped: false },
  "random-ids": { variant: "random-ids", names: ["k3Qz", "W9pa"], flipped: false },
  flipped: { variant: "flipped", names: ["Path 1", "Path 2"], flipped: true },
};

export function epicItem(leaf: string): EpicItem {
  const task = leafTask(leaf);
  if (!task) throw new Error(`no EPIC-Bench leaf ${leaf}`);
  return { id: `x/${leaf}.json`, task: task.byType, cluster: "c", leaf: task, images: [], imageRefs: [], text: {}, masks: {}, height: 100, width: 100, gtFile: "" } as EpicItem;
}
/** One leaf of each reply shape the formatter knows (objects, instances, boxes, placement, path). */
export const EPIC_LEAVES = ["Category", "VisualMatching", "GroundDetection", "PlacementRegion", "FeasiblePath_Ego"] as const;

export const vcnItem = { id: "v1", task: "count", rawId: "v1", cluster: "s" } as unknown as VcnItem;
export const VCN_PROMPTS: Readonly<Record<string, Record<string, unknown> | undefined>> = {
  plain: undefined,
  "shuffled-frames": { variant: "shuffled-frames", labels: "shown-position", shown: [2, 0, 1], tour_frames: 3 },
};

export const EGOTL_OPTIONS = ["turn left and climb", "turn left", "walk to the sink", "open the fridge"];
export function egotlItem(task: EgoTLTask): EgoTLItem {
  const options = task === "scene_action" || task === "next_action" || task === "planning" || task === "action_recognition" ? EGOTL_OPTIONS : null;
  const truth = task === "direction" ? { kind: "direction", label: "Turn left" } : task === "distance" ? { kind: "distance", metres: 3 } : { kind: "option", index: 0 };
  return { id: `t/${task}`, task, cluster: "v", videoId: "v", options, truth } as unknown as EgoTLItem;
}
export const EGOTL_TASK_LIST: readonly EgoTLTask[] = ["planning", "scene_action", "next_action", "action_recognition", "direction", "distance"];

// ------------------------------------------------------------------ every reader

/**
 * One reader of untrusted input. `prepare` builds what the reader is given from a reply text (a
 * predictions line for readPrediction; untimed in the bench); `read` is the reader itself.
 */
export interface ReaderCase {
  name: string;
  prepare: (text: string) => string;
  read: (input: string) => Answer;
}

const asIs = (text: string) => text;

/** A predictions line as a file holds it: read with the Python json emulation, then by readPrediction. */
function lineCase(name: string, fields: (text: string) => Record<string, unknown>, read: (row: PyDict) => Answer): ReaderCase {
  return { name, prepare: (text) => JSON.stringify(fields(text)), read: (line) => read(pyJsonLoads(line) as PyDict) };
}

/** Every readReply variant (task, prompt variant) and readPrediction of the five benchmarks. */
export function readerCases(): ReaderCase[] {
  const cases: ReaderCase[] = [
    { name: "egopath readReply a1 (all_ids)", prepare: asIs, read: (t) => egopath.readReply(egopathSetItem, t) },
    { name: "egopath readReply a2", prepare: asIs, read: (t) => egopath.readReply(egopathRouteItem, t) },
    lineCase("egopath readPrediction", (t) => ({ question_id: 1, output: t }), (r) => egopath.readPrediction(egopathSetItem, r)),
  ];
  for (const [variant, prompt] of Object.entries(PATHEVAL_PROMPTS)) {
    cases.push({ name: `patheval readReply ${variant}`, prepare: asIs, read: (t) => patheval.readReply(pathevalItem, t, prompt) });
  }
  cases.push(
    { name: "patheval readReply abstraction", prepare: asIs, read: (t) => patheval.readReply(pathevalProbeItem, t) },
    { name: "patheval official reading", prepare: asIs, read: (t) => choiceAnswer(parseAnswer(t, { mode: "official" }), t) },
    { name: "patheval official random-ids", prepare: asIs, read: (t) => choiceAnswer(parseAnswer(t, { mode: "official", ids: ["k3Qz", "W9pa"] }), t) },
    lineCase("patheval readPrediction", (t) => ({ id: 1, response: t }), (r) => patheval.readPrediction(pathevalItem, r)),
  );
  for (const leaf of EPIC_LEAVES) cases.push({ name: `epic readReply ${leaf}`, prepare: asIs, read: (t) => epic.readReply(epicItem(leaf), t) });
  cases.push(lineCase("epic readPrediction", (t) => ({ id: "x", response: t }), (r) => epic.readPrediction(epicItem("Category"), r)));
  for (const [variant, prompt] of Object.entries(VCN_PROMPTS)) cases.push({ name: `vcn readReply ${variant}`, prepare: asIs, read: (t) => vcn.readReply(vcnItem, t, prompt) });
  cases.push(lineCase("vcn readPrediction", (t) => ({ id: "v1", response: t }), (r) => vcn.readPrediction(vcnItem, r)));
  for (const mode of ["action", "waypoint"] as const) cases.push({ name: `vcn readNavReply ${mode}`, prepare: asIs, read: (t) => readingAnswer(readNavReply(t, mode), t) });
  for (const task of EGOTL_TASK_LIST) cases.push({ name: `egotl readReply ${task}`, prepare: asIs, read: (t) => egotl.readReply(egotlItem(task), t) });
  cases.push(lineCase("egotl readPrediction", (t) => ({ id: "t", response: t }), (r) => egotl.readPrediction(egotlItem("planning"), r)));
  return cases;
}

/** A navigation reply's reading as an Answer: the reading itself, or unparseable with its reason. */
function readingAnswer(reading: ReplyReading, text: string): Answer {
  return reading.ok ? { status: "ok", value: reading, stored: text } : { status: "unparseable", value: null, reason: reading.reason, stored: text };
}

function choiceAnswer(choice: string | null, text: string): Answer {
  return choice ? { status: "ok", value: choice, stored: text } : { status: "unparseable", value: null, reason: "no choice", stored: text };
}

/** The Python-compat decoders on a whole 1 MB line: a value, or the typed error Python's own exception maps to. */
export const PY_DECODERS: Readonly<Record<string, (text: string) => unknown>> = {
  pyJsonLoads: (t) => pyJsonLoads(t),
  pyLiteralEval: (t) => pyLiteralEval(t),
};

/** The decoders as the readers call them (the bench times these): json.loads, and literal_eval as EgoPath reads it. */
export const READER_DECODERS: Readonly<Record<string, (text: string) => unknown>> = {
  pyJsonLoads: (t) => pyJsonLoads(t),
  "pyLiteralDecode (EgoPath)": (t) => pyLiteralDecode(t, { tupleItems: false }),
};

/** Whether an error is one a decoder may throw (the Python exception it stands for). */
export function isTypedDecoderError(error: unknown): boolean {
  return error instanceof PyJsonError || error instanceof PyRecursionError || error instanceof LiteralSyntaxError
    || error instanceof LiteralTypeError || error instanceof LiteralRecursionError;
}

/** Calls a decoder: "value" or "typed-error"; anything else it throws (RangeError, TypeError...) is rethrown. */
export function decodeOutcome(decode: (text: string) => unknown, text: string): "value" | "typed-error" {
  try {
    decode(text);
    return "value";
  } catch (error) {
    if (isTypedDecoderError(error)) return "typed-error";
    throw error;
  }
}
