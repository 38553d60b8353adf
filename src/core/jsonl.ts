import { readFileSync } from "node:fs";
import { pyStrip } from "./pycompat/text.js";
import type { DataProblem } from "./problems.js";

export interface JsonlLine {
  /** 1-based line number in the file. */
  line: number;
  text: string;
}

/**
 * Non-blank lines of a JSONL file as Python reads them in text mode: universal newlines
 * (\n, \r\n and \r all end a line) and str.strip() on each line.
 */
export function readJsonlLines(path: string): JsonlLine[] {
  const content = readFileSync(path, "utf8");
  const out: JsonlLine[] = [];
  content.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const text = pyStrip(raw);
    if (text) out.push({ line: index + 1, text });
  });
  return out;
}

/** Parse JSONL with JSON.parse; bad lines become problems (file, line) instead of exceptions. */
export function readJsonObjects(
  path: string,
  displayPath: string,
  problems: DataProblem[],
): Array<{ line: number; value: Record<string, unknown> }> {
  const out: Array<{ line: number; value: Record<string, unknown> }> = [];
  for (const { line, text } of readJsonlLines(path)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      problems.push({ file: displayPath, line, message: `invalid JSON: ${(error as Error).message}` });
      continue;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      problems.push({ file: displayPath, line, message: "expected a JSON object" });
      continue;
    }
    out.push({ line, value: value as Record<string, unknown> });
  }
  return out;
}
