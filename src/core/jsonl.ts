import { readRegularText, tryReadText, type OpenOptions } from "./file-read.js";
import { pyJsonLoads, PyJsonError } from "./pycompat/json.js";
import { pyStrip } from "./pycompat/text.js";
import type { DataProblem } from "./problems.js";

export interface JsonlLine {
  /** 1-based line number in the file. */
  line: number;
  text: string;
}

/**
 * Non-blank lines of a JSONL file as Python reads them in text mode: universal newlines
 * (\n, \r\n and \r all end a line) and str.strip() on each line. The file is read through one
 * checked descriptor (file-read.ts): a dataset's files are real paths and no link is followed
 * unless `options.followLinks` (a file the user names on the command line). Throws FileRefusedError.
 */
export function readJsonlLines(path: string, options: OpenOptions = {}): JsonlLine[] {
  return jsonlLines(readRegularText(path, options));
}

function jsonlLines(content: string): JsonlLine[] {
  const out: JsonlLine[] = [];
  content.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const text = pyStrip(raw);
    if (text) out.push({ line: index + 1, text });
  });
  return out;
}

/** Parse JSONL with JSON.parse; bad lines (and a file that cannot be read) become problems (file, line) instead of exceptions. */
export function readJsonObjects(
  path: string,
  displayPath: string,
  problems: DataProblem[],
  options: OpenOptions = {},
): Array<{ line: number; value: Record<string, unknown> }> {
  const out: Array<{ line: number; value: Record<string, unknown> }> = [];
  const read = tryReadText(path, options);
  if (!read.ok) {
    problems.push({ file: displayPath, message: `${displayPath} ${read.reason}` });
    return out;
  }
  for (const { line, text } of jsonlLines(read.text)) {
    const parsed = parseJson(text);
    if (!parsed.ok) {
      problems.push({ file: displayPath, line, message: parsed.message });
      continue;
    }
    const value = parsed.value;
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      problems.push({ file: displayPath, line, message: "expected a JSON object" });
      continue;
    }
    out.push({ line, value: value as Record<string, unknown> });
  }
  return out;
}

/**
 * JSON.parse whose failure message locates the defect without quoting the text: V8's own message
 * quotes the first bytes, and a data file named where JSON belongs may be any file at all.
 */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, message: `invalid JSON: ${jsonDefect(text)}` };
  }
}

/** Where and why `text` is not JSON, read with the Python-compatible decoder (content-free messages). */
function jsonDefect(text: string): string {
  try {
    pyJsonLoads(text);
    return "holds NaN or Infinity, which JSON does not allow";
  } catch (error) {
    if (!(error instanceof PyJsonError)) return "nested too deeply";
    const reason = error.message.replace(/ \(char \d+\)$/, "");
    const { line, column } = lineAndColumn(text, error.position);
    return `${reason} at line ${line}, column ${column}`;
  }
}

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}
