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

/** Thrown by loaders when data has problems; carries every problem found, not just the first. */
export class DataError extends Error {
  constructor(readonly problems: DataProblem[]) {
    super(
      `${problems.length} problem${problems.length === 1 ? "" : "s"} in the data:\n` +
        problems.slice(0, 50).map((p) => `  - ${formatProblem(p)}`).join("\n") +
        (problems.length > 50 ? `\n  ... and ${problems.length - 50} more` : ""),
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
