import assert from "node:assert/strict";
import { test } from "node:test";
import { barChart, escapeXml, num, radarChart, stackedBars, truncate, truncateMiddle, uniqueLabels, wrapWords } from "../../src/report/svg.js";
import { elements } from "../helpers/svg-check.js";

/**
 * Balanced tags, quoted attributes, entities only of the five kinds: a tiny stack-based XML check.
 * Stricter about the whole document than the charts' check in ../helpers/svg-check.ts (one <svg>
 * root, nothing after the last tag), for the raw chart builders.
 */
function assertWellFormed(svg: string): void {
  const stack: string[] = [];
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<>]*")*)\s*(\/?)>/g;
  let last = 0;
  for (let m = tag.exec(svg); m; m = tag.exec(svg)) {
    assert.ok(!/[<>]/.test(svg.slice(last, m.index)), `stray angle bracket before offset ${m.index}`);
    last = m.index + m[0].length;
    const [, closing, name, , selfClosing] = m;
    if (closing) assert.equal(stack.pop(), name, `</${name}> closes the wrong element`);
    else if (!selfClosing) stack.push(name!);
  }
  assert.ok(!/[<>]/.test(svg.slice(last)), "text after the last tag");
  assert.deepEqual(stack, [], "unclosed elements");
  assert.ok(svg.startsWith("<svg ") && svg.endsWith("</svg>"));
  assert.ok(!/&(?!(amp|lt|gt|quot|#39);)/.test(svg), "a bare & or an unexpected entity");
}

const EVIL = `<script>alert(1)</script> & "x"`;
const EVIL_ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;";

// Bar chart layout: plot from x = 56 to 704 (720 − 16), y = 40 (top) to 240 (40 + 200).

test("bar geometry: heights, positions, whiskers, gaps and reference ticks computed by hand", () => {
  const svg = barChart({
    title: "t",
    groups: ["A", "B"],
    series: [
      { name: "m1", values: [0.5, null], intervals: [[0.25, 0.75], null] },
      { name: "m2", values: [1, 0.2] },
    ],
    references: [{ name: "chance", values: [0.5, null] }],
  });
  assertWellFormed(svg);
  // Group width 648 / 2 = 324; bar width min(0.8 · 324 / 2, 48) = 48; bars centred: offset (324 − 96) / 2 = 114.
  const bars = elements(svg, "rect", "bar");
  assert.deepEqual(bars.map((b) => [b["x"], b["y"], b["width"], b["height"]]), [
    ["170.00", "140.00", "48.00", "100.00"], // m1 · A: 0.5 → height 200/2 at y = 40 + 100
    ["218.00", "40.00", "48.00", "200.00"], // m2 · A: 1 → full height
    ["542.00", "200.00", "48.00", "40.00"], // m2 · B: x = 56 + 324 + 114 + 48; 0.2 → 40
  ]);
  // m1 · A whisker at the bar centre 170 + 24, from y(0.25) = 40 + 150 to y(0.75) = 40 + 50.
  assert.deepEqual(elements(svg, "line", "ci").map((l) => [l["x1"], l["x2"], l["y1"], l["y2"]]), [["194.00", "194.00", "190.00", "90.00"]]);
  // Caps: half-width min(48 · 0.5, 8) / 2 = 4 at both ends.
  assert.deepEqual(elements(svg, "line", "cap").map((l) => [l["x1"], l["x2"], l["y1"]]), [["190.00", "198.00", "190.00"], ["190.00", "198.00", "90.00"]]);
  // m1 · B is missing: a "–" at the centre of its slot, 494 + 24.
  const missing = elements(svg, "text", "missing");
  assert.deepEqual(missing.map((t) => t["x"]), ["518.00"]);
  assert.match(svg, /<text class="missing"[^>]*>–<title>m1 · B: no value<\/title><\/text>/);
  // Reference at 0.5 across group A from 56 + 0.05 · 324 to 56 + 0.95 · 324; none in B.
  assert.deepEqual(elements(svg, "line", "ref").map((l) => [l["x1"], l["x2"], l["y1"], l["y2"]]), [["72.20", "363.80", "140.00", "140.00"]]);
  assert.match(svg, /<rect class="bar"[^>]*><title>m1 · A: 50\.0% \[25\.0%, 75\.0%\]<\/title><\/rect>/);
});

test("bar geometry: narrow bars when many series, an explicit max, values clamped to the axis", () => {
  const many = barChart({ title: "t", groups: ["A", "B"], series: Array.from({ length: 10 }, (_, i) => ({ name: `m${i}`, values: [0.1 * i, null] })) });
  // Bar width 0.8 · 324 / 10 = 25.92; first bar at 56 + (324 − 259.2) / 2 = 88.4; the tenth at 88.4 + 9 · 25.92.
  const bars = elements(many, "rect", "bar");
  assert.equal(bars[0]!["x"], "88.40");
  assert.equal(bars[0]!["width"], "25.92");
  assert.equal(bars[9]!["x"], "321.68");
  assert.equal(bars[9]!["height"], "180.00"); // 0.9 · 200

  const half = barChart({ title: "t", groups: ["A"], series: [{ name: "m", values: [0.25] }], max: 0.5 });
  assert.equal(elements(half, "rect", "bar")[0]!["height"], "100.00"); // 0.25 of a 0.5 axis is half the plot
  assert.match(half, />50<\/text>/, "the top tick reads 50 (%)");

  const clamped = barChart({ title: "t", groups: ["A"], series: [{ name: "hi", values: [1.3], intervals: [[0.9, 1.2]] }, { name: "lo", values: [-0.1] }] });
  const [hi, lo] = elements(clamped, "rect", "bar");
  assert.deepEqual([hi!["y"], hi!["height"], lo!["y"], lo!["height"]], ["40.00", "200.00", "240.00", "0.00"]);
  assert.equal(elements(clamped, "line", "ci")[0]!["y2"], "40.00");
});

test("bar chart: non-finite values are gaps, never NaN in the markup", () => {
  const svg = barChart({ title: "t", groups: ["A", "B", "C"], series: [{ name: "m", values: [Number.NaN, Number.POSITIVE_INFINITY, 0.5], intervals: [[Number.NaN, 1], null, [Number.NaN, 0.6]] }] });
  assertWellFormed(svg);
  assert.equal(elements(svg, "rect", "bar").length, 1);
  assert.equal(elements(svg, "line", "ci").length, 0, "an interval with a non-finite end is not drawn");
  assert.equal(elements(svg, "text", "missing").length, 2);
  assert.doesNotMatch(svg, /NaN|Infinity/);
});

test("group labels: level lines when they fit, turned and cut when they do not", () => {
  const level = barChart({ title: "t", groups: ["Point Traversability (a1 BA)"], series: [{ name: "m", values: [0.5] }] });
  assert.match(level, /<text class="group"[^>]*><tspan[^>]*>Point Traversability \(a1 BA\)<\/tspan><\/text>/);
  const groups = Array.from({ length: 12 }, (_, i) => `a rather long group name ${i}`);
  const turned = barChart({ title: "t", groups, series: [{ name: "m", values: groups.map(() => 0.5) }] });
  assert.match(turned, /transform="rotate\(-40 /);
  // Turned labels keep 26 characters: 25 and an ellipsis, the full name in the tooltip.
  assert.match(turned, />a rather long group name 9<title>a rather long group name 9<\/title>/);
  assert.match(turned, />a rather long group name …<title>a rather long group name 10<\/title>/);
  assert.deepEqual(wrapWords("Embodied Traversability (b1\u00a0BA)", 20), ["Embodied", "Traversability", "(b1\u00a0BA)"]);
  assert.equal(wrapWords("Supercalifragilistic", 5), null);
});

test("radar: vertices at hand-computed positions (axis k at −90° + 72°·k, radius 150 around (240, 230))", () => {
  const svg = radarChart({ title: "r", axes: ["a1 BA", "b1 BA", "a2 SR", "b2 SR", "c SR"], series: [{ name: "m", values: [1, 0.5, 0.25, 0.75, null] }] });
  assertWellFormed(svg);
  const vertices = elements(svg, "circle", "vertex").map((c) => [c["cx"], c["cy"]]);
  assert.deepEqual(vertices, [
    ["240.00", "80.00"], // 1 on the top axis: 230 − 150
    ["311.33", "206.82"], // 0.5 at −18°: 240 + 75 · 0.951057, 230 − 75 · 0.309017
    ["262.04", "260.34"], // 0.25 at 54°: 240 + 37.5 · 0.587785, 230 + 37.5 · 0.809017
    ["173.87", "321.01"], // 0.75 at 126°: 240 − 112.5 · 0.587785, 230 + 112.5 · 0.809017
  ]);
  // The missing value sits at the centre, drawn hollow, titled "no value".
  assert.deepEqual(elements(svg, "circle", "vertex missing").map((c) => [c["cx"], c["cy"], c["fill"]]), [["240.00", "230.00", "#fff"]]);
  assert.match(svg, /<title>m · c SR: no value<\/title>/);
  const polygon = elements(svg, "polygon", "series")[0]!;
  assert.equal(polygon["points"], "240.00,80.00 311.33,206.82 262.04,260.34 173.87,321.01 240.00,230.00");
  // Rings at 25/50/75/100%: their top vertices at 230 − 150 · f.
  const rings = elements(svg, "polygon", "ring").map((p) => p["points"]!.split(" ")[0]);
  assert.deepEqual(rings, ["240.00,192.50", "240.00,155.00", "240.00,117.50", "240.00,80.00"]);
  assert.match(svg, /<title>m · b1 BA: 50\.0%<\/title>/);
});

test("stacked bars: segment widths proportional to counts, counts in the tooltips, empty rows marked", () => {
  const svg = stackedBars({ title: "s", categories: ["a", "b", "c", "d"], rows: [{ label: "r1", counts: [1, 3, 0, 4] }, { label: "r2", counts: [0, 0, 0, 0] }] });
  assertWellFormed(svg);
  // Bars span 432 px from x = 224; total 8 → 54 px a count. Row 1 at y = 40 + (22 − 14) / 2.
  const segs = elements(svg, "rect", "seg").map((s) => [s["x"], s["width"], s["y"], s["height"]]);
  assert.deepEqual(segs, [
    ["224.00", "54.00", "44.00", "14.00"],
    ["278.00", "162.00", "44.00", "14.00"],
    ["440.00", "216.00", "44.00", "14.00"], // the zero count draws nothing
  ]);
  assert.match(svg, /<title>r1 · b: 3 of 8 \(37\.5%\)<\/title>/);
  assert.match(svg, />n = 8</);
  // Row 2 (y = 40 + 22 + 4) has no counts: an outline and "–".
  assert.deepEqual(elements(svg, "rect", "empty").map((r) => [r["x"], r["y"], r["width"]]), [["224.00", "66.00", "432.00"]]);
  assert.match(svg, /<title>r2: no counts<\/title>/);
  // Legend: one entry per category, with the given colours when passed.
  const coloured = stackedBars({ title: "s", categories: ["x", "y"], rows: [{ label: "r", counts: [1, 1] }], colors: ["#010203", "#040506"] });
  assert.deepEqual(elements(coloured, "rect", "seg").map((s) => s["fill"]), ["#010203", "#040506"]);
  assert.equal((coloured.match(/<g class="legend">/g) ?? []).length, 2);
});

test("untrusted names come out escaped everywhere, and no script element appears", () => {
  const charts = [
    barChart({ title: EVIL, groups: [EVIL, "b'c"], series: [{ name: EVIL, values: [0.5, null], notes: [EVIL, null] }], references: [{ name: EVIL, values: [0.3, 0.3] }], axisLabel: EVIL }),
    radarChart({ title: EVIL, axes: [EVIL, "b", "c"], series: [{ name: EVIL, values: [0.5, 0.5, null] }] }),
    stackedBars({ title: EVIL, categories: [EVIL, "ok"], rows: [{ label: EVIL, counts: [1, 2] }] }),
  ];
  for (const svg of charts) {
    assertWellFormed(svg);
    assert.doesNotMatch(svg, /<script/i);
    assert.ok(!svg.includes(EVIL), "the raw text never appears");
    assert.ok(svg.includes(EVIL_ESCAPED), "the escaped text does (in a tooltip)");
    assert.ok(svg.includes(`aria-label="${EVIL_ESCAPED}"`));
  }
  assert.ok(charts[0]!.includes("b&#39;c"));
});

test("escaping, numbers, truncation and labels", () => {
  assert.equal(escapeXml(`a<b>&"c'`), "a&lt;b&gt;&amp;&quot;c&#39;");
  assert.equal(escapeXml("bell\u0007 nul\u0000 tab\t"), "bell\uFFFD nul\uFFFD tab\t", "characters XML forbids are replaced");
  assert.equal(escapeXml("lone \uD800 surrogate, pair \uD83D\uDE00"), "lone \uFFFD surrogate, pair \uD83D\uDE00");
  assert.equal(num(-0.001), "0.00");
  assert.equal(num(2 / 3), "0.67");
  assert.equal(num(12.5, 0), "13");
  assert.equal(truncate("abcdef", 4), "abc…");
  assert.equal(truncate("abc", 4), "abc");
  assert.equal(truncate("😀😀😀😀😀", 3), "😀😀…", "cuts between code points, not inside one");
  assert.equal(truncateMiddle("replay:/a/very/long/path.jsonl · Planning", 20), "replay:…l · Planning", "7 characters, the ellipsis, the last 12");
  assert.equal(truncateMiddle("short", 20), "short");
  assert.deepEqual(uniqueLabels(["a", "b", "a", "a"]), ["a", "b", "a (2)", "a (3)"]);
});

test("deterministic, fixed-size, accessible roots", () => {
  const input = { title: "T", groups: ["A", "B", "C"], series: [{ name: "m", values: [0.123456, 0.5, null], intervals: [[0.1, 0.2] as [number, number], null, null] }] };
  const a = barChart(input);
  assert.equal(barChart(structuredClone(input)), a);
  const r = { title: "R", axes: ["x", "y", "z"], series: [{ name: "m", values: [0.3, 0.6, 0.9] }] };
  assert.equal(radarChart(r), radarChart(structuredClone(r)));
  const s = { title: "S", categories: ["a", "b"], rows: [{ label: "r", counts: [2, 5] }] };
  assert.equal(stackedBars(s), stackedBars(structuredClone(s)));
  for (const svg of [a, radarChart(r), stackedBars(s)]) {
    const root = /^<svg ([^>]*)>/.exec(svg)![1]!;
    assert.match(root, /xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.match(root, /role="img"/);
    assert.match(root, /aria-label="[^"]+"/);
    assert.match(root, /font-family="system-ui, sans-serif"/);
    const [w, h] = [/ width="([\d.]+)"/.exec(root)![1], / height="([\d.]+)"/.exec(root)![1]];
    assert.match(root, new RegExp(`viewBox="0 0 ${w} ${h}"`));
    assert.ok(svg.indexOf("<title>") === svg.indexOf(">") + 1, "the chart's title is the first child (tooltip and name)");
    assert.doesNotMatch(svg, /<(image|foreignObject|style|script)\b| on\w+="| id="/);
    // Every coordinate carries exactly two decimals.
    for (const m of svg.matchAll(/ (x|y|x1|x2|y1|y2|cx|cy|width|height)="([^"]*)"/g)) assert.match(m[2]!, /^-?\d+\.\d\d$/, `${m[1]}="${m[2]}"`);
  }
  // Widths are fixed (720 for bars and stacks, 480 for the radar); heights follow the rows and legend only.
  assert.match(a, /^<svg [^>]*width="720.00"/);
  assert.match(radarChart(r), /^<svg [^>]*width="480.00"/);
});
