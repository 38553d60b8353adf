import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { DataRoot, type DataRootOptions } from "../../core/dataroot.js";
import { parseJson } from "../../core/jsonl.js";
import type { DataProblem } from "../../core/problems.js";
import type { FineGrainedDetail } from "./probes.js";
import { DESCRIPTORS, type Descriptors } from "./scenarios.js";
import type { Dim, PathEvalItem } from "./types.js";

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

const point = z.tuple([z.number(), z.number()]);
const recordSchema = z.object({
  id: z.string().min(1).max(200),
  image: z.string().min(1).max(1000),
  segment_type: z.enum(TYPES),
  clearance: z.object({ "Path 1": z.number().nonnegative(), "Path 2": z.number().nonnegative() }),
  difference: z.number(),
  closer: z.enum(["Path 1", "Path 2"]),
  segments: z.object({ "Path 1": z.array(point).min(1).max(10_000), "Path 2": z.array(point).min(1).max(10_000) }),
});

export function segmentFiles(root: string, tasks?: readonly Dim[]): Array<{ file: string; dim: Dim }> {
  if (!existsSync(root) || !statSync(root).isDirectory()) return [];
  return (["2D", "3D"] as const)
    .filter((dim) => !tasks || tasks.includes(dim))
    .map((dim) => ({ file: path.join(root, SEGMENTS_FOLDER, dim, `segments_${dim}.json`), dim }))
    .filter((f) => existsSync(f.file));
}

/** Descriptor slots are not meaningful for segments: the clearance is put in the three clearance slots, the rest 0. */
const asMetrics = (clearance: number): Descriptors => Object.fromEntries(DESCRIPTORS.map((d) => [d, d.endsWith("clearance") ? clearance : 0])) as Descriptors;

export function loadSegmentSet(dataRoot: string, options: DataRootOptions & { tasks?: readonly Dim[] } = {}): { items: PathEvalItem[]; problems: DataProblem[]; tasks: Dim[] } {
  const files = segmentFiles(dataRoot, options.tasks);
  const root = new DataRoot(dataRoot, options);
  const items: PathEvalItem[] = [];
  const problems: DataProblem[] = [];
  for (const { file, dim } of files) {
    const display = path.relative(root.dir, file);
    const parsed = parseJson(readFileSync(file, "utf8"));
    if (!parsed.ok || !Array.isArray(parsed.value)) {
      problems.push({ file: display, message: parsed.ok ? "expected a JSON array of records" : parsed.message });
      continue;
    }
    const seen = new Set<string>();
    parsed.value.forEach((raw, index) => {
      const result = recordSchema.safeParse(raw);
      if (!result.success) {
        for (const issue of result.error.issues) problems.push({ file: display, field: `[${index}].${issue.path.join(".")}`, message: issue.message });
        return;
      }
      const r = result.data;
      const a = r.clearance["Path 1"], b = r.clearance["Path 2"];
      const where = (field: string, message: string) => problems.push({ file: display, field: `[${index}].${field}`, message });
      if (!(a < b) && !(a > b)) return where("clearance", "the two clearances are equal: no closer segment");
      if ((a < b ? "Path 1" : "Path 2") !== r.closer) return where("closer", `must be ${a < b ? "Path 1" : "Path 2"} by the clearances`);
      if (Math.abs(Math.abs(a - b) - r.difference) > 1e-9 * Math.max(1, a, b)) return where("difference", `must be |Path 1 - Path 2| = ${Math.abs(a - b)}`);
      if (seen.has(r.id)) return where("id", `duplicate id ${r.id}`);
      seen.add(r.id);
      const image = root.resolve(r.image, "image", { from: path.join(root.dir, SEGMENTS_FOLDER) });
      if (!image.ok) return where("image", image.message);
      const probe: SegmentProbeDetail = { kind: "fine-grained", descriptor: "Minimum clearance", smaller: r.closer, difference: r.difference, level: "below", set: "segments", segment: r.segment_type };
      items.push({
        id: `segments/${dim}/${r.id}`,
        recordId: r.id,
        task: dim,
        cluster: r.id,
        imagePath: image.path,
        question: "Which segment is closer to the obstacle?",
        truth: r.closer,
        metrics: { "Path 1": asMetrics(a), "Path 2": asMetrics(b) },
        paths: r.segments,
        source: { file: display, index },
        probe,
      });
    });
  }
  return { items, problems, tasks: files.map((f) => f.dim) };
}
