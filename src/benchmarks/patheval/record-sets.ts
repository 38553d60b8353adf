import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { DataRoot, type DataRootOptions } from "../../core/dataroot.js";
import { parseJson } from "../../core/jsonl.js";
import { problemList, type DataProblem } from "../../core/problems.js";
import type { Dim, PathEvalItem } from "./types.js";

/**
 * The question sets `generate patheval` writes beside the benchmark (fine_grained/, segments/):
 * `<root>/<folder>/<dim>/<prefix>_<dim>.json`, each a JSON array of records with an id and an
 * image. Reading them is the same for every set; what a record must satisfy and the question it
 * makes are each set's own.
 */
export interface RecordSet<R extends { id: string; image: string }> {
  folder: string;
  prefix: string;
  schema: z.ZodType<R>;
  /** What must hold between a record's fields: a problem per violation (none: the record is sound). */
  check(record: R): Array<{ field: string; message: string }>;
  /** The question a sound record makes. */
  item(record: R, at: { dim: Dim; imagePath: string; source: { file: string; index: number } }): PathEvalItem;
}

export type RecordFile = { file: string; dim: Dim };

/** The set's files under a data folder, per dimension (none when the set is absent). */
export function recordSetFiles(set: Pick<RecordSet<never>, "folder" | "prefix">, root: string, tasks?: readonly Dim[]): RecordFile[] {
  if (!existsSync(root) || !statSync(root).isDirectory()) return [];
  return (["2D", "3D"] as const)
    .filter((dim) => !tasks || tasks.includes(dim))
    .map((dim) => ({ file: path.join(root, set.folder, dim, `${set.prefix}_${dim}.json`), dim }))
    .filter((f) => existsSync(f.file));
}

/** Every record of the set as a question, or a problem naming its file and `[index].field`. */
export function loadRecordSet<R extends { id: string; image: string }>(
  set: RecordSet<R>,
  dataRoot: string,
  options: DataRootOptions & { tasks?: readonly Dim[] } = {},
): { items: PathEvalItem[]; problems: DataProblem[]; tasks: Dim[] } {
  const files = recordSetFiles(set, dataRoot, options.tasks);
  const root = new DataRoot(dataRoot, options);
  const items: PathEvalItem[] = [];
  const problems = problemList();
  for (const { file, dim } of files) {
    const display = path.relative(root.dir, file);
    const read = root.readText(file, { what: "data file" });
    if (!read.ok) {
      problems.push({ file: display, message: read.message });
      continue;
    }
    const parsed = parseJson(read.text);
    if (!parsed.ok || !Array.isArray(parsed.value)) {
      problems.push({ file: display, message: parsed.ok ? "expected a JSON array of records" : parsed.message });
      continue;
    }
    const seen = new Set<string>();
    parsed.value.forEach((raw, index) => {
      const at = (field: string, message: string) => problems.push({ file: display, field: `[${index}].${field}`, message });
      const result = set.schema.safeParse(raw);
      if (!result.success) {
        for (const issue of result.error.issues) at(issue.path.join("."), issue.message);
        return;
      }
      const record = result.data;
      const bad = set.check(record);
      if (bad.length > 0) return bad.forEach((b) => at(b.field, b.message));
      if (seen.has(record.id)) return at("id", `duplicate id ${record.id}`);
      seen.add(record.id);
      const image = root.resolve(record.image, "image", { from: path.join(root.dir, set.folder) });
      if (!image.ok) return at("image", image.message);
      items.push(set.item(record, { dim, imagePath: image.path, source: { file: display, index } }));
    });
  }
  return { items, problems, tasks: files.map((f) => f.dim) };
}
