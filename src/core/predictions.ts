import { existsSync } from "node:fs";
import { FileRefusedError } from "./file-read.js";
import { readJsonlLines, type JsonlLine } from "./jsonl.js";
import { DataError, problemList } from "./problems.js";
import { pyJsonLoads, type PyDict, type PyValue } from "./pycompat/json.js";
import { pyHashKey } from "./pycompat/keys.js";

/**
 * A predictions file read as the official evaluator reads it: each line with Python's json.loads,
 * rows keyed by their id with Python dict-key equality (1 == 1.0, "1" differs), the last row of an
 * id winning.
 */
export function readPredictionFile(file: string, idField: string, keyOf?: (row: PyDict) => PyValue | undefined): Map<string, PyDict> {
  if (!existsSync(file)) throw new DataError([{ file, message: "predictions file not found" }]);
  const problems = problemList();
  const rows = new Map<string, PyDict>();
  let lines: JsonlLine[];
  try {
    // The user names this file: a link is followed, a FIFO or device is refused.
    lines = readJsonlLines(file, { followLinks: true });
  } catch (error) {
    if (error instanceof FileRefusedError) throw new DataError([{ file, message: `predictions file ${error.reason}` }]);
    throw error;
  }
  for (const { line, text } of lines) {
    let row;
    try {
      row = pyJsonLoads(text);
    } catch (error) {
      problems.push({ file, line, message: `invalid JSON: ${(error as Error).message}` });
      continue;
    }
    if (!(row instanceof Map)) {
      problems.push({ file, line, message: "each line must be a JSON object" });
      continue;
    }
    const key = pyHashKey(keyOf ? keyOf(row) : row.get(idField));
    if (key === undefined) {
      problems.push({ file, line, field: idField, message: keyOf ? "no sample matches this row (id or images)" : "must be a string or a number" });
      continue;
    }
    rows.set(key, row);
  }
  if (problems.length > 0) throw new DataError(problems);
  return rows;
}

/** The lookup key of an item id as the release stores it (string or number). */
export function itemKey(rawId: string | number): string {
  return pyHashKey(typeof rawId === "number" ? rawId : rawId)!;
}
