/**
 * Feature rows for the audit's forests. A choice or subset task has one row per candidate
 * (per-option scoring, TsT §3): the item's features, the candidate's own, and hashed word
 * n-grams of the prompt text and of the candidate's text. A number task has one row per item.
 * "text" rows hold only what a model reads without looking (the non-visual inputs); "cues" rows
 * hold only what the benchmark reads off the picture without reasoning.
 */
import { binOf, weightedCuts } from "./forest.js";
import type { AuditUnit, Candidate } from "./types.js";

/** Hash buckets for the prompt's word n-grams and for a candidate's. */
export const PROMPT_BUCKETS = 128;
export const CANDIDATE_BUCKETS = 64;
/** Characters of a prompt that are read (longer prompts are cut, so hashing stays linear and bounded). */
const MAX_TEXT_CHARS = 20_000;

export type View = "text" | "cues";

/** Lower-case word tokens (letters and digits), at most MAX_TEXT_CHARS of input. */
export function words(text: string): string[] {
  return text.slice(0, MAX_TEXT_CHARS).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Unigrams and bigrams of a token list. */
export function ngrams(tokens: readonly string[]): string[] {
  const out = tokens.slice();
  for (let i = 0; i + 1 < tokens.length; i++) out.push(`${tokens[i]} ${tokens[i + 1]}`);
  return out;
}

/** FNV-1a hash of a string into [0, buckets). */
export function bucketOf(gram: string, buckets: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < gram.length; i++) {
    h ^= gram.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % buckets;
}

/** Jaccard overlap of two word sets (0 when both are empty). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Features every candidate has: its place in the list and, when it has text, its length and overlaps. */
export function genericCandidateFeatures(unit: AuditUnit, candidates: readonly Candidate[], index: number): Record<string, number> {
  const c = candidates[index]!;
  const out: Record<string, number> = { position: index, position_from_end: candidates.length - 1 - index, candidates: candidates.length };
  if (c.text === undefined) return out;
  const own = new Set(words(c.text));
  const others = candidates.filter((_, j) => j !== index && candidates[j]!.text !== undefined).map((o) => new Set(words(o.text!)));
  out["length_chars"] = c.text.length;
  out["length_words"] = own.size;
  out["overlap_prompt"] = jaccard(own, new Set(words(unit.text)));
  out["overlap_others"] = others.length === 0 ? 0 : others.reduce((s, o) => s + jaccard(own, o), 0) / others.length;
  return out;
}

/**
 * A task's feature table, binned: named columns, each a Uint8Array of bin codes over the rows (one
 * row per candidate, or per item for numbers). Binning reads no label, so one binning serves every
 * fold. Item-level values are stored once per unit and spread to its rows only as codes, so a
 * set of 10,000 questions with 50 candidates each stays within a byte per row and column.
 */
export interface FeatureTable {
  columns: string[];
  codes: Uint8Array[];
  rows: number;
  /** For each row: its unit's index and its candidate's index (-1 for number tasks). */
  owner: Array<{ unit: number; candidate: number }>;
  /** Per hashed column, the n-grams seen in it with their counts (to name it in reports). */
  grams: Map<number, Map<string, number>>;
}

/** Sparse (column, value) pairs, appended to growing lists. */
class SparseRows {
  readonly starts: number[] = [0];
  readonly cols: number[] = [];
  readonly values: number[] = [];
  add(row: Map<number, number>): void {
    for (const [c, v] of row) {
      if (v === 0 || !Number.isFinite(v)) continue;
      this.cols.push(c);
      this.values.push(v);
    }
    this.starts.push(this.cols.length);
  }
}

/** Build and bin the rows of one task's units for a view. Column names come from the units, in first-seen order. */
export function featureTable(units: readonly AuditUnit[], view: View, bins = 32): FeatureTable {
  const named = new Map<string, number>();
  const columns: string[] = [];
  const column = (name: string): number => {
    let i = named.get(name);
    if (i === undefined) {
      i = columns.length;
      named.set(name, i);
      columns.push(name);
    }
    return i;
  };
  const grams = new Map<number, Map<string, number>>();
  const put = (row: Map<number, number>, name: string, value: number) => {
    const c = column(name);
    row.set(c, (row.get(c) ?? 0) + value);
  };
  const hash = (row: Map<number, number>, prefix: string, text: string, buckets: number) => {
    for (const g of ngrams(words(text))) {
      const name = `${prefix}#${bucketOf(g, buckets)}`;
      put(row, name, 1);
      const seen = grams.get(column(name)) ?? new Map<string, number>();
      if (seen.size < 64 || seen.has(g)) seen.set(g, (seen.get(g) ?? 0) + 1);
      grams.set(column(name), seen);
    }
  };

  const unitRows = new SparseRows();
  const candidateRows = new SparseRows();
  const owner: FeatureTable["owner"] = [];
  units.forEach((unit, u) => {
    const base = new Map<number, number>();
    if (view === "text") {
      for (const [k, v] of Object.entries(unit.features)) put(base, `item:${k}`, v);
      hash(base, "prompt", unit.text, PROMPT_BUCKETS);
    } else {
      for (const [k, v] of Object.entries(unit.cues ?? {})) put(base, `cue:${k}`, v);
    }
    unitRows.add(base);
    const form = unit.answer;
    if (form.kind === "number") {
      candidateRows.add(new Map());
      owner.push({ unit: u, candidate: -1 });
      return;
    }
    form.candidates.forEach((c, ci) => {
      const row = new Map<number, number>();
      if (view === "text") {
        for (const [k, v] of Object.entries(genericCandidateFeatures(unit, form.candidates, ci))) put(row, `option:${k}`, v);
        for (const [k, v] of Object.entries(c.features)) put(row, `option:${k}`, v);
        if (c.text !== undefined) hash(row, "option-text", c.text, CANDIDATE_BUCKETS);
      } else {
        for (const [k, v] of Object.entries(c.cues ?? {})) put(row, `option-cue:${k}`, v);
      }
      candidateRows.add(row);
      owner.push({ unit: u, candidate: ci });
    });
  });

  // Each column's non-zero values with their weights (an item value counts once per row of its unit); zeros weigh the rest.
  const rowsOfUnit = new Array<number>(units.length).fill(0);
  for (const o of owner) rowsOfUnit[o.unit]!++;
  const valuesOf = columns.map(() => ({ values: [] as number[], weights: [] as number[] }));
  const collect = (sparse: SparseRows, weight: (i: number) => number) => {
    for (let i = 0; i + 1 < sparse.starts.length; i++) {
      for (let k = sparse.starts[i]!; k < sparse.starts[i + 1]!; k++) {
        valuesOf[sparse.cols[k]!]!.values.push(sparse.values[k]!);
        valuesOf[sparse.cols[k]!]!.weights.push(weight(i));
      }
    }
  };
  collect(unitRows, (u) => rowsOfUnit[u]!);
  collect(candidateRows, () => 1);
  const rows = owner.length;
  const codes = valuesOf.map(({ values, weights }) => {
    const zeros = rows - weights.reduce((s, w) => s + w, 0);
    const cuts = weightedCuts([...values, 0], [...weights, Math.max(zeros, 0)], bins);
    const out = new Uint8Array(rows).fill(binOf(cuts, 0));
    return { cuts, out };
  });
  const firstRow: number[] = [];
  owner.forEach((o, r) => {
    if (firstRow[o.unit] === undefined) firstRow[o.unit] = r;
  });
  for (let u = 0; u < units.length; u++) {
    for (let k = unitRows.starts[u]!; k < unitRows.starts[u + 1]!; k++) {
      const { cuts, out } = codes[unitRows.cols[k]!]!;
      const code = binOf(cuts, unitRows.values[k]!);
      for (let r = firstRow[u]!; r < firstRow[u]! + rowsOfUnit[u]!; r++) out[r] = code;
    }
  }
  for (let r = 0; r < rows; r++) {
    for (let k = candidateRows.starts[r]!; k < candidateRows.starts[r + 1]!; k++) {
      const { cuts, out } = codes[candidateRows.cols[k]!]!;
      out[r] = binOf(cuts, candidateRows.values[k]!);
    }
  }
  return { columns, codes: codes.map((c) => c.out), rows, owner, grams };
}

/** A column's readable name: a hashed column is shown by the n-grams that fell in it most often. */
export function columnLabel(table: FeatureTable, column: number): string {
  const name = table.columns[column]!;
  const seen = table.grams.get(column);
  if (!seen) return name;
  const top = [...seen.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 3).map(([g]) => `"${g}"`);
  return `${name.split("#")[0]} words ${top.join(", ")}`;
}
