/**
 * The valid datasets the dataset fuzz cases start from ("seeds"): for each benchmark, a few small
 * copies of a shipped example set (or a test fixture), each trimmed to the one question it fuzzes,
 * so that a case loads, prompts and scores a single item, pruned to the folders that item uses, with
 * its videos shrunk to 32 x 24 pixels frame for frame. A seed lists its documents (the row, and the JSON files the row points at that
 * the loader parses) and its media (the files a row names, and the first frame of each frame folder
 * it names, replaced whole by file-level cases).
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { TINY_PNG } from "../../helpers/media.js";
import { DESCRIPTORS } from "../../../src/benchmarks/patheval/scenarios.js";
import { fieldNodes, type JsonPath } from "./json-tree.js";

export const REPO = path.resolve(import.meta.dirname, "../../..");

/** A parsed document a case fuzzes: a JSONL row (line 1 of its file) or a JSON file (the node at `at`). */
export interface DocRef {
  file: string;
  format: "jsonl" | "json";
  /** Where the fuzzed object sits inside a JSON file (PathEval: one record of the array). */
  at: JsonPath;
  /** Fuzz its fields one by one (false: only whole-document and whole-file cases). */
  fields: boolean;
}

export interface Seed {
  benchmark: string;
  name: string;
  /** The trimmed copy (absolute). */
  base: string;
  docs: DocRef[];
  /** Files the documents name, relative to the base. */
  media: string[];
  /** The first frame of each frame folder the documents name (replaced whole too, but a folder's rules differ). */
  frames: string[];
}

interface SeedSpec {
  benchmark: string;
  name: string;
  /** The set copied (relative to the repository). */
  source?: string;
  /** Trim the copy to one question; returns its documents. */
  trim(base: string): DocRef[];
}

const jsonl = (file: string, fields = true): DocRef => ({ file, format: "jsonl", at: [], fields });
const json = (file: string, at: JsonPath = []): DocRef => ({ file, format: "json", at, fields: true });

/** Keep only the first row of a JSONL file that `pick` accepts. */
function keepRow(file: string, pick: (row: Record<string, unknown>) => boolean): Record<string, unknown> {
  const rows = readFileSync(file, "utf8").split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as Record<string, unknown>);
  const row = rows.find(pick);
  if (!row) throw new Error(`no row to keep in ${file}`);
  writeFileSync(file, `${JSON.stringify(row)}\n`);
  return row;
}

/** Files below `dir` (relative to it) whose name matches. */
function filesBelow(dir: string, match: RegExp): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => match.test(f) && statSync(path.join(dir, f)).isFile());
}

function egopathSeed(task: string): SeedSpec {
  return {
    benchmark: "egopath",
    name: `egopath-${task}`,
    source: "examples/egopath-mini",
    trim(base) {
      const split = path.join(base, "benchmark_evalfix/benchmark");
      for (const kind of ["vqa", "gt"]) {
        for (const name of readdirSync(path.join(split, kind))) if (!name.endsWith(`_${task}.jsonl`)) rmSync(path.join(split, kind, name));
      }
      const row = keepRow(path.join(split, "vqa", `vqa_next_${task}.jsonl`), () => true);
      keepRow(path.join(split, "gt", `gt_next_${task}.jsonl`), (r) => r["question_id"] === row["question_id"]);
      const truth = row["ground_truth"] as Record<string, unknown>;
      // The gt row's fields only fill what the vqa row's ground_truth lacks (none here): its fields are fuzzed there.
      const docs = [jsonl(`benchmark_evalfix/benchmark/vqa/vqa_next_${task}.jsonl`), jsonl(`benchmark_evalfix/benchmark/gt/gt_next_${task}.jsonl`, false), json(row["visible_waypoints_path"] as string)];
      if (typeof truth["direct_pairs_ref"] === "string") docs.push(json(truth["direct_pairs_ref"]));
      return docs;
    },
  };
}

/** The first sample (by file name) of one task folder of examples/epic-mini, the others removed. */
function epicSeed(name: string, folder: string): SeedSpec {
  return {
    benchmark: "epic",
    name,
    source: "examples/epic-mini",
    trim(base) {
      const files = filesBelow(path.join(base, "EPIC_Bench"), /_mask_rle\.json$/).sort();
      const keep = files.find((file) => file.startsWith(`${folder}/`));
      if (!keep) throw new Error(`examples/epic-mini has no sample in ${folder}`);
      for (const file of files) if (file !== keep) rmSync(path.join(base, "EPIC_Bench", file));
      return [json(`EPIC_Bench/${keep}`)];
    },
  };
}

/** A seed of one JSONL row; `patch` adds fields the shipped row leaves out (a frame spec), so they are fuzzed too. */
function jsonlSeed(benchmark: string, name: string, source: string, file: string, pick: (row: Record<string, unknown>) => boolean, patch?: (row: Record<string, unknown>) => void): SeedSpec {
  return {
    benchmark,
    name,
    source,
    trim(base) {
      const row = keepRow(path.join(base, file), pick);
      if (patch) {
        patch(row);
        writeFileSync(path.join(base, file), `${JSON.stringify(row)}\n`);
      }
      return [jsonl(file)];
    },
  };
}

/** EgoTL rows with each kind of frame spec (the shipped rows use the task default). */
const EGOTL_SPECS: Record<string, unknown> = {
  planning: { mode: "indices", indices: [0, 20, 40] },
  next_action: { mode: "fps", fps: 2 },
  distance: { mode: "uniform", count: 4 },
};
const withSpec = (task: string) => (row: Record<string, unknown>) => {
  if (EGOTL_SPECS[task]) (row["media"] as Record<string, unknown>)["spec"] = EGOTL_SPECS[task];
};

/** A two-record PathEval set written by hand (no example set ships): record 0 is fuzzed. */
const pathevalSeed: SeedSpec = {
  benchmark: "patheval",
  name: "patheval-2d",
  trim(base) {
    mkdirSync(path.join(base, "2D"), { recursive: true });
    writeFileSync(path.join(base, "2D", "pair.png"), TINY_PNG);
    const metrics = Object.fromEntries(["Path 1", "Path 2"].map((name, k) => [name, Object.fromEntries(DESCRIPTORS.map((d, i) => [d, k + i + 0.5]))]));
    const record = (id: number) => ({
      id,
      image: "pair.png",
      conversations: [
        { from: "human", value: "A large truck must pass through. Which path is better, Path 1 or Path 2?" },
        { from: "gpt", value: "Path 2" },
      ],
      metrics,
      scenario_id: 1,
      scenario: "A large truck must pass through.",
      environment: "env_0",
      paths: { "Path 1": [[-35, -35], [0, 0], [35, 35]], "Path 2": [[-35, -35], [35, 35]] },
    });
    writeFileSync(path.join(base, "2D", "test_dataset_2D.json"), JSON.stringify([record(1), record(2)]));
    return [json("2D/test_dataset_2D.json", [0])];
  },
};

const taskIs = (task: string) => (row: Record<string, unknown>) => row["task"] === task;
const idIs = (id: string) => (row: Record<string, unknown>) => row["id"] === id;

export const SEED_SPECS: SeedSpec[] = [
  ...["a1", "b1", "a2", "c"].map(egopathSeed),
  epicSeed("epic-category", "TargetLocalization/BasicAttributes/Category"),
  epicSeed("epic-feasible-path", "Navigation/FeasiblePath/FeasiblePath_Ego"),
  epicSeed("epic-visual-matching", "Navigation/VisualMatching"),
  jsonlSeed("vcn", "vcn-video-order", "examples/vcn-mini", "items.jsonl", idIs("vcn_0003")),
  jsonlSeed("vcn", "vcn-video-instance", "examples/vcn-mini", "items.jsonl", idIs("vcn_0010")),
  jsonlSeed("vcn", "vcn-dir-count", "test/fixtures/vcn-legacy-mini", "items.jsonl", idIs("house_1/count")),
  ...["planning", "scene_action", "next_action", "action_recognition", "direction", "distance"].map((task) =>
    jsonlSeed("egotl", `egotl-${task}`, "examples/egotl-mini", "test.jsonl", taskIs(task), withSpec(task)),
  ),
  jsonlSeed("egotl", "egotl-dir-fps", "test/fixtures/egotl-legacy-mini", "test.jsonl", taskIs("planning")),
  jsonlSeed("egotl", "egotl-frames", "test/fixtures/egotl-legacy-mini", "test.jsonl", taskIs("next_action")),
  pathevalSeed,
];

/** The JSON value a document holds (the fuzzed object). */
export function readDoc(base: string, doc: DocRef): unknown {
  const text = readFileSync(path.join(base, doc.file), "utf8");
  let value: unknown = doc.format === "jsonl" ? JSON.parse(text.split("\n")[0]!) : JSON.parse(text);
  for (const key of doc.at) value = (value as Record<string | number, unknown>)[key];
  return value;
}

/**
 * Files a seed's documents name (by a string field that resolves, from the base or from the
 * document's folder, to a file; a frame folder gives its first frame), and for EPIC-Bench the
 * images found beside the ground truth.
 */
function mediaOf(base: string, docs: DocRef[]): { media: string[]; frames: string[] } {
  const found = new Set<string>();
  const frames = new Set<string>();
  const docFiles = new Set(docs.map((d) => d.file));
  for (const doc of docs) {
    for (const node of fieldNodes(readDoc(base, doc))) {
      if (node.kind !== "string") continue;
      for (const from of [base, path.join(base, path.dirname(doc.file))]) {
        const full = path.resolve(from, node.value as string);
        if (!full.startsWith(`${base}/`) || !existsSync(full)) continue;
        if (statSync(full).isDirectory()) {
          const first = readdirSync(full).sort().map((f) => path.join(full, f)).find((f) => statSync(f).isFile());
          if (first) frames.add(path.relative(base, first));
        } else {
          found.add(path.relative(base, full));
        }
        break;
      }
    }
    if (doc.file.endsWith("_mask_rle.json")) {
      const dir = path.dirname(doc.file);
      const stem = path.basename(doc.file).replace(/_mask_rle\.json$/, "").split("__");
      for (const name of readdirSync(path.join(base, dir))) {
        if (stem.some((s) => name.startsWith(`${s}_`)) && /\.(jpe?g|png)$/i.test(name)) found.add(path.join(dir, name));
      }
    }
  }
  return { media: [...found].filter((f) => !docFiles.has(f)).sort(), frames: [...frames].sort() };
}

/**
 * Remove what the seed's question cannot need: only files in the folders on the way to a file it
 * names stay (the root's own files, the scene's and view's, the frame folder's), so copies of a
 * seed are small; the test that every seed validates, runs and scores unchanged checks the cut.
 */
function prune(base: string, kept: string[]): void {
  const folders = new Set<string>();
  for (const file of kept) for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    folders.add(dir);
    if (dir === "." || dir === "/") break;
  }
  for (const file of (readdirSync(base, { recursive: true }) as string[]).sort().reverse()) {
    const full = path.join(base, file);
    if (!existsSync(full)) continue;
    if (statSync(full).isDirectory()) {
      if (readdirSync(full).length === 0) rmSync(full, { recursive: true });
    } else if (!folders.has(path.dirname(file))) {
      rmSync(full);
    }
  }
}

/**
 * Every video a seed's row names re-encoded at 32 x 24 pixels, frame for frame (same count, same
 * timestamps): probing and sampling, which every case of a video seed does, get several times
 * cheaper, and nothing a row says about the video changes.
 */
function shrinkVideos(base: string, files: string[]): void {
  for (const file of files.filter((f) => /\.mp4$/i.test(f))) {
    const full = path.join(base, file);
    const small = `${full}.small.mp4`;
    execFileSync("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-y", "-i", full, "-vf", "scale=32:24", "-fps_mode", "passthrough", "-an", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", small]);
    renameSync(small, full);
  }
}

/** Make every seed's trimmed copy under `dir`. */
export function makeSeeds(dir: string): Seed[] {
  return SEED_SPECS.map((spec) => {
    const base = path.join(dir, spec.name);
    if (spec.source) cpSync(path.join(REPO, spec.source), base, { recursive: true });
    else mkdirSync(base, { recursive: true });
    const docs = spec.trim(base);
    const media = mediaOf(base, docs);
    prune(base, [...docs.map((d) => d.file), ...media.media, ...media.frames]);
    shrinkVideos(base, media.media);
    return { benchmark: spec.benchmark, name: spec.name, base, docs, ...media };
  });
}
