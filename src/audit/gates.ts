/**
 * A validity gate read off an audit (a measured figure against its limit) and their table. The
 * benchmarks' own gates (benchmarks/<id>/gates.ts) say which figures and which limits.
 */

export interface Gate {
  name: string;
  /** The measured value (a fraction or a count; null when the audit has none). */
  value: number | null;
  limit: number;
  pass: boolean;
}

/** A gate that passes when the value is at most the limit. */
export const gateAtMost = (name: string, value: number | null, limit: number): Gate => ({ name, value, limit, pass: value !== null && value <= limit + 1e-12 });

/** A gate that passes when the value is at least the limit. */
export const gateAtLeast = (name: string, value: number | null, limit: number): Gate => ({ name, value, limit, pass: value !== null && value >= limit - 1e-12 });

/** A Markdown table of the gates; fractions in percent, counts as they are. */
export function gatesMarkdown(gates: readonly Gate[], counts: ReadonlySet<string> = new Set()): string {
  const show = (g: Gate, v: number | null) => (v === null ? "—" : counts.has(g.name) ? String(v) : (100 * v).toFixed(1));
  return [
    "| Gate | Measured | Limit | |",
    "|---|---:|---:|---|",
    ...gates.map((g) => `| ${g.name} | ${show(g, g.value)} | ${show(g, g.limit)} | ${g.pass ? "pass" : "FAIL"} |`),
  ].join("\n");
}
