/**
 * VCN-Bench for `spatialprobe audit` (src/audit/types.ts): can the goal frame be picked without
 * looking at the tour? Only goal identification (what `run` scores) is audited; navigation is not.
 *
 * - Candidates: the frames of the prior-tour window, as the default run shows them (prompt
 *   "plain", no image limit: every tour frame, labelled with its tour index). Each replies
 *   {"frame": <label>} (the template's contract, read by parse.ts); label = that frame's credit
 *   (Rid-SR: camera in the target room; Oid-SR: target instance visible). Candidate features are
 *   position only: index, fraction of the window, first, last, distance from the end.
 * - Text: the prompt's text parts (templates/vcn.yaml through prompt.ts's buildMessages, with
 *   placeholder pictures so nothing is decoded). Item features: window length, instruction
 *   length, and which relation words (relations.ts) the instruction uses.
 * - Cues (options.cues): per frame, whether it shows the category the instruction names, read
 *   from the dataset's own per-frame annotations, which record exactly what a scene classifier
 *   (camera room's category) or an object detector (object categories in view, App. B.3) reads
 *   off the picture without any reasoning about the tour; and the pixels of the named object
 *   category where the generator's tour.json sidecar records them (else its instance count).
 *   Categories are matched in the instruction text only (never from the target), against the
 *   category names the item's own annotations use.
 * - Rules: first / last / middle frame; a relative-position prior learned per task on the
 *   training folds; cue rules "first / last frame showing the named category" and "frame with
 *   most pixels of the named object category".
 * - Chance: the exact category chance level (chance.ts), the one the issue compares Rid-SR to.
 */
import { existsSync, lstatSync, mkdirSync, writeFileSync } from "node:fs";
import { copyRegularFile, copyRegularFolder, readRegularText } from "../../core/file-read.js";
import path from "node:path";
import type { ScoresDocument } from "../../core/benchmark.js";
import { DataRoot, isInside } from "../../core/dataroot.js";
import type { AuditUnit, BenchmarkAudit, BlindRule, Candidate, Headline } from "../../audit/types.js";
import { chanceLevels, frameSucceeds } from "./chance.js";
import { buildMessages, loadTemplates, planShown, shownLabels, type Tour, type VcnTemplates } from "./prompt.js";
import { RELATIONS } from "./relations.js";
import { R2O_TASKS } from "./schema.js";
import type { ShownFrames, VcnItem } from "./types.js";
import { choiceCandidates } from "../../audit/units.js";

/** The variant the default run asks (`run vcn` without --prompt). */
const DEFAULT_VARIANT = "plain";

/** A 1x1 PNG: stands in for every picture while the prompt's text is built (no file is read). */
const PLACEHOLDER_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

export const frameReply = (label: number): string => JSON.stringify({ frame: label });

/** The text parts of the prompt the default run builds for this item (pictures replaced by a placeholder). */
export function promptText(item: VcnItem, shown: ShownFrames, templates: VcnTemplates): string {
  const tour: Tour = {
    frames: item.annotations.map((a) => ({ index: a.index, timestamp: null, png: PLACEHOLDER_PNG, width: 1, height: 1 })),
    provenance: { source: "", sha256: "", spec: { mode: "all" }, indices: [], timestamps: [], totalFrames: 0 } as unknown as Tour["provenance"],
  };
  const messages = buildMessages(item, shown, tour, templates, () => PLACEHOLDER_PNG);
  return messages.flatMap((m) => m.content.flatMap((p) => (p.type === "text" ? [p.text] : []))).join("\n");
}

/** Position features of the k-th of n frames of the window. */
export function positionFeatures(k: number, n: number): Record<string, number> {
  return { index: k, fraction: n > 1 ? k / (n - 1) : 0, is_first: k === 0 ? 1 : 0, is_last: k === n - 1 ? 1 : 0, from_end: n - 1 - k, frames: n };
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const wordPattern = (word: string) => new RegExp(`(?<![a-z])${escapeRegex(word.toLowerCase())}(?![a-z])`);

/** Item features read from the instruction: its length and which relation words it uses. */
export function instructionFeatures(instruction: string): Record<string, number> {
  const text = instruction.toLowerCase();
  const features: Record<string, number> = { instruction_words: text.split(/\s+/).filter(Boolean).length };
  for (const relation of RELATIONS) features[`says_${relation}`] = wordPattern(relation).test(text) ? 1 : 0;
  return features;
}

/** The first of `names` the instruction mentions (earliest position; the longer name at a tie), or null. */
export function firstNamed(instruction: string, names: Iterable<string>): string | null {
  const text = instruction.toLowerCase();
  let best: { name: string; at: number } | null = null;
  for (const name of names) {
    const at = text.search(wordPattern(name));
    if (at < 0) continue;
    if (!best || at < best.at || (at === best.at && name.length > best.name.length)) best = { name, at };
  }
  return best?.name ?? null;
}

/** Per-frame object pixels by (video/folder frame number, object id), from a generated tour's tour.json. */
export type PixelTable = Map<number, Map<string, number>>;

/** What the cue features read of an item. */
export type CueItem = Pick<VcnItem, "task" | "instruction" | "annotations" | "layout">;

/** tour.json next to the tour's video (or above its frame folder), read inside the root; null when absent or unreadable. */
function readPixelTable(root: DataRoot, item: VcnItem, cache: Map<string, PixelTable | null>): PixelTable | null {
  const source = item.tour.source;
  const folder = source.video ? path.dirname(source.video) : source.dir ? path.dirname(source.dir) : null;
  if (!folder || item.tour.prior) return null;
  const file = path.join(folder, "tour.json");
  if (cache.has(file)) return cache.get(file)!;
  let table: PixelTable | null = null;
  const read = root.readText(file);
  if (read.ok) {
    try {
      const frames = (JSON.parse(read.text) as { frames?: unknown }).frames;
      if (Array.isArray(frames)) {
        table = new Map();
        for (const frame of frames.slice(0, 100_000) as Array<{ index?: unknown; objects?: unknown }>) {
          if (!Number.isInteger(frame?.index) || !Array.isArray(frame.objects)) continue;
          const row = new Map<string, number>();
          for (const o of frame.objects.slice(0, 10_000) as Array<{ name?: unknown; pixels?: unknown }>) {
            if (typeof o?.name === "string" && typeof o.pixels === "number" && Number.isFinite(o.pixels)) row.set(o.name, o.pixels);
          }
          table.set(frame.index as number, row);
        }
      }
    } catch {
      table = null;
    }
  }
  cache.set(file, table);
  return table;
}

/**
 * Cue features of each frame: does it show the category the instruction names (room category for
 * the R2O tasks when one is named, else the named object category), and how many pixels of the
 * named object category it shows (tour.json; else the count of its visible instances).
 */
export function frameCues(item: CueItem, pixels: PixelTable | null): { item: Record<string, number>; frames: Array<Record<string, number>> } {
  const roomCategories = new Set(item.annotations.flatMap((a) => (a.room_category ? [a.room_category] : [])));
  for (const r of item.layout?.rooms ?? []) roomCategories.add(r.category);
  const objectCategories = new Set(item.annotations.flatMap((a) => a.objects.map((o) => o.category)));
  for (const o of item.layout?.objects ?? []) objectCategories.add(o.category);
  const room = R2O_TASKS.includes(item.task) ? firstNamed(item.instruction, roomCategories) : null;
  const object = firstNamed(item.instruction, objectCategories);
  const frames = item.annotations.map((a) => {
    const inRoom = room !== null && a.room_category === room ? 1 : 0;
    const seen = a.objects.filter((o) => o.category === object);
    const row = pixels && a.source_index !== undefined ? pixels.get(a.source_index) : undefined;
    const area = row ? seen.reduce((sum, o) => sum + (row.get(o.id) ?? 0), 0) : seen.length;
    return {
      named_room_category: inRoom,
      named_object_visible: seen.length > 0 ? 1 : 0,
      shows_named_category: room !== null ? inRoom : seen.length > 0 ? 1 : 0,
      named_object_pixels: area,
    };
  });
  return { item: { room_category_named: room !== null ? 1 : 0, object_category_named: object !== null ? 1 : 0, pixels_known: pixels ? 1 : 0 }, frames };
}

/** The answer class: where the last right frame sits in the window. */
export function positionClass(labels: readonly number[]): string {
  const n = labels.length;
  const last = labels.lastIndexOf(1);
  if (last < 0) return "none";
  if (last === n - 1) return "last frame";
  if (last === 0) return "first frame";
  const third = Math.min(2, Math.floor((3 * last) / n));
  return ["first third", "middle third", "last third"][third]!;
}

async function units(items: VcnItem[], options: { root: string; cues: boolean }): Promise<AuditUnit[]> {
  const templates = loadTemplates();
  const root = new DataRoot(options.root);
  const pixelCache = new Map<string, PixelTable | null>();
  return items.map((item) => {
    const shown = planShown(item, DEFAULT_VARIANT, 0);
    const labels = shownLabels(shown);
    const n = shown.shown.length;
    const cues = options.cues ? frameCues(item, readPixelTable(root, item, pixelCache)) : null;
    const candidates: Candidate[] = shown.shown.map((tourIndex, k) => ({
      reply: frameReply(labels[k]!),
      label: frameSucceeds(item.target, item.annotations[tourIndex]!) ? 1 : 0,
      features: positionFeatures(k, n),
      ...(cues ? { cues: cues.frames[tourIndex]! } : {}),
    }));
    return {
      id: item.id,
      task: item.task,
      cluster: item.cluster,
      text: promptText(item, shown, templates),
      prompt: { ...shown },
      features: { frames: n, ...instructionFeatures(item.instruction) },
      ...(cues ? { cues: cues.item } : {}),
      answer: { kind: "choice", candidates },
      answerClass: positionClass(candidates.map((c) => c.label)),
    };
  });
}


/** A rule that picks a candidate position from the unit's candidates alone. */
function positionRule(name: string, describe: string, pick: (n: number) => number): BlindRule {
  return { name, describe, fit: () => (unit) => choiceCandidates(unit)[pick(choiceCandidates(unit).length)]?.reply ?? frameReply(0) };
}

/** Bins of the relative-position prior. */
export const PRIOR_BINS = 10;
const binOf = (fraction: number) => Math.min(PRIOR_BINS - 1, Math.floor(fraction * PRIOR_BINS));

/**
 * Where right frames sit in the window, per task: each training unit spreads one unit of weight
 * uniformly over its right frames, by relative position (PRIOR_BINS bins).
 */
export function positionPrior(train: readonly AuditUnit[]): Map<string, number[]> {
  const prior = new Map<string, number[]>();
  for (const unit of train) {
    const candidates = choiceCandidates(unit);
    const right = candidates.filter((c) => c.label > 0);
    if (right.length === 0) continue;
    const bins = prior.get(unit.task) ?? prior.set(unit.task, new Array<number>(PRIOR_BINS).fill(0)).get(unit.task)!;
    for (const c of right) bins[binOf(c.features["fraction"] ?? 0)]! += 1 / right.length;
  }
  return prior;
}

/** The frame whose relative position falls in the prior's heaviest bin (the latest such frame; the last frame when the task was not seen). */
export function pickByPrior(unit: AuditUnit, prior: Map<string, number[]>): string {
  const candidates = choiceCandidates(unit);
  const bins = prior.get(unit.task);
  if (!bins || candidates.length === 0) return candidates.at(-1)?.reply ?? frameReply(0);
  let best = candidates.length - 1;
  for (let k = candidates.length - 1; k >= 0; k--) {
    if (bins[binOf(candidates[k]!.features["fraction"] ?? 0)]! > bins[binOf(candidates[best]!.features["fraction"] ?? 0)]!) best = k;
  }
  return candidates[best]!.reply;
}

/**
 * The position a cue rule picks among frame scores: the highest positive one (the latest at a tie,
 * or the earliest when `earliest`), or the last when none is above 0.
 */
export function pickIndexByCue(scores: readonly number[], earliest = false): number {
  let best = scores.length - 1;
  let bestScore = 0;
  scores.forEach((s, k) => {
    if (s > 0 && (s > bestScore || (s === bestScore && !earliest))) {
      best = k;
      bestScore = s;
    }
  });
  return best;
}

/** A cue rule: its score of a frame, read from frameCues' per-frame features, and which frame wins a tie. */
interface CueRule {
  score: (cues: Record<string, number>) => number;
  earliest: boolean;
}

/**
 * The cue rules. The first and the last frame showing the named category come as a pair: a set
 * balanced against one alone moves its answers to the other end (issue 28: with only the last,
 * Distance targets came early among their candidates 67 times in 100, and the cue forest read it).
 */
export const CUE_RULES = {
  "last-frame-of-named-category": { score: (c) => c["shows_named_category"] ?? 0, earliest: false },
  "most-pixels-of-named-object": { score: (c) => c["named_object_pixels"] ?? 0, earliest: false },
  "first-frame-of-named-category": { score: (c) => c["shows_named_category"] ?? 0, earliest: true },
} as const satisfies Record<string, CueRule>;

export type CueRuleName = keyof typeof CUE_RULES;

/** The candidate a cue rule picks (frame 0's reply when the unit has no candidates). */
function pickByCue(unit: AuditUnit, rule: CueRule): string {
  const candidates = choiceCandidates(unit);
  return candidates[pickIndexByCue(candidates.map((c) => (c.cues ? rule.score(c.cues) : 0)), rule.earliest)]?.reply ?? frameReply(0);
}

/**
 * The annotation index each cue rule picks for an item shown whole in tour order (the default
 * run, as audited here); the generator balances these against the category chance.
 */
export function cueRulePicks(item: CueItem, pixels: PixelTable | null): Record<CueRuleName, number> {
  const frames = frameCues(item, pixels).frames;
  const pick = (rule: CueRule) => item.annotations[pickIndexByCue(frames.map(rule.score), rule.earliest)]?.index ?? 0;
  return Object.fromEntries(Object.entries(CUE_RULES).map(([name, rule]) => [name, pick(rule)])) as Record<CueRuleName, number>;
}

export const vcnRules: BlindRule[] = [
  positionRule("first-frame", "the first frame of the window", () => 0),
  positionRule("last-frame", "the last frame of the window (the window ends where the agent starts: issue 26 found 44-56% Rid-SR)", (n) => n - 1),
  positionRule("middle-frame", "the middle frame of the window", (n) => Math.floor((n - 1) / 2)),
  {
    name: "position-prior",
    describe: `the frame in the relative position (${PRIOR_BINS} bins) where the training folds' right frames of the task sit most often`,
    fit: (train) => {
      const prior = positionPrior(train);
      return (unit) => pickByPrior(unit, prior);
    },
  },
  {
    name: "last-frame-of-named-category",
    describe: "the last frame showing the category the instruction names (room category by a scene classifier, else the object category by a detector; the annotations record both)",
    cue: true,
    fit: () => (unit) => pickByCue(unit, CUE_RULES["last-frame-of-named-category"]),
  },
  {
    name: "first-frame-of-named-category",
    describe: "the first frame showing the category the instruction names (as the last-frame rule reads it)",
    cue: true,
    fit: () => (unit) => pickByCue(unit, CUE_RULES["first-frame-of-named-category"]),
  },
  {
    name: "most-pixels-of-named-object",
    describe: "the frame with the most pixels of the object category the instruction names (tour.json pixels; instance count without it); the latest at a tie",
    cue: true,
    fit: () => (unit) => pickByCue(unit, CUE_RULES["most-pixels-of-named-object"]),
  },
];

/** Scored detail (score.ts GoalOutcome) -> credit: 1 when the chosen frame succeeds. */
function credit(_item: VcnItem, detail: Record<string, unknown>): number {
  return detail["success"] === true ? 1 : 0;
}

/** Each task's own success rate (Rid-SR for the four R2O types, Oid-SR for Instance), with its cluster-bootstrap interval. */
function headline(summary: Omit<ScoresDocument, "benchmark" | "model">, task: string): Headline {
  const row = (summary["tasks"] as Record<string, unknown> | undefined)?.[task] as { metric?: string; SR?: number | null; ci?: { SR?: [number, number] } } | undefined;
  const metric = row?.metric ?? (task === "instance" ? "Oid-SR" : "Rid-SR");
  const ci = row?.ci?.SR;
  return { metric, score: typeof row?.SR === "number" ? row.SR : null, ci: Array.isArray(ci) && ci.length === 2 ? [ci[0], ci[1]] : null };
}

/** The mean of the items' exact category chance levels (chance.ts), as aggregate.ts averages them. */
function chance(items: VcnItem[], task: string): number | null {
  const group = items.filter((i) => i.task === task);
  if (group.length === 0) return null;
  return group.reduce((sum, i) => sum + chanceLevels(i).category, 0) / group.length;
}

/** Files and folders a kept item reads, relative to the dataset root (inside it only). */
function mediaOf(root: string, item: VcnItem): string[] {
  const source = item.tour.source;
  // A release prior picks frames by their position in the whole folder's listing: the folder goes whole.
  const frames = item.tour.prior && source.frames?.[0] ? [path.dirname(source.frames[0])] : (source.frames ?? []);
  const files = [source.video ? path.dirname(source.video) : null, source.dir ?? null, ...frames, ...Object.values(item.views)];
  return files.flatMap((f) => (f && isInside(root, f) && f !== root ? [path.relative(root, f)] : []));
}

/**
 * Kept items' lines of their JSONL file (byte-identical), and the media they read: the tour
 * video's folder (tour.json beside it), frame folders or files, and the four views.
 */
async function writeSubset(root: string, items: VcnItem[], keep: ReadonlySet<string>, outDir: string): Promise<void> {
  const absRoot = path.resolve(root);
  mkdirSync(outDir, { recursive: true });
  const keptLines = new Map<string, Set<number>>();
  const media = new Set<string>();
  for (const item of items) {
    if (!keep.has(item.id)) continue;
    (keptLines.get(item.source.file) ?? keptLines.set(item.source.file, new Set()).get(item.source.file)!).add(item.source.line);
    for (const m of mediaOf(absRoot, item)) media.add(m);
  }
  for (const [file, lines] of keptLines) {
    const text = readRegularText(path.join(absRoot, file));
    const rows = text.split("\n");
    const kept = rows.filter((_, k) => lines.has(k + 1));
    writeFileSync(path.join(outDir, file), kept.map((r) => `${r}\n`).join(""));
  }
  for (const rel of [...media].sort()) {
    const from = path.join(absRoot, rel);
    const to = path.join(outDir, rel);
    mkdirSync(path.dirname(to), { recursive: true });
    // Sorted, a folder comes before what lies in it: what it brought along is there already.
    if (existsSync(to)) continue;
    // Each file from a checked descriptor; a link swapped in since the load is refused, not followed.
    if (lstatSync(from).isDirectory()) copyRegularFolder(from, to);
    else copyRegularFile(from, to);
  }
}

/** The headline (average.mean_of_types: aggregate.ts) at chance: the mean over the asked types of their category chance. */
function overallChance(items: VcnItem[]): number | null {
  const types = [...new Set(items.map((i) => i.task))];
  const levels = types.map((t) => chance(items, t));
  return levels.length === 0 || levels.some((c) => c === null) ? null : (levels as number[]).reduce((a, b) => a + b, 0) / levels.length;
}

export const vcnAudit: BenchmarkAudit<VcnItem> = { units, rules: vcnRules, credit, headline, chance, overallMetric: "Avg. SR, mean of types", overallChance, writeSubset };
