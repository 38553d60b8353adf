/**
 * Inline SVG charts for the HTML report, built as strings in Node: pure and deterministic (same
 * input, same bytes; every coordinate printed with 2 decimals), no scripts, no ids, no fonts or
 * images. Every piece of text (model names, task names) goes through `escapeXml`.
 *
 * Values are fractions; axes show percent from 0 to `max` (default 1 = 100%).
 */

export const FONT = "system-ui, sans-serif";

/** One colour per series (model), cycled; colour-blind-friendly Tableau 10. */
export const PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"] as const;

/** Reference levels (chance rows) drawn as dashed ticks, in greys and browns. */
export const REFERENCE_COLORS = ["#222222", "#8c564b", "#7f7f7f", "#17becf"] as const;

export const seriesColor = (index: number): string => PALETTE[index % PALETTE.length]!;

// ------------------------------------------------------------------ text and numbers

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text safe in XML content and attribute values; characters XML forbids become U+FFFD. */
export function escapeXml(text: string): string {
  return String(text)
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD")
    .replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** A number with a fixed number of decimals ("-0.00" printed as "0.00"). */
export function num(value: number, decimals = 2): string {
  const text = (Number.isFinite(value) ? value : 0).toFixed(decimals);
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

/** A fraction as a percent with one decimal, or "–". */
export function pct(value: number | null | undefined): string {
  return typeof value === "number" && Number.isFinite(value) ? `${num(100 * value, 1)}%` : "–";
}

/** At most `max` characters (code points), an ellipsis marking a cut. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, Math.max(max - 1, 1)).join("")}…`;
}

/** At most `max` characters, cut in the middle (keeps both ends, e.g. the model and the task of a row). */
export function truncateMiddle(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = Math.floor((max - 1) * 0.4);
  return `${chars.slice(0, head).join("")}…${chars.slice(chars.length - (max - 1 - head)).join("")}`;
}

/** A finite number from untrusted JSON, or null. */
export function asNumber(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** A [lo, hi] pair of finite numbers from untrusted JSON, or null. */
export function asInterval(value: unknown): [number, number] | null {
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [lo, hi] = [asNumber(value[0]), asNumber(value[1])];
  return lo === null || hi === null ? null : [lo, hi];
}

/** A plain object from untrusted JSON, or undefined. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Labels made distinct: a repeated label gets " (2)", " (3)"... */
export function uniqueLabels(labels: string[]): string[] {
  const seen = new Map<string, number>();
  return labels.map((label) => {
    const k = (seen.get(label) ?? 0) + 1;
    seen.set(label, k);
    return k === 1 ? label : `${label} (${k})`;
  });
}

// ------------------------------------------------------------------ elements

type Attrs = Record<string, string | number | undefined>;

/** One element; numbers get 2 decimals, strings are escaped, undefined attributes are left out. */
function el(name: string, attrs: Attrs, content?: string): string {
  const list = Object.entries(attrs)
    .filter((e): e is [string, string | number] => e[1] !== undefined)
    .map(([k, v]) => ` ${k}="${typeof v === "number" ? num(v) : escapeXml(v)}"`)
    .join("");
  return content === undefined ? `<${name}${list}/>` : `<${name}${list}>${content}</${name}>`;
}

const tooltip = (text: string) => el("title", {}, escapeXml(text));
const label = (attrs: Attrs, text: string, tip?: string) => el("text", attrs, escapeXml(text) + (tip ? tooltip(tip) : ""));

function svgRoot(title: string, width: number, height: number, body: string[]): string {
  const attrs = { xmlns: "http://www.w3.org/2000/svg", width, height, viewBox: `0 0 ${num(width)} ${num(height)}`, role: "img", "aria-label": title, "font-family": FONT, "font-size": "11" };
  return el("svg", attrs, [tooltip(title), label({ x: 16, y: 22, "font-size": "14", "font-weight": "600", fill: "#222" }, truncate(title, Math.floor((width - 32) / 8))), ...body].join(""));
}

// ------------------------------------------------------------------ legend

interface LegendEntry {
  name: string;
  color: string;
  /** A filled box (series, categories) or a dashed line (references). */
  kind: "box" | "line";
}

const LEGEND_ROW = 18;
/** Slot widths tried in turn: the narrowest that holds the longest name (6 px a character, 24 px for the mark and gap). */
const LEGEND_SLOTS = [172, 344, 688];

/** Legend entries in rows of equal slots; returns the markup and the height used. */
function legend(entries: LegendEntry[], top: number, width: number): { svg: string; height: number } {
  const longest = Math.max(0, ...entries.map((e) => Array.from(e.name).length));
  const room = width - 32;
  const slot = Math.min(LEGEND_SLOTS.find((w) => longest * 6 + 24 <= w) ?? LEGEND_SLOTS[LEGEND_SLOTS.length - 1]!, room);
  const perRow = Math.max(Math.floor(room / slot), 1);
  const chars = Math.floor((slot - 24) / 6);
  const items = entries.map((entry, i) => {
    const x = 16 + (i % perRow) * slot;
    const y = top + Math.floor(i / perRow) * LEGEND_ROW;
    const mark = entry.kind === "box"
      ? el("rect", { x, y: y + 1, width: 10, height: 10, fill: entry.color })
      : el("line", { x1: x, y1: y + 6, x2: x + 12, y2: y + 6, stroke: entry.color, "stroke-width": 2, "stroke-dasharray": "4 2" });
    return el("g", { class: "legend" }, tooltip(entry.name) + mark + label({ x: x + 16, y: y + 10 }, truncate(entry.name, chars)));
  });
  return { svg: items.join(""), height: Math.ceil(entries.length / perRow) * LEGEND_ROW };
}

// ------------------------------------------------------------------ bar chart

export interface BarSeries {
  name: string;
  /** One value per group; null leaves a gap labelled "–". */
  values: Array<number | null>;
  /** 95% intervals [lo, hi] per group, drawn as whiskers. */
  intervals?: Array<[number, number] | null>;
  /** Extra tooltip text per group (e.g. "n = 12"). */
  notes?: Array<string | null>;
}

export interface ReferenceLevel {
  name: string;
  /** One level per group (null: none there), drawn as a dashed tick across the group. */
  values: Array<number | null>;
}

export interface BarChartInput {
  title: string;
  groups: string[];
  series: BarSeries[];
  references?: ReferenceLevel[];
  /** The fraction at the top of the axis (default 1, shown as 100%). */
  max?: number;
  /** Axis caption, e.g. "accuracy (%)". */
  axisLabel?: string;
}

/**
 * Bar chart layout. The plot spans x = left .. width − right and y = top .. top + plotHeight; each of
 * G groups gets (width − left − right) / G; S bars of min(0.8 · group / S, maxBarWidth) sit side by
 * side, centred in their group; value v is a bar of height plotHeight · v / max from the baseline.
 */
export const BAR = { width: 720, left: 56, right: 16, top: 40, plotHeight: 200, charWidth: 6, rotatedLabelSpace: 112, labelSpace: 24, maxBarWidth: 48 } as const;

const clamp01 = (v: number) => Math.min(Math.max(v, 0), 1);

/** Groups × series bars of fractions on a percent axis, with optional whiskers and reference ticks. */
export function barChart(input: BarChartInput): string {
  const { groups, series } = input;
  const max = input.max && input.max > 0 ? input.max : 1;
  const plotWidth = BAR.width - BAR.left - BAR.right;
  const groupWidth = plotWidth / Math.max(groups.length, 1);
  const barWidth = Math.min((0.8 * groupWidth) / Math.max(series.length, 1), BAR.maxBarWidth);
  const bottom = BAR.top + BAR.plotHeight;
  const y = (v: number) => BAR.top + BAR.plotHeight * (1 - clamp01(v / max));
  const groupX = (g: number) => BAR.left + g * groupWidth;

  const body: string[] = [yAxis(max, y, plotWidth, input.axisLabel)];
  series.forEach((s, i) => {
    groups.forEach((group, g) => {
      const x = groupX(g) + (groupWidth - series.length * barWidth) / 2 + i * barWidth;
      body.push(bar(s, i, g, group, x, barWidth, y, bottom));
    });
  });
  (input.references ?? []).forEach((ref, r) => {
    groups.forEach((group, g) => {
      const v = ref.values[g];
      if (typeof v !== "number" || !Number.isFinite(v)) return;
      const attrs = { class: "ref", x1: groupX(g) + 0.05 * groupWidth, y1: y(v), x2: groupX(g) + 0.95 * groupWidth, y2: y(v), stroke: REFERENCE_COLORS[r % REFERENCE_COLORS.length]!, "stroke-width": 2, "stroke-dasharray": "4 2" };
      body.push(el("line", attrs, tooltip(`${ref.name} · ${group}: ${pct(v)}`)));
    });
  });
  const labels = groupLabels(groups, groupWidth, bottom);
  body.push(labels.svg);
  const entries: LegendEntry[] = [
    ...series.map((s, i) => ({ name: s.name, color: seriesColor(i), kind: "box" as const })),
    ...(input.references ?? []).map((r, i) => ({ name: r.name, color: REFERENCE_COLORS[i % REFERENCE_COLORS.length]!, kind: "line" as const })),
  ];
  const key = legend(entries, bottom + labels.height + 8, BAR.width);
  body.push(key.svg);
  return svgRoot(input.title, BAR.width, bottom + labels.height + 8 + key.height + 8, body);
}

/** One bar (or the "–" of a missing value) with its whisker and tooltip. */
function bar(s: BarSeries, i: number, g: number, group: string, x: number, width: number, y: (v: number) => number, bottom: number): string {
  const value = s.values[g];
  const cx = x + width / 2;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    return label({ class: "missing", x: cx, y: bottom - 4, "text-anchor": "middle", fill: "#666" }, "–", `${s.name} · ${group}: no value`);
  }
  const given = s.intervals?.[g];
  const interval = given && Number.isFinite(given[0]) && Number.isFinite(given[1]) ? given : null;
  const note = s.notes?.[g];
  const tip = `${s.name} · ${group}: ${pct(value)}${interval ? ` [${pct(interval[0])}, ${pct(interval[1])}]` : ""}${note ? ` · ${note}` : ""}`;
  const top = y(value);
  const parts = [el("rect", { class: "bar", x, y: top, width, height: bottom - top, fill: seriesColor(i) }, tooltip(tip))];
  if (interval) {
    const [lo, hi] = [y(interval[0]), y(interval[1])];
    const cap = Math.min(width * 0.5, 8) / 2;
    parts.push(el("line", { class: "ci", x1: cx, y1: lo, x2: cx, y2: hi, stroke: "#333", "stroke-width": 1 }, tooltip(tip)));
    for (const end of [lo, hi]) parts.push(el("line", { class: "cap", x1: cx - cap, y1: end, x2: cx + cap, y2: end, stroke: "#333", "stroke-width": 1 }));
  }
  return parts.join("");
}

/** Gridlines and percent ticks at 0, 25, 50, 75 and 100% of the axis. */
function yAxis(max: number, y: (v: number) => number, plotWidth: number, caption?: string): string {
  const parts: string[] = [];
  for (let k = 0; k <= 4; k++) {
    const v = (max * k) / 4;
    parts.push(el("line", { class: "grid", x1: BAR.left, y1: y(v), x2: BAR.left + plotWidth, y2: y(v), stroke: k === 0 ? "#888" : "#e3e3e3", "stroke-width": 1 }));
    parts.push(label({ x: BAR.left - 6, y: y(v) + 4, "text-anchor": "end", fill: "#555" }, num(100 * v, 0)));
  }
  if (caption) {
    const cy = BAR.top + BAR.plotHeight / 2;
    parts.push(label({ x: 14, y: cy, "text-anchor": "middle", transform: `rotate(-90 14 ${num(cy)})`, fill: "#555" }, caption));
  }
  return parts.join("");
}

/** Words packed greedily into lines of at most `width` characters (null when a word is longer). */
export function wrapWords(text: string, width: number): string[] | null {
  const lines: string[] = [];
  for (const word of text.split(/[ \t\n]+/).filter((w) => w !== "")) {
    if (Array.from(word).length > width) return null;
    const last = lines[lines.length - 1];
    if (last !== undefined && Array.from(`${last} ${word}`).length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** Group names under the plot: level (up to three lines) when they fit their group's width, else turned by 40°. */
function groupLabels(groups: string[], groupWidth: number, bottom: number): { svg: string; height: number } {
  const width = Math.floor((groupWidth - 4) / BAR.charWidth);
  const wrapped = groups.map((g) => wrapWords(g, width));
  const level = wrapped.every((lines) => lines !== null && lines.length <= 3);
  const parts = groups.map((group, g) => {
    const cx = BAR.left + (g + 0.5) * groupWidth;
    if (level) {
      const lines = wrapped[g]!.map((line, k) => el("tspan", { x: cx, dy: k === 0 ? "0" : "13" }, escapeXml(line)));
      return el("text", { class: "group", x: cx, y: bottom + 16, "text-anchor": "middle" }, lines.join(""));
    }
    const ty = bottom + 12;
    return label({ class: "group", x: cx, y: ty, "text-anchor": "end", transform: `rotate(-40 ${num(cx)} ${num(ty)})` }, truncate(group, 26), group);
  });
  const lines = level ? Math.max(...wrapped.map((l) => l!.length), 1) : 0;
  return { svg: parts.join(""), height: level ? BAR.labelSpace + 13 * (lines - 1) : BAR.rotatedLabelSpace };
}

// ------------------------------------------------------------------ radar chart

export interface RadarInput {
  title: string;
  axes: string[];
  /** One polygon per series; null values sit at the centre, drawn hollow. */
  series: Array<{ name: string; values: Array<number | null> }>;
  max?: number;
}

/** Radar layout: centre and radius; axis k points at angle −90° + 360°·k/A (clockwise from the top). */
export const RADAR = { width: 480, cx: 240, cy: 230, radius: 150, legendTop: 420, rings: [0.25, 0.5, 0.75, 1] } as const;

/** The (x, y) of a fraction `f` of the radius on axis `k` of `count`. */
export function radarPoint(k: number, count: number, f: number): [number, number] {
  const angle = -Math.PI / 2 + (2 * Math.PI * k) / count;
  return [RADAR.cx + RADAR.radius * f * Math.cos(angle), RADAR.cy + RADAR.radius * f * Math.sin(angle)];
}

const points = (list: Array<[number, number]>) => list.map(([x, y]) => `${num(x)},${num(y)}`).join(" ");

/** One polygon per series over the axes, rings at 25/50/75/100% of `max`. */
export function radarChart(input: RadarInput): string {
  const { axes } = input;
  const count = Math.max(axes.length, 1);
  const max = input.max && input.max > 0 ? input.max : 1;
  const body: string[] = [];
  for (const f of RADAR.rings) {
    body.push(el("polygon", { class: "ring", points: points(axes.map((_, k) => radarPoint(k, count, f))), fill: "none", stroke: "#d6d6d6", "stroke-width": 1 }));
    body.push(label({ x: RADAR.cx + 4, y: RADAR.cy - RADAR.radius * f - 2, fill: "#888", "font-size": "9" }, num(100 * max * f, 0)));
  }
  axes.forEach((axis, k) => {
    const [x, y] = radarPoint(k, count, 1);
    body.push(el("line", { class: "axis", x1: RADAR.cx, y1: RADAR.cy, x2: x, y2: y, stroke: "#bbb", "stroke-width": 1 }));
    body.push(axisLabel(axis, k, count));
  });
  input.series.forEach((s, i) => {
    const color = seriesColor(i);
    const fractions = axes.map((_, k) => {
      const v = s.values[k];
      return typeof v === "number" && Number.isFinite(v) ? clamp01(v / max) : null;
    });
    const vertices = fractions.map((f, k) => radarPoint(k, count, f ?? 0));
    body.push(el("polygon", { class: "series", points: points(vertices), fill: color, "fill-opacity": "0.12", stroke: color, "stroke-width": 2 }, tooltip(s.name)));
    vertices.forEach(([x, y], k) => {
      const missing = fractions[k] === null;
      const tip = `${s.name} · ${axes[k]}: ${missing ? "no value" : pct(s.values[k])}`;
      body.push(el("circle", { class: missing ? "vertex missing" : "vertex", cx: x, cy: y, r: 3, fill: missing ? "#fff" : color, stroke: color, "stroke-width": 1 }, tooltip(tip)));
    });
  });
  const key = legend(input.series.map((s, i) => ({ name: s.name, color: seriesColor(i), kind: "box" })), RADAR.legendTop, RADAR.width);
  body.push(key.svg);
  return svgRoot(input.title, RADAR.width, RADAR.legendTop + key.height + 8, body);
}

/** An axis name just outside the outer ring, anchored away from the centre. */
function axisLabel(axis: string, k: number, count: number): string {
  const [x, y] = radarPoint(k, count, 1 + 14 / RADAR.radius);
  const dx = x - RADAR.cx;
  const dy = y - RADAR.cy;
  const anchor = dx > 1 ? "start" : dx < -1 ? "end" : "middle";
  return label({ class: "axis-label", x, y: y + (dy > 1 ? 8 : dy < -1 ? 0 : 4), "text-anchor": anchor }, truncate(axis, 24), axis);
}

// ------------------------------------------------------------------ stacked bars

export interface StackedRow {
  label: string;
  /** One count per category. */
  counts: number[];
}

export interface StackedInput {
  title: string;
  categories: string[];
  rows: StackedRow[];
  /** Category colours (default: the palette). */
  colors?: string[];
}

/** Stacked-bar layout: one row every `rowHeight` px from `top`; bars span `barWidth` px from `barLeft`. */
export const STACK = { width: 720, top: 40, rowHeight: 22, barHeight: 14, barLeft: 224, barWidth: 432 } as const;

const count = (v: number | undefined) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);

/** One horizontal bar per row; segments are the categories' shares of the row total. */
export function stackedBars(input: StackedInput): string {
  const colors = input.categories.map((_, c) => input.colors?.[c] ?? seriesColor(c));
  const body: string[] = [];
  input.rows.forEach((row, r) => {
    const y = STACK.top + r * STACK.rowHeight + (STACK.rowHeight - STACK.barHeight) / 2;
    const counts = input.categories.map((_, c) => count(row.counts[c]));
    const total = counts.reduce((a, b) => a + b, 0);
    body.push(label({ class: "row", x: 16, y: y + 11 }, truncateMiddle(row.label, 34), row.label));
    if (total === 0) {
      body.push(el("rect", { class: "empty", x: STACK.barLeft, y, width: STACK.barWidth, height: STACK.barHeight, fill: "none", stroke: "#ccc" }));
      body.push(label({ class: "missing", x: STACK.barLeft + 6, y: y + 11, fill: "#666" }, "–", `${row.label}: no counts`));
      return;
    }
    let before = 0;
    counts.forEach((n, c) => {
      if (n === 0) return;
      const tip = `${row.label} · ${input.categories[c]}: ${n} of ${total} (${pct(n / total)})`;
      body.push(el("rect", { class: "seg", x: STACK.barLeft + (STACK.barWidth * before) / total, y, width: (STACK.barWidth * n) / total, height: STACK.barHeight, fill: colors[c]! }, tooltip(tip)));
      before += n;
    });
    body.push(label({ class: "total", x: STACK.barLeft + STACK.barWidth + 6, y: y + 11, fill: "#555" }, `n = ${total}`));
  });
  const axisY = STACK.top + input.rows.length * STACK.rowHeight + 4;
  body.push(stackAxis(axisY));
  const key = legend(input.categories.map((name, c) => ({ name, color: colors[c]!, kind: "box" })), axisY + 24, STACK.width);
  body.push(key.svg);
  return svgRoot(input.title, STACK.width, axisY + 24 + key.height + 8, body);
}

/** The share scale under the bars: ticks at 0, 25, 50, 75, 100%. */
function stackAxis(y: number): string {
  const parts = [el("line", { class: "grid", x1: STACK.barLeft, y1: y, x2: STACK.barLeft + STACK.barWidth, y2: y, stroke: "#888", "stroke-width": 1 })];
  for (let k = 0; k <= 4; k++) {
    const x = STACK.barLeft + (STACK.barWidth * k) / 4;
    parts.push(el("line", { class: "grid", x1: x, y1: y, x2: x, y2: y + 4, stroke: "#888", "stroke-width": 1 }));
    parts.push(label({ x, y: y + 15, "text-anchor": "middle", fill: "#555" }, `${25 * k}%`));
  }
  return parts.join("");
}
