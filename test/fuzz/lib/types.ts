/** What the fuzz test files and their worker processes exchange: cases, and what became of each. */
import type { JsonPath } from "./json-tree.js";
import type { Violation } from "./guard.js";

export type DatasetMutation =
  /** The seed as it is (each seed's first case: it must validate clean and run). */
  | { kind: "none" }
  /** One field of a document set to an extreme value (extremes.ts). */
  | { kind: "field"; doc: number; path: JsonPath; extreme: string }
  /** A whole document replaced by a malformed one (a row that is not an object, garbage, deep nesting...). */
  | { kind: "row"; doc: number; variant: string }
  /** A file of the seed replaced whole (a link out of the root, a FIFO, a folder, garbage, a huge header...). */
  | { kind: "file"; file: string; role: "doc" | "media" | "frame"; variant: string };

export interface DatasetCase {
  family: "dataset";
  id: string;
  /** This case's time limit, when not the suite's. */
  limitMs?: number;
  seed: string;
  benchmark: string;
  mutation: DatasetMutation;
  /** Load as `--allow-outside-root` does (the guard's own control case only: it must see the read). */
  allowOutsideRoot?: boolean;
}

export interface FrameCase {
  family: "frame-spec";
  id: string;
  /** This case's time limit, when not the suite's (a pure planner on 50 frames needs far less). */
  limitMs?: number;
  /** The function called and its arguments (JSON-safe; numbers that JSON cannot carry are strings like "NaN"). */
  call: string;
  args: unknown[];
}

export type FuzzCase = DatasetCase | FrameCase;

/** A problem as the loader reported it (message clipped). */
export interface SeenProblem {
  file: unknown;
  line?: unknown;
  field?: unknown;
  message: unknown;
}

export interface ThrownError {
  stage: string;
  name: string;
  message: string;
  /** The top of the stack, for engine errors. */
  stack?: string;
}

/** What one case did, as the worker saw it. */
export interface CaseReport {
  id: string;
  ms: number;
  /** Per stage: "clean", "problems", "result", "refused" (DataError / UsageError), "error", "skipped". */
  stages: Record<string, string>;
  problems: SeenProblem[];
  problemCount: number;
  /** Problems without a file or a message, or without the line of the JSONL row they are about. */
  malformed: string[];
  errors: ThrownError[];
  /** Item results whose prompt or answer failed, with their messages. */
  itemErrors: string[];
  violations: Violation[];
  /** Places where the canary's content showed up. */
  leaks: string[];
  /** Files opened while the case ran. */
  opened: number;
  /** Anything else worth reporting (e.g. a frame count). */
  note?: string;
}

/** What the pool gives back for a case. */
export type CaseResult = { id: string; ms: number; /** Wall-clock start and end (Date.now), to match canary events. */ span: [number, number] } & (
  | { status: "done"; report: CaseReport }
  | { status: "hang" }
  | { status: "crash"; detail: string }
);
