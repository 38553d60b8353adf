import { MAX_PROBLEMS_KEPT } from "./limits.js";

/** A defect in benchmark data, located precisely enough for a user to fix it. */
export interface DataProblem {
  file: string;
  line?: number;
  field?: string;
  message: string;
}

/**
 * A data value as a problem's message shows it: its JSON, clipped to `max` characters. A value
 * nested too deeply for JSON.stringify (a row may hold a list 100,000 levels deep, which JSON.parse
 * reads but JSON.stringify overflows the stack on) is described instead of shown.
 */
export function shownValue(value: unknown, max = 200): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return Array.isArray(value) ? "a list nested too deeply to show" : typeof value === "object" && value !== null ? "an object nested too deeply to show" : typeof value;
  }
  if (text === undefined) return String(value);
  return text.length > max ? `${text.slice(0, max)}... (${text.length} characters)` : text;
}

export function formatProblem(p: DataProblem): string {
  const where = [p.file, p.line !== undefined ? `line ${p.line}` : undefined, p.field ? `field ${p.field}` : undefined]
    .filter(Boolean)
    .join(", ");
  return `${where}: ${p.message}`;
}

/** The count of problems a bounded list did not keep: a hidden (non-enumerable) property of the array. */
const OMITTED = Symbol("problems not kept");
type CountedList = DataProblem[] & { [OMITTED]?: number };

/**
 * The problems of one load, bounded: the first `keep` (MAX_PROBLEMS_KEPT) are kept, the rest only
 * counted, so a file with millions of bad lines costs no more memory than one with a thousand. It
 * is a plain array of the kept problems (loaders return it, callers and tests read it as one)
 * whose `push` keeps or counts; `problemCount` gives every problem reported, kept or not.
 */
export function problemList(keep: number = MAX_PROBLEMS_KEPT): DataProblem[] {
  const list: CountedList = [];
  Object.defineProperty(list, OMITTED, { value: 0, writable: true, enumerable: false });
  Object.defineProperty(list, "push", {
    enumerable: false,
    value(...problems: DataProblem[]): number {
      for (const problem of problems) {
        if (list.length < keep) Array.prototype.push.call(list, problem);
        else list[OMITTED]! += 1;
      }
      return list.length;
    },
  });
  return list;
}

/** Problems a bounded list counted without keeping (0 for any other array). */
export function omittedProblems(problems: readonly DataProblem[]): number {
  return (problems as CountedList)[OMITTED] ?? 0;
}

/** Count `n` more problems as reported but not kept (a no-op on an array that is not a problemList). */
export function countOmitted(problems: DataProblem[], n: number): void {
  const list = problems as CountedList;
  if (list[OMITTED] !== undefined) list[OMITTED] += n;
}

/** Every problem a list reports: those kept, plus those a bounded list only counted. */
export function problemCount(problems: readonly DataProblem[]): number {
  return problems.length + omittedProblems(problems);
}

/**
 * Append every item of `items` to `target`, one push each: spreading a long array into push's
 * arguments (`push(...items)`) overflows the call stack past about 100,000 items. Problems a
 * problemList counted without keeping are counted in a problemList target too.
 */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  const omitted = Array.isArray(items) ? omittedProblems(items as DataProblem[]) : 0;
  if (omitted > 0) countOmitted(target as DataProblem[], omitted);
  return target;
}

/** "... and 149000 more problems" for the problems not listed, or "" when all are. */
export function moreProblemsLine(listed: number, total: number): string {
  const rest = total - listed;
  return rest > 0 ? `... and ${rest} more problem${rest === 1 ? "" : "s"}` : "";
}

/** Thrown by loaders when data has problems; carries every problem found (from a problemList: the first ones, and the count of the rest). */
export class DataError extends Error {
  constructor(readonly problems: DataProblem[]) {
    const total = problemCount(problems);
    const listed = problems.slice(0, 50);
    const more = moreProblemsLine(listed.length, total);
    super(
      `${total} problem${total === 1 ? "" : "s"} in the data:\n` +
        listed.map((p) => `  - ${formatProblem(p)}`).join("\n") +
        (more ? `\n  ${more}` : ""),
    );
  }
}

/** A user mistake on the command line or in a config file (printed without a stack trace). */
export class UsageError extends Error {}

/** zod issues as (field, message) pairs, the first issue per field only (zod 4 may add follow-on checks of a wrongly typed value). */
export function issueList(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string; code?: string; keys?: string[] }>): Array<{ field: string; message: string }> {
  const seen = new Set<string>();
  const out: Array<{ field: string; message: string }> = [];
  for (const issue of issues) {
    // An unknown key is reported at the key itself.
    const path = issue.code === "unrecognized_keys" && issue.keys?.length ? [...issue.path, issue.keys[0]!] : issue.path;
    const field = path.map((k, i) => (typeof k === "number" ? `[${k}]` : `${i > 0 ? "." : ""}${String(k)}`)).join("");
    if (seen.has(field)) continue;
    seen.add(field);
    out.push({ field, message: issue.message });
  }
  return out;
}
