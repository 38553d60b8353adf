import { z } from "zod";
import { pathMeasure } from "../../core/limits.js";
import type { DataRootOptions } from "../../core/dataroot.js";
import type { DataProblem } from "../../core/problems.js";
import type { FineGrainedDetail } from "./probes.js";
import { DESCRIPTORS, type Descriptors } from "./scenarios.js";
import type { Dim, PathEvalItem } from "./types.js";
import { loadRecordSet, recordSetFiles, type RecordFile, type RecordSet } from "./record-sets.js";

/**
 * Loading the segment-complexity study (segments.ts): `<root>/segments/<dim>/segments_<dim>.json`.
 * A question is a fine-grained probe of set "segments": which segment is closer to the obstacle
 * (`smaller` = the closer one, `segment` its type). Each record's `difference` and `closer` must
 * follow from its clearances.
 */

export const SEGMENTS_FOLDER = "segments";
const TYPES = ["point", "line", "curve"] as const;
export type SegmentKind = (typeof TYPES)[number];

/** A segment question's probe: the fine-grained shape plus the segment type. */
export interface SegmentProbeDetail extends FineGrainedDetail {
  set: "segments";
  segment: SegmentKind;
}

// Every number bounded (core/limits.ts): clearances, differences and points within a million.
const point = z.tuple([pathMeasure(), pathMeasure()]);
const recordSchema = z.object({
  id: z.string().min(1).max(200),
  image: z.string().min(1).max(1000),
  segment_type: z.enum(TYPES),
  clearance: z.object({ "Path 1": pathMeasure().nonnegative(), "Path 2": pathMeasure().nonnegative() }),
  difference: pathMeasure(),
  closer: z.enum(["Path 1", "Path 2"]),
  segments: z.object({ "Path 1": z.array(point).min(1).max(10_000), "Path 2": z.array(point).min(1).max(10_000) }),
});

export const segmentFiles = (root: string, tasks?: readonly Dim[]): RecordFile[] => recordSetFiles(SEGMENT_SET, root, tasks);

/** Descriptor slots are not meaningful for segments: the clearance is put in the three clearance slots, the rest 0. */
const asMetrics = (clearance: number): Descriptors => Object.fromEntries(DESCRIPTORS.map((d) => [d, d.endsWith("clearance") ? clearance : 0])) as Descriptors;

/** What must hold between a segment record's fields: the first violation (the later checks read the earlier fields). */
function segmentProblems(r: z.infer<typeof recordSchema>): Array<{ field: string; message: string }> {
  const a = r.clearance["Path 1"], b = r.clearance["Path 2"];
  if (!(a < b) && !(a > b)) return [{ field: "clearance", message: "the two clearances are equal: no closer segment" }];
  if ((a < b ? "Path 1" : "Path 2") !== r.closer) return [{ field: "closer", message: `must be ${a < b ? "Path 1" : "Path 2"} by the clearances` }];
  if (Math.abs(Math.abs(a - b) - r.difference) > 1e-9 * Math.max(1, a, b)) return [{ field: "difference", message: `must be |Path 1 - Path 2| = ${Math.abs(a - b)}` }];
  return [];
}

const SEGMENT_SET: RecordSet<z.infer<typeof recordSchema>> = {
  folder: SEGMENTS_FOLDER,
  prefix: "segments",
  schema: recordSchema,
  check: segmentProblems,
  item: (r, { dim, imagePath, source }) => {
    const probe: SegmentProbeDetail = { kind: "fine-grained", descriptor: "Minimum clearance", smaller: r.closer, difference: r.difference, level: "below", set: "segments", segment: r.segment_type };
    return {
      id: `segments/${dim}/${r.id}`,
      recordId: r.id,
      task: dim,
      cluster: r.id,
      imagePath,
      question: "Which segment is closer to the obstacle?",
      truth: r.closer,
      metrics: { "Path 1": asMetrics(r.clearance["Path 1"]), "Path 2": asMetrics(r.clearance["Path 2"]) },
      paths: r.segments,
      source,
      probe,
    };
  },
};

export function loadSegmentSet(dataRoot: string, options: DataRootOptions & { tasks?: readonly Dim[] } = {}): { items: PathEvalItem[]; problems: DataProblem[]; tasks: Dim[] } {
  return loadRecordSet(SEGMENT_SET, dataRoot, options);
}
