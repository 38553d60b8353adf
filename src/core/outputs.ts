import { createHash, randomBytes } from "node:crypto";
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Benchmark, BenchItem, ItemResult, ScoresDocument } from "./benchmark.js";
import { problemList, UsageError, type DataProblem } from "./problems.js";

/** JSON.stringify that writes bigints as numbers when exact, else as strings. */
export function toJson(value: unknown, indent?: number): string {
  return JSON.stringify(
    value,
    (_key, v) => (typeof v === "bigint" ? (v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : String(v)) : v),
    indent,
  );
}

/** Test-only hook: the process kills itself after writing these files' temporaries, before renaming them. */
const CRASH_BEFORE_RENAME = "SPATIALPROBE_TEST_CRASH_BEFORE_RENAME";

function crashHook(file: string): void {
  const names = (process.env[CRASH_BEFORE_RENAME] ?? "").split(",").filter(Boolean);
  if (!names.includes(path.basename(file))) return;
  process.kill(process.pid, "SIGKILL");
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000); // the signal lands meanwhile
}

/**
 * Write a file so that readers see the old content or the new, never a part: the bytes go to a
 * temporary file in the same folder (named `.<name>.<random>.<pid>.tmp`, so a dead writer's leftovers
 * are recognisable), are fsynced, and the temporary is renamed over the target. Returns the sha256
 * of what was written.
 */
export function writeFileAtomic(file: string, content: string | Uint8Array | Iterable<string>): string {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(4).toString("hex")}.${process.pid}.tmp`);
  const hash = createHash("sha256");
  try {
    const fd = openSync(temp, "wx", 0o666);
    try {
      const put = (chunk: string | Uint8Array) => {
        const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
        hash.update(bytes);
        for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
      };
      if (typeof content === "string" || content instanceof Uint8Array) put(content);
      else {
        // Lines are gathered into chunks of about 1 MB: fewer system calls, bounded memory.
        let pending: string[] = [];
        let size = 0;
        for (const piece of content) {
          pending.push(piece);
          size += piece.length;
          if (size >= 1 << 20) {
            put(pending.join(""));
            pending = [];
            size = 0;
          }
        }
        put(pending.join(""));
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    crashHook(file);
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  // The folder is not fsynced: after a power cut the rename may be lost, leaving the old file
  // whole (and outputs.json then tells the files apart), which is all atomicity needs.
  return hash.digest("hex");
}

function* jsonLines(rows: Iterable<unknown>): Iterable<string> {
  for (const row of rows) yield `${toJson(row)}\n`;
}

/** One JSON value a line, written atomically; returns the sha256 of the file. */
export async function writeJsonl(file: string, rows: Iterable<unknown>): Promise<string> {
  return writeFileAtomic(file, jsonLines(rows));
}

/**
 * outputs.json ties a run's output files together. Each file is replaced atomically, but a crash
 * between two renames (or two writers) could leave a scores.json beside items that are not its
 * own. So the files are written in this order: predictions.jsonl, items.jsonl, report.md,
 * scores.json, and last outputs.json, which records the sha256 of each and the created_at of
 * scores.json. A reader that finds items.jsonl's hash or scores.json's created_at differing from
 * outputs.json knows the files do not belong together. (The record lives beside scores.json rather
 * than in it: items.jsonl holds latencies, so a hash inside scores.json would make the scores of
 * two identical runs differ.) Editing scores.json by hand (e.g. a model label) keeps created_at.
 */
export const OUTPUTS_MANIFEST = "outputs.json";

export interface OutputsManifest {
  files: Record<string, { sha256: string; bytes: number }>;
  scores_created_at: string | null;
}

/**
 * Write a finished run: scores.json, items.jsonl, report.md, and (for model runs) the stored
 * predictions in the benchmark's official format, so the official evaluator can re-check them.
 */
export async function writeRunOutputs<I extends BenchItem>(
  outDir: string,
  benchmark: Benchmark<I>,
  scores: ScoresDocument,
  results: ItemResult[],
  options: { rawIds?: Map<string, unknown>; writePredictions: boolean },
): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const files: OutputsManifest["files"] = {};
  const write = (name: string, content: string | Iterable<string>) => {
    const file = path.join(outDir, name);
    const sha256 = writeFileAtomic(file, content);
    files[name] = { sha256, bytes: statSync(file).size };
  };
  if (options.writePredictions) {
    const rows = results.map((r) => ({
      [benchmark.predictionIdField]: options.rawIds?.get(r.id) ?? r.id,
      [benchmark.predictionTextField ?? "output"]: r.status === "scored" ? r.answer?.stored ?? "" : "",
      success: r.status === "scored" && r.answer?.status === "ok",
      ...(r.status === "error" ? { error: r.response?.error?.message ?? "error" } : {}),
      ...(r.status === "scored" && r.answer?.status !== "ok" ? { error: `benchmark output: ${r.answer?.reason ?? "unreadable"}` } : {}),
    }));
    write("predictions.jsonl", jsonLines(rows));
  }
  write("items.jsonl", jsonLines(results));
  write("report.md", benchmark.markdown([scores]));
  write("scores.json", `${toJson(scores, 2)}\n`);
  const createdAt = (scores as unknown as { created_at?: unknown }).created_at;
  const manifest: OutputsManifest = { files, scores_created_at: typeof createdAt === "string" ? createdAt : null };
  writeFileAtomic(path.join(outDir, OUTPUTS_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * Problems with a finished run's outputs as outputs.json records them: items.jsonl or scores.json
 * replaced since (a run cut off between two renames). No outputs.json (older folders, or a
 * scores.json copied alone) is no problem.
 */
export function outputsMismatch(dir: string, scores: { created_at?: unknown }): DataProblem[] {
  const manifestFile = path.join(dir, OUTPUTS_MANIFEST);
  if (!existsSync(manifestFile)) return [];
  let manifest: OutputsManifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as OutputsManifest;
  } catch {
    return [{ file: manifestFile, message: "not valid JSON" }];
  }
  const problems = problemList();
  const why = "it changed after the run wrote its outputs (damaged, cut off while being rewritten, or written by another run), so scores.json and items.jsonl may not belong together: run the command again to rewrite them";
  const itemsFile = path.join(dir, "items.jsonl");
  const recorded = manifest.files?.["items.jsonl"];
  if (recorded && existsSync(itemsFile) && createHash("sha256").update(readFileSync(itemsFile)).digest("hex") !== recorded.sha256) {
    problems.push({ file: itemsFile, message: `does not match ${OUTPUTS_MANIFEST}: ${why}` });
  }
  if (manifest.scores_created_at && typeof scores.created_at === "string" && scores.created_at !== manifest.scores_created_at) {
    problems.push({ file: path.join(dir, "scores.json"), message: `created_at ${scores.created_at} is not the ${manifest.scores_created_at} that ${OUTPUTS_MANIFEST} records: ${why}` });
  }
  return problems;
}

/** A result file as read: the parsed lines, the lines that could not be, and a final line still being written. */
export interface ResultLines {
  results: ItemResult[];
  problems: DataProblem[];
  /** live.jsonl only: the 1-based number of a last line without its newline (not yet complete). */
  partialLine: number | null;
}

/** A JSONL file as read: the accepted values, the lines that could not be, and a final line still being written. */
export interface JsonLines<T> {
  values: T[];
  problems: DataProblem[];
  /** Live files only: the 1-based number of a last line without its newline (not yet complete). */
  partialLine: number | null;
}

/**
 * Records a line each. Every line must parse and pass `check` (null: accepted; else what it is
 * not); one that does not is a problem naming the file and line, never skipped silently. For a
 * live file (appended while a run is going), a last line without a trailing newline is a line
 * being written: it is set apart as `partialLine` rather than reported. (Each record is appended
 * with its newline in one write, so a line that has its newline is complete, and only the last can
 * lack it.)
 */
export function readJsonLines<T>(file: string, kind: "final" | "live", check: (value: unknown) => string | null): JsonLines<T> {
  const out: JsonLines<T> = { values: [], problems: [], partialLine: null };
  if (!existsSync(file)) return out;
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n");
  const last = lines.length - 1; // after a trailing newline the last piece is ""
  lines.forEach((line, index) => {
    if (!line.trim()) return;
    if (kind === "live" && index === last) {
      out.partialLine = index + 1;
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      out.problems.push({ file, line: index + 1, message: `not valid JSON (${line.length} characters): a torn or damaged line` });
      return;
    }
    const wrong = check(value);
    if (wrong !== null) {
      out.problems.push({ file, line: index + 1, message: wrong });
      return;
    }
    out.values.push(value as T);
  });
  return out;
}

/** Item results a line each (readJsonLines): every line a JSON object with an id. */
export function readResultLines(file: string, kind: "final" | "live"): ResultLines {
  const read = readJsonLines<ItemResult>(file, kind, (value) =>
    typeof value !== "object" || value === null || Array.isArray(value) || typeof (value as { id?: unknown }).id === "undefined" ? "not an item result (expected a JSON object with an id)" : null);
  return { results: read.values, problems: read.problems, partialLine: read.partialLine };
}

/** While a run is in progress: its header (live.json) and each result as it arrives (live.jsonl). */
export const LIVE_HEADER = "live.json";
export const LIVE_RESULTS = "live.jsonl";

export interface LiveHeader {
  benchmark: string;
  model: string;
  data: string;
  prompt_source: string;
  benchmark_options: Record<string, unknown>;
  n_total: number;
  started_at: string;
}

export interface LiveLog {
  append(result: ItemResult): void;
  /** Stop writing (an interrupted run keeps its live files: they show how far it got). */
  close(): void;
  /** The run finished and wrote its outputs: the live files go. */
  remove(): void;
}

/** Start the live files of a run folder (a resumed run starts them afresh). */
export function openLiveLog(outDir: string, header: LiveHeader): LiveLog {
  mkdirSync(outDir, { recursive: true });
  writeFileAtomic(path.join(outDir, LIVE_HEADER), `${toJson(header, 2)}\n`);
  const resultsFile = path.join(outDir, LIVE_RESULTS);
  const fd = openSync(resultsFile, "w");
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  return {
    append(result) {
      if (open) writeSync(fd, `${toJson(result)}\n`);
    },
    close,
    remove() {
      close();
      rmSync(resultsFile, { force: true });
      rmSync(path.join(outDir, LIVE_HEADER), { force: true });
    },
  };
}

/**
 * Make `outDir` ready for a generator: a new or empty folder is used as it is; a folder holding a
 * set the same generator made (its README.md starts with `readmeMark`) is emptied; anything else
 * is refused, so a generator never deletes a user's files.
 */
export async function prepareGeneratedOutDir(outDir: string, readmeMark: string): Promise<void> {
  if (existsSync(outDir)) {
    const entries = await readdir(outDir);
    if (entries.length > 0) {
      const readme = path.join(outDir, "README.md");
      const ours = existsSync(readme) && (await readFile(readme, "utf8")).startsWith(readmeMark);
      if (!ours) throw new UsageError(`refusing to write into ${outDir}: it is not empty and holds no set generated by spatialprobe`);
      for (const sub of entries) await rm(path.join(outDir, sub), { recursive: true, force: true });
    }
  }
  await mkdir(outDir, { recursive: true });
}

/** Write a generated set's files (paths relative to `root`) in sorted path order, making folders as needed. */
export async function writeFileSet(root: string, files: ReadonlyMap<string, string | Uint8Array>): Promise<void> {
  for (const [rel, content] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const full = path.join(root, rel);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, content);
  }
}
