import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { boundedArray, pathMeasure } from "../../core/limits.js";
import type { DataRootOptions } from "../../core/dataroot.js";
import type { DataProblem } from "../../core/problems.js";
import { EPSILON_LEVELS, PAPER_TABLE_8, type FineGrainedDetail } from "./probes.js";
import { DESCRIPTORS, type DescriptorName } from "./scenarios.js";
import type { Dim, PathEvalItem } from "./types.js";
import { loadRecordSet, recordSetFiles, type RecordFile, type RecordSet } from "./record-sets.js";

/**
 * Loading the fine-grained set that `generate patheval` writes (finegrained-set.ts):
 * `<root>/fine_grained/<dim>/fine_grained_<dim>.json`, pictures named relative to `fine_grained/`.
 * Each record is checked against itself: the difference and the smaller path must follow from
 * its metrics, its ε must be Table 8's for its index and exceeded by the difference.
 */

export const FINE_GRAINED_FOLDER = "fine_grained";

// Every number bounded (core/limits.ts): descriptor values, thresholds and points within a million.
const descriptorShape = z.object(Object.fromEntries(DESCRIPTORS.map((d) => [d, pathMeasure()])) as Record<DescriptorName, z.ZodNumber>);
const point = z.tuple([pathMeasure(), pathMeasure()]);

const recordSchema = z.object({
  id: z.string().min(1).max(200),
  image: z.string().min(1).max(1000),
  descriptor: z.enum(DESCRIPTORS as unknown as [DescriptorName, ...DescriptorName[]]),
  epsilon_index: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  epsilon: pathMeasure(),
  difference: pathMeasure(),
  smaller: z.enum(["Path 1", "Path 2"]),
  environment: z.string().min(1),
  metrics: z.object({ "Path 1": descriptorShape, "Path 2": descriptorShape }),
  paths: z.object({ "Path 1": boundedArray(point), "Path 2": boundedArray(point) }).optional(),
});

const FINE_GRAINED_SET: RecordSet<z.infer<typeof recordSchema>> = {
  folder: FINE_GRAINED_FOLDER,
  prefix: "fine_grained",
  schema: recordSchema,
  check: inconsistencies,
  item: (r, { dim, imagePath, source }) => {
    const probe: FineGrainedDetail = {
      kind: "fine-grained", descriptor: r.descriptor, smaller: r.smaller, difference: r.difference,
      level: EPSILON_LEVELS[r.epsilon_index - 1]!, set: "generated", epsilon: r.epsilon,
    };
    return {
      id: `fine-grained/${dim}/${r.id}`,
      recordId: r.id,
      task: dim,
      cluster: r.environment,
      imagePath,
      question: `Which path has the smaller ${r.descriptor}?`,
      truth: r.smaller,
      metrics: r.metrics,
      ...(r.paths ? { paths: r.paths } : {}),
      environment: r.environment,
      source,
      probe,
    };
  },
};

/** The generated set's files under a data folder, per dimension (none when the set is absent). */
export const fineGrainedFiles = (root: string, tasks?: readonly Dim[]): RecordFile[] => recordSetFiles(FINE_GRAINED_SET, root, tasks);

/** What must hold between a record's fields; a message per violation. */
function inconsistencies(r: z.infer<typeof recordSchema>): Array<{ field: string; message: string }> {
  const a = r.metrics["Path 1"][r.descriptor];
  const b = r.metrics["Path 2"][r.descriptor];
  const out: Array<{ field: string; message: string }> = [];
  const tolerance = 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  if (Math.abs(Math.abs(a - b) - r.difference) > tolerance) out.push({ field: "difference", message: `must be |Path 1 - Path 2| = ${Math.abs(a - b)}` });
  if (!(a < b) && !(a > b)) out.push({ field: "metrics", message: "the two paths have the same value: no smaller path" });
  else if ((a < b ? "Path 1" : "Path 2") !== r.smaller) out.push({ field: "smaller", message: `must be ${a < b ? "Path 1" : "Path 2"} by the metrics` });
  const epsilon = PAPER_TABLE_8[r.descriptor][r.epsilon_index - 1]!;
  if (r.epsilon !== epsilon) out.push({ field: "epsilon", message: `must be ${epsilon} (Table 8, ε${r.epsilon_index} of ${r.descriptor})` });
  else if (!(r.difference > epsilon)) out.push({ field: "difference", message: `must exceed ε = ${epsilon}` });
  return out;
}

export function loadFineGrainedSet(dataRoot: string, options: DataRootOptions & { tasks?: readonly Dim[] } = {}): { items: PathEvalItem[]; problems: DataProblem[]; tasks: Dim[] } {
  return loadRecordSet(FINE_GRAINED_SET, dataRoot, options);
}

/** What `generate patheval` prints about the fine-grained set it wrote (from fine_grained/stats.json). */
export function fineGrainedSummaryLines(outDir: string): string[] {
  const file = path.join(outDir, FINE_GRAINED_FOLDER, "stats.json");
  if (!existsSync(file)) return [];
  const stats = JSON.parse(readFileSync(file, "utf8")) as { pairs_per_epsilon: number; drawn: Record<string, number[]> };
  const cells = Object.values(stats.drawn).flat();
  const short = cells.filter((n) => n < stats.pairs_per_epsilon).length;
  return [
    `fine-grained set (App. C.2, Table 8 ε): ${cells.reduce((s, n) => s + n, 0)} questions per dimension in ${FINE_GRAINED_FOLDER}/` +
      (short > 0 ? `; ${short} of ${cells.length} descriptor x ε cells have fewer than ${stats.pairs_per_epsilon} qualifying pairs (see ${FINE_GRAINED_FOLDER}/stats.json)` : ""),
  ];
}
