/**
 * Checks of SVG charts written apart from src/report/svg.ts: a tag stack, attribute parsing, and the
 * bar-chart layout worked out by hand. Nothing here imports the code under test, so the expected
 * values do not come from it.
 */
import assert from "node:assert/strict";
import type { ChartFigure } from "../../src/core/benchmark.js";

/** Balanced tags, quoted attributes, no stray angle brackets in text, no script, entities only of the five kinds. */
export function assertWellFormed(svg: string): void {
  const stack: string[] = [];
  for (const m of svg.matchAll(/<(\/?)([A-Za-z][\w:-]*)(?:\s+[\w:-]+="[^"<>]*")*\s*(\/?)>/g)) {
    if (m[1]) assert.equal(stack.pop(), m[2], `</${m[2]}> closes the wrong element`);
    else if (!m[3]) stack.push(m[2]!);
  }
  assert.deepEqual(stack, []);
  assert.equal(svg.replace(/<[^<>]*>/g, "").search(/[<>]/), -1, "no stray angle brackets");
  assert.doesNotMatch(svg, /<script|&(?!(amp|lt|gt|quot|#39);)/i);
}

/** Attributes (as strings) of every element `name` whose class is `cls`, in document order. */
export function elements(svg: string, name: string, cls: string): Array<Record<string, string>> {
  return [...svg.matchAll(new RegExp(`<${name}((?:\\s+[\\w:-]+="[^"]*")*)\\s*/?>`, "g"))]
    .map((m) => Object.fromEntries([...m[1]!.matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])))
    .filter((a) => a["class"] === cls);
}

/** An attribute's number within 0.006 of `want` (attributes are written with two decimals). */
export const near = (text: string | undefined, want: number) => text !== undefined && Math.abs(Number(text) - want) < 0.006;

/** Bar charts: plot x 56..704, y 40..240; groups share the width; bars ≤ 48 px, centred in 80% of a group. */
export const yOf = (v: number) => 40 + 200 * (1 - v);

/** Left edge and width of bar `i` of `series` in group `g` of `groups`. */
export function barSlot(g: number, groups: number, i: number, series: number): { x: number; w: number } {
  const gw = 648 / groups;
  const w = Math.min((0.8 * gw) / series, 48);
  return { x: 56 + g * gw + (gw - series * w) / 2 + i * w, w };
}

/** A bar at `slot` of height `value` (0..1), and its whisker from ci[0] to ci[1] when given. */
export function assertBar(svg: string, slot: { x: number; w: number }, value: number, ci?: [number, number]): void {
  const bar = elements(svg, "rect", "bar").find((b) => near(b["x"], slot.x));
  assert.ok(bar, `a bar at x = ${slot.x}`);
  assert.ok(near(bar["width"], slot.w) && near(bar["y"], yOf(value)) && near(bar["height"], 200 * value), `bar ${JSON.stringify(bar)} for ${value}`);
  if (!ci) return;
  const whisker = elements(svg, "line", "ci").find((l) => near(l["x1"], slot.x + slot.w / 2));
  assert.ok(whisker && near(whisker["y1"], yOf(ci[0])) && near(whisker["y2"], yOf(ci[1])), `whisker for ${ci}`);
}

/** The SVG of the chart whose title matches, checked well-formed. */
export const chart = (charts: ChartFigure[], title: RegExp) => {
  const found = charts.find((c) => title.test(c.title));
  assert.ok(found, `a chart titled ${title}`);
  assertWellFormed(found.svg);
  return found.svg;
};
