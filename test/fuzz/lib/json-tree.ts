/**
 * JSON documents as trees of fields: every node of a row with its path, reading and replacing the
 * value at a path, and writing JSON that holds tokens JSON.stringify cannot write (NaN, integers
 * past 2^53 written exactly), which the Python-compatible readers of the project accept.
 */

export type JsonPath = Array<string | number>;

/** A token written into the JSON text as it is (e.g. `NaN`, `9007199254740993`). */
export class Raw {
  constructor(readonly text: string) {}
}

export type NodeKind = "number" | "string" | "boolean" | "null" | "array" | "object";

export interface FieldNode {
  path: JsonPath;
  kind: NodeKind;
  value: unknown;
}

export function kindOf(value: unknown): NodeKind {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  const type = typeof value;
  if (type === "number" || type === "string" || type === "boolean") return type;
  return "object";
}

/**
 * Every node of `value` (the root excluded) in document order. Of an array one element is walked
 * (the elements of a row's lists share one shape): the one `pickIndex` draws (the caller draws it
 * from the seeded generator; default the first), or with `allOfShortLists` every element of a list
 * of at most four (a position, a rotation); likewise of an object keyed by ids, or of a record of
 * four or more values of one kind; inside `meta` (free-form provenance) nothing.
 */
export function fieldNodes(value: unknown, pickIndex: (length: number) => number = () => 0, at: JsonPath = [], allOfShortLists = false): FieldNode[] {
  const out: FieldNode[] = [];
  const visit = (child: unknown, where: JsonPath) => {
    out.push({ path: where, kind: kindOf(child), value: child });
    out.push(...fieldNodes(child, pickIndex, where, allOfShortLists));
  };
  if (Array.isArray(value)) {
    if (value.length === 0) return out;
    if (allOfShortLists && value.length <= 4) {
      value.forEach((child, index) => visit(child, [...at, index]));
      return out;
    }
    const index = Math.min(value.length - 1, Math.max(0, pickIndex(value.length)));
    visit(value[index], [...at, index]);
  } else if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    // Free-form provenance (the schemas' `meta`, ignored by the benchmarks) is fuzzed whole, not field by field.
    if (at[at.length - 1] === "meta") return out;
    // A map keyed by ids ({"1": [...], "2": [...]}), or a record of four or more values of one
    // primitive kind (the four views' files, a vector of descriptors), is a list by another name:
    // one entry stands for all.
    const idKeyed = entries.length > 1 && entries.every(([key]) => /^-?\d+$/.test(key));
    const kinds = new Set(entries.map(([, child]) => kindOf(child)));
    const uniform = entries.length >= 4 && kinds.size === 1 && (kinds.has("number") || kinds.has("string"));
    if (idKeyed || uniform) {
      const [key, child] = entries[Math.min(entries.length - 1, Math.max(0, pickIndex(entries.length)))]!;
      visit(child, [...at, key]);
    } else {
      for (const [key, child] of entries) visit(child, [...at, key]);
    }
  }
  return out;
}

/** `value` with the node at `where` replaced by `replacement` (copies along the path only). */
export function replaceAt(value: unknown, where: JsonPath, replacement: unknown): unknown {
  if (where.length === 0) return replacement;
  const [head, ...rest] = where;
  if (Array.isArray(value)) {
    const copy = value.slice();
    copy[head as number] = replaceAt(copy[head as number], rest, replacement);
    return copy;
  }
  const record = value as Record<string, unknown>;
  return { ...record, [head as string]: replaceAt(record[head as string], rest, replacement) };
}

/** A field path as the loaders write it: `media.spec.indices[0]`. */
export function pathText(where: JsonPath): string {
  let out = "";
  for (const part of where) out += typeof part === "number" ? `[${part}]` : `${out ? "." : ""}${part}`;
  return out || "(row)";
}

/** The path with list positions as [*]: the same field of another element, or of another seed's row. */
export function fieldKey(where: JsonPath): string {
  return pathText(where.map((part) => (typeof part === "number" ? -1 : part))).replace(/\[-1\]/g, "[*]");
}

/** The last named key on the path (the field's name, for rules that go by name). */
export function fieldName(where: JsonPath): string {
  for (let i = where.length - 1; i >= 0; i--) if (typeof where[i] === "string") return where[i] as string;
  return "";
}

/** JSON text of `value`, with each Raw written as its token. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Raw) {
      raws.push(v.text);
      return `\u0001raw${raws.length - 1}\u0001`;
    }
    return v;
  });
  if (raws.length === 0) return text;
  return text.replace(/"\\u0001raw(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)]!);
}
