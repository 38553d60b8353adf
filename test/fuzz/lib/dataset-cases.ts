/**
 * The dataset fuzz cases of every seed, in a fixed order: first the seed unchanged (it must pass),
 * then cases that each change one thing of it.
 * - every field of every document (the row, and the JSON files it points at that the loader
 *   parses), set to each extreme of its kind (extremes.ts); of each list one element, drawn from
 *   the suite's seed;
 * - every document replaced by a malformed one (mutations.ts ROW_VARIANTS);
 * - every document and every media file replaced whole (mutations.ts FILE_VARIANTS).
 * What several seeds of a benchmark share is fuzzed once, in the first seed that has it: a field
 * (same kind of document, same path), a document kind, a kind of media file (its extension).
 */
import path from "node:path";
import { extremesFor } from "./extremes.js";
import { fieldKey, pathText } from "./json-tree.js";
import { FILE_VARIANTS, fuzzableNodes, ROW_VARIANTS } from "./mutations.js";
import { rngFor } from "./random.js";
import type { Seed } from "./seeds.js";
import { LIMIT_MS } from "./suite.js";
import type { DatasetCase } from "./types.js";

/**
 * Lists of 200,000 or 150,000 entries: such a case reads them three times (validate, run, score),
 * seconds of honest work on a loaded machine, so it gets twice the limit; an unbounded loop still
 * never ends within it.
 */
const LONG_LISTS = new Set(["huge", "huge-out-of-range"]);

/** A document's kind within its benchmark: its file name without folders and task code. */
const docKind = (file: string) => path.basename(file).replace(/_(a1|b1|a2|b2|c)\./, ".");

export function datasetCases(seeds: Seed[], suiteSeed: number): DatasetCase[] {
  const cases: DatasetCase[] = [];
  const seen = new Set<string>();
  for (const seed of seeds) {
    /** Add the case unless an earlier seed of the benchmark has one for the same key. */
    const add = (key: string, what: string, mutation: DatasetCase["mutation"]) => {
      const full = `${seed.benchmark}|${key}`;
      if (seen.has(full)) return;
      seen.add(full);
      const long = mutation.kind === "field" && LONG_LISTS.has(mutation.extreme);
      cases.push({ family: "dataset", id: `${seed.name}:${what}`, seed: seed.name, benchmark: seed.benchmark, mutation, ...(long ? { limitMs: 2 * LIMIT_MS } : {}) });
    };
    add(`(unchanged)|${seed.name}`, "(unchanged)", { kind: "none" });
    seed.docs.forEach((doc, index) => {
      const kind = docKind(doc.file);
      const rng = rngFor(suiteSeed, `${seed.name}:${doc.file}`);
      for (const node of doc.fields ? fuzzableNodes(seed, index, (length) => rng.below(length)) : []) {
        for (const extreme of extremesFor(node)) {
          add(`${kind}|${fieldKey(node.path)}|${extreme.name}`, `${doc.file}:${pathText(node.path)}=${extreme.name}`, { kind: "field", doc: index, path: node.path, extreme: extreme.name });
        }
      }
      for (const [variant, spec] of Object.entries(ROW_VARIANTS)) {
        if (spec.applies(doc.format)) add(`${kind}|(document)|${variant}`, `${doc.file}:(document)=${variant}`, { kind: "row", doc: index, variant });
      }
      for (const [variant, spec] of Object.entries(FILE_VARIANTS)) {
        if (spec.applies(doc.file, "doc")) add(`${kind}|(file)|${variant}`, `${doc.file}:(file)=${variant}`, { kind: "file", file: doc.file, role: "doc", variant });
      }
    });
    const media = [...seed.media.map((file) => ({ file, role: "media" as const })), ...seed.frames.map((file) => ({ file, role: "frame" as const }))];
    for (const { file, role } of media) {
      for (const [variant, spec] of Object.entries(FILE_VARIANTS)) {
        const ext = path.extname(file).toLowerCase();
        if (spec.applies(file, role)) add(`${role}${ext}|${variant}`, `${file}:(file)=${variant}`, { kind: "file", file, role, variant });
      }
    }
  }
  return cases;
}
