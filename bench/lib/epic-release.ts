/**
 * A generated EPIC-Bench-layout release for bench/epic-scoring.ts: seeded ground truth for all 23
 * task types at 1280x720 (compressed COCO RLE strings, one per instance) and one ms-swift raw
 * reply per sample. Nothing here is timed.
 *
 * Layout and fields follow /work/shared/reference/epic.md and src/benchmarks/epic/load.ts:
 * `<root>/EPIC_Bench/<Category>/.../<id>_mask_rle.json` with `<id>_image.jpg` and the task's
 * overlay (Visual Matching: `<a>__<b>_mask_rle.json`, `<a>_image.jpg`,
 * `<a>_reference_area_overlay.png`, `<b>_image.jpg`). Every image file is a hard link to one tiny
 * JPEG or PNG (the scorers never open images; the loader only checks that they exist).
 *
 * FeasiblePath target areas are 1-3 small components (each at most 17x17 pixels, all of them
 * together under 1,000 pixels), so neither start nor goal region ever exceeds the official
 * scorer's 1,000-pixel threshold and its random subsampling for D_SG never triggers: the official
 * numbers are deterministic and comparable to ours exactly.
 *
 * Replies use absolute pixel coordinates. Each sample's reply is one of three seeded kinds:
 *   good (~35%)       the ground-truth boxes / count / feasibility (or a straight start-goal path),
 *                     clean JSON in a readable wrapper;
 *   noisy (~45%)      jittered, missing and spurious boxes, odd box shapes, off or oddly typed
 *                     counts, odd feasibility values, noisy / reversed / duplicated path points,
 *                     Python literals, drafts before the final answer, prose, fences, think blocks;
 *   unreadable (~20%) an unclosed <think>, trailing commas, truncated JSON, an empty reply, prose
 *                     without JSON, a reply without the task's keys, a count in words or "3.0".
 */
import { linkSync, copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { LEAF_TASKS, overlaySuffix, type LeafTask } from "../../src/benchmarks/epic/taxonomy.js";
import { BitMask } from "../../src/geometry/mask.js";
import { encodeRle } from "../../src/geometry/rle.js";
import { createRng, deriveSeed, type Rng } from "../../src/stats/rng.js";

export const WIDTH = 1280;
export const HEIGHT = 720;
export const RELEASE_SAMPLES = 6661;

/**
 * Samples per leaf task at release scale (6,661): Target Localization 3,997 (60%) over its 14
 * leaves, the other 2,664 over the 9 navigation / manipulation task types.
 */
export const RELEASE_PLAN: Readonly<Record<string, number>> = {
  Category: 420, Color: 330, Geometry: 260, Material: 250, ObjectProjections: 230, RelativePerception: 300,
  Orientation: 260, OrientationHuman: 200, SpatialRelation: 380, SpatialRelationHuman: 240,
  ObjectState: 280, PartWhole: 300, PartWholeHuman: 217, Spoken: 330,
  GroundDetection: 380, FeasiblePath_Ego: 300, FeasiblePath_Exo: 300, VisualMatching: 330,
  AffordanceRegion: 380, ContactRelationship_TypeOne: 220, ContactRelationship_TypeTwo: 220,
  ContactRelationship_TypeThree: 214, PlacementRegion: 320,
};

/** The plan scaled to `total` samples (largest remainders; every leaf keeps at least one when total >= 23). */
export function planFor(total: number): Map<LeafTask, number> {
  const full = LEAF_TASKS.reduce((s, t) => s + RELEASE_PLAN[t.leaf]!, 0);
  const exact = LEAF_TASKS.map((t) => (RELEASE_PLAN[t.leaf]! * total) / full);
  const counts = exact.map((x) => Math.max(total >= LEAF_TASKS.length ? 1 : 0, Math.floor(x)));
  let left = total - counts.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0]);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) counts[order[k]![1]]!++;
  for (let i = counts.length - 1; left < 0; i = (i - 1 + counts.length) % counts.length) {
    if (counts[i]! > 1) {
      counts[i]!--;
      left++;
    }
  }
  return new Map(LEAF_TASKS.map((t, i) => [t, counts[i]!]));
}

type Kind = "TL" | "GD" | "FP" | "VM" | "AR" | "CR" | "PR";
/** Pixel box of set pixels: x1 <= x < x2, y1 <= y < y2. */
type Box = [number, number, number, number];
type Pt = [number, number];
type Quality = "good" | "noisy" | "unreadable";

interface Sample {
  leaf: LeafTask;
  kind: Kind;
  /** Image paths given to the model, relative to the data root, in the official order. */
  images: string[];
  /** Ground-truth instance boxes (localization tasks). */
  boxes: Box[];
  /** Ground-truth count as the text annotation gives it (counted tasks). */
  count?: number;
  feasible?: boolean;
  /** FeasiblePath: where a straight reply starts and ends. */
  path?: { start: Pt; goal: Pt };
}

export interface ReleaseStats {
  samples: number;
  byCategory: Record<string, number>;
  instances: number;
  emptyTargets: number;
  imageFiles: number;
  replies: Record<Quality, number>;
  maxTargetAreaPixels: number;
}

const COUNT_KEY: Partial<Record<Kind, string>> = { TL: "number_of_objects", VM: "number_of_instances", CR: "number_of_instances" };

function kindOf(leaf: LeafTask): Kind {
  if (leaf.category === "TargetLocalization") return "TL";
  switch (leaf.group) {
    case "GroundDetection": return "GD";
    case "FeasiblePath": return "FP";
    case "VisualMatching": return "VM";
    case "AffordanceRegion": return "AR";
    case "ContactRelationship": return "CR";
    default: return "PR";
  }
}

function folderOf(leaf: LeafTask): string {
  if (leaf.category === "TargetLocalization") return `EPIC_Bench/TargetLocalization/${leaf.group}/${leaf.leaf}`;
  if (leaf.group === "FeasiblePath" || leaf.group === "ContactRelationship") return `EPIC_Bench/${leaf.category}/${leaf.group}/${leaf.leaf}`;
  return `EPIC_Bench/${leaf.category}/${leaf.leaf}`;
}

// ------------------------------------------------------------------ drawing

/** One scratch mask, cleared per instance; shapes return the box of the pixels they set. */
class Canvas {
  readonly mask = new BitMask(WIDTH, HEIGHT);
  private box: Box | null = null;

  clear(): void {
    this.mask.words.fill(0);
    this.box = null;
  }

  private span(x1: number, y: number, x2: number): void {
    x1 = Math.max(0, x1);
    x2 = Math.min(WIDTH, x2);
    if (y < 0 || y >= HEIGHT || x2 <= x1) return;
    this.mask.fillBox(x1, y, x2, y + 1);
    const b = this.box;
    this.box = b ? [Math.min(b[0], x1), Math.min(b[1], y), Math.max(b[2], x2), Math.max(b[3], y + 1)] : [x1, y, x2, y + 1];
  }

  rect(x1: number, y1: number, x2: number, y2: number): void {
    for (let y = Math.max(0, y1); y < Math.min(HEIGHT, y2); y++) this.span(x1, y, x2);
  }

  ellipse(cx: number, cy: number, rx: number, ry: number): void {
    for (let y = Math.ceil(cy - ry); y <= Math.floor(cy + ry); y++) {
      const dy = (y - cy) / ry;
      const t = 1 - dy * dy;
      if (t < 0) continue;
      const half = rx * Math.sqrt(t);
      this.span(Math.ceil(cx - half), y, Math.floor(cx + half) + 1);
    }
  }

  /** The current instance as a compressed RLE and its box (null when nothing was drawn). */
  take(): { rle: { size: [number, number]; counts: string }; box: Box } | null {
    if (!this.box) return null;
    return { rle: encodeRle(this.mask), box: this.box };
  }

  count(): number {
    return this.mask.count();
  }
}

/** A random object: rectangle, ellipse or blob (union of 2-4 ellipses). */
function drawObject(rng: Rng, c: Canvas): void {
  const k = rng.next();
  if (k < 0.4) {
    const w = rng.int(10, 420);
    const h = rng.int(10, 320);
    const x = rng.int(-20, WIDTH - w + 20);
    const y = rng.int(-20, HEIGHT - h + 20);
    c.rect(x, y, x + w, y + h);
  } else if (k < 0.75) {
    c.ellipse(rng.float(0, WIDTH), rng.float(0, HEIGHT), rng.float(6, 220), rng.float(6, 160));
  } else {
    const cx = rng.float(WIDTH * 0.1, WIDTH * 0.9);
    const cy = rng.float(HEIGHT * 0.1, HEIGHT * 0.9);
    for (let i = rng.int(2, 4); i > 0; i--) c.ellipse(cx + rng.float(-60, 60), cy + rng.float(-40, 40), rng.float(10, 120), rng.float(10, 90));
  }
}

/** A small target-area component (at most 17x17 = 289 pixels) near (cx, cy). */
function drawSmall(rng: Rng, c: Canvas, cx: number, cy: number): void {
  if (rng.chance(0.5)) {
    const w = rng.int(5, 17);
    const h = rng.int(5, 17);
    const x = Math.round(cx - w / 2);
    const y = Math.round(cy - h / 2);
    c.rect(x, y, x + w, y + h);
  } else {
    c.ellipse(cx, cy, rng.float(3, 8.4), rng.float(3, 8.4));
  }
}

function instances(rng: Rng, c: Canvas, n: number): { rles: unknown[]; boxes: Box[] } {
  const rles: unknown[] = [];
  const boxes: Box[] = [];
  while (rles.length < n) {
    c.clear();
    drawObject(rng, c);
    const got = c.take();
    if (!got) continue;
    rles.push(got.rle);
    boxes.push(got.box);
  }
  return { rles, boxes };
}

// ------------------------------------------------------------------ ground truth

/** 1-element list (60%), scalar (30%) or the other common spelling (10%), as the release mixes them. */
function countValue(rng: Rng, n: number): unknown {
  const k = rng.next();
  return k < 0.6 ? [n] : k < 0.9 ? n : String(n);
}

function flagValue(rng: Rng, p: number): unknown {
  const v = rng.chance(p);
  const k = rng.next();
  return k < 0.5 ? [v] : k < 0.9 ? v : Number(v);
}

interface Written {
  sample: Sample;
  instances: number;
  empty: boolean;
  targetArea?: number;
}

function makeSample(rng: Rng, c: Canvas, leaf: LeafTask, id: number, root: string, files: { jpg: string; png: string }): Written {
  const kind = kindOf(leaf);
  const folder = folderOf(leaf);
  const stem = String(id).padStart(6, "0");
  const overlay = overlaySuffix(leaf);
  let images: string[];
  let gtName: string;
  if (kind === "VM") {
    const b = String(id + 500000).padStart(6, "0");
    images = [`${folder}/${stem}_image.jpg`, `${folder}/${stem}${overlay}`, `${folder}/${b}_image.jpg`];
    gtName = `${stem}__${b}_mask_rle.json`;
  } else {
    images = [`${folder}/${stem}_image.jpg`, ...(overlay ? [`${folder}/${stem}${overlay}`] : [])];
    gtName = `${stem}_mask_rle.json`;
  }
  mkdirSync(path.join(root, folder), { recursive: true });
  for (const img of images) {
    const dest = path.join(root, img);
    const src = img.endsWith(".png") ? files.png : files.jpg;
    try {
      linkSync(src, dest);
    } catch {
      copyFileSync(src, dest);
    }
  }

  const text: Record<string, unknown> = { text_label: `${leaf.leaf} sample ${stem}` };
  const masks: Record<string, unknown[]> = {};
  const sample: Sample = { leaf, kind, images, boxes: [] };
  let empty = false;
  let targetArea: number | undefined;

  if (kind === "FP") {
    // Target area: 1-3 small components; ego: a goal cluster; exo: a start and a far goal cluster.
    const ego = leaf.leaf === "FeasiblePath_Ego";
    const start: Pt = ego ? [WIDTH / 2, HEIGHT - 1] : [rng.float(60, WIDTH - 60), rng.float(60, HEIGHT - 60)];
    let goal: Pt;
    do goal = [rng.float(60, WIDTH - 60), ego ? rng.float(40, HEIGHT * 0.55) : rng.float(60, HEIGHT - 60)];
    while (Math.hypot(goal[0] - start[0], goal[1] - start[1]) < 320);
    const centres: Pt[] = [];
    if (ego) {
      for (let i = rng.int(1, 3); i > 0; i--) centres.push([goal[0] + rng.float(-50, 50), goal[1] + rng.float(-30, 30)]);
    } else {
      centres.push(start);
      if (rng.chance(0.92)) for (let i = rng.int(1, 2); i > 0; i--) centres.push([goal[0] + rng.float(-40, 40), goal[1] + rng.float(-30, 30)]);
    }
    const area: unknown[] = [];
    const union = new BitMask(WIDTH, HEIGHT);
    for (const [cx, cy] of centres) {
      c.clear();
      drawSmall(rng, c, cx, cy);
      const got = c.take();
      if (!got) continue;
      area.push(got.rle);
      for (let i = 0; i < union.words.length; i++) union.words[i]! |= c.mask.words[i]!;
    }
    targetArea = union.count();
    if (targetArea >= 1000) throw new Error(`target area of ${stem} has ${targetArea} pixels (must stay under 1,000)`);
    // Walkable area: a corridor of boxes from start to goal, plus 0-2 random regions.
    const pathRles: unknown[] = [];
    c.clear();
    const halfW = rng.float(40, 90);
    const halfH = rng.float(30, 60);
    for (let k = 0; k <= 12; k++) {
      const x = start[0] + ((goal[0] - start[0]) * k) / 12 + rng.float(-15, 15);
      const y = start[1] + ((goal[1] - start[1]) * k) / 12 + rng.float(-15, 15);
      c.rect(Math.round(x - halfW), Math.round(y - halfH), Math.round(x + halfW), Math.round(y + halfH));
    }
    pathRles.push(c.take()!.rle);
    pathRles.push(...instances(rng, c, rng.int(0, 2)).rles);
    masks["masklet_path"] = pathRles;
    masks["masklet_target_area"] = area;
    text["target_area_description_en"] = ego ? "the doorway ahead" : "from the sofa to the door";
    sample.path = { start: ego ? start : centres[0]!, goal: centres.length > 1 ? centres[centres.length - 1]! : goal };
  } else {
    const canBeEmpty = kind === "TL" || kind === "VM" || kind === "CR" || kind === "PR";
    empty = canBeEmpty && rng.chance(kind === "PR" ? 0.08 : 0.06);
    const n = empty ? 0 : rng.int(1, 3);
    const inst = instances(rng, c, n);
    sample.boxes = inst.boxes;
    const field = { TL: "masklet_target", GD: "masklet_ground", VM: "masklet_matching_area", AR: "masklet_affordance_region", CR: "masklet_contact_target", PR: "masklet_placement_region" }[kind];
    masks[field] = inst.rles;
    if (kind === "TL" || kind === "VM" || kind === "CR") {
      // As in the release, the annotated count now and then disagrees with the instances drawn.
      const count = !empty && rng.chance(0.08) ? Math.max(0, n + rng.pick([-1, 1])) : n;
      sample.count = count;
      const countField = { TL: "count_target_instance", VM: "count_matching_area", CR: "count_contact_target" }[kind];
      text[countField] = countValue(rng, count);
      text[kind === "VM" && rng.chance(0.2) ? "Precise_Count" : "precise_count"] = flagValue(rng, 0.4);
      text["count_in_description"] = flagValue(rng, 0.3);
      text[kind === "TL" ? "target_object_description_en" : kind === "VM" ? "matching_area_description_en" : "contact_target_description_en"] = `the ${leaf.leaf} target`;
    }
    if (kind === "GD") text["scene_description_en"] = "the floor";
    if (kind === "AR") {
      text["task_description_en"] = "open it";
      text["reference_object_description_en"] = "the drawer";
    }
    if (kind === "PR") {
      const feasible = rng.chance(0.9) ? !empty : empty;
      sample.feasible = feasible;
      text[rng.chance(0.85) ? "placement_feasible" : "placement_feasibility"] = rng.chance(0.7) ? [feasible] : feasible;
      text["reference_object_description_en"] = "the cup";
      text["placement_region_description_en"] = "the table";
    }
  }

  const gt = { image_path_saved: [images[0]], text_annotation: text, mask_annotation: masks };
  writeFileSync(path.join(root, folder, gtName), JSON.stringify(gt));
  const nInstances = Object.values(masks).reduce((s, l) => s + l.length, 0);
  return { sample, instances: nInstances, empty, ...(targetArea !== undefined ? { targetArea } : {}) };
}

// ------------------------------------------------------------------ replies

const J = (o: unknown) => JSON.stringify(o);
const JP = (o: unknown) => JSON.stringify(o, null, 4);

/** Python literal rendering: single-quoted keys, True/False/None, box and point lists as tuples. */
function pyrepr(o: unknown): string {
  if (o === null || o === undefined) return "None";
  if (o === true) return "True";
  if (o === false) return "False";
  if (typeof o === "string") return `'${o}'`;
  if (typeof o === "number") return String(o);
  if (Array.isArray(o)) {
    if (o.length > 0 && o.every((x) => Array.isArray(x))) return "[" + o.map((x: unknown[]) => "(" + x.map(pyrepr).join(", ") + ")").join(", ") + "]";
    return "[" + o.map(pyrepr).join(", ") + "]";
  }
  return "{" + Object.entries(o as Record<string, unknown>).map(([k, v]) => `'${k}': ${pyrepr(v)}`).join(", ") + "}";
}

function jitterBoxes(rng: Rng, s: Sample): number[][] {
  const out: number[][] = [];
  for (const b of s.boxes) {
    if (rng.chance(0.1)) continue; // a missed instance
    const j = rng.pick([0, 0, 2, 5, 12, 30, 80]);
    out.push([b[0] + rng.int(-j, j), b[1] + rng.int(-j, j), b[2] + rng.int(-j, j), b[3] + rng.int(-j, j)]);
  }
  if (rng.chance(0.15)) {
    const x = rng.int(-5, WIDTH);
    const y = rng.int(-5, HEIGHT);
    out.push([x, y, x + rng.int(-3, WIDTH / 2), y + rng.int(-3, HEIGHT / 2)]);
  }
  if (rng.chance(0.05)) return out.map((b) => [b[2]!, b[3]!, b[0]!, b[1]!]);
  if (rng.chance(0.15)) return out.map((b) => b.map((v) => Math.round((v + rng.next()) * 100) / 100));
  return out;
}

function boxEntries(rng: Rng, boxes: number[][]): unknown[] {
  const out: unknown[] = boxes.map((b) => {
    const k = rng.next();
    if (k < 0.85) return b;
    if (k < 0.92) return [[b[0], b[1]], [b[2], b[3]]];
    if (k < 0.95) return [b];
    if (k < 0.97) return b.slice(0, 3);
    return b.map(String);
  });
  if (rng.chance(0.04)) out.push(null);
  return out;
}

const MISSING = Symbol("missing");

function noisyCount(rng: Rng, n: number): unknown {
  const k = rng.next();
  if (k < 0.6) return n;
  if (k < 0.75) return Math.max(0, n + rng.pick([-2, -1, 1, 2]));
  if (k < 0.8) return n + 0.6;
  if (k < 0.86) return String(n);
  if (k < 0.92) return null;
  if (k < 0.96) return MISSING;
  return rng.pick([true, -1, 0]);
}

function noisyFeasibility(rng: Rng, t: boolean): unknown {
  const k = rng.next();
  if (k < 0.55) return t;
  if (k < 0.7) return !t;
  return rng.pick<unknown>(["yes", "no", "1", 1, 0, "True", "false", "maybe", null, 1.0, MISSING]);
}

function boxPayload(rng: Rng, s: Sample, quality: Quality): Record<string, unknown> {
  const d: Record<string, unknown> = {};
  const key = COUNT_KEY[s.kind];
  if (quality === "good") {
    if (key) d[key] = s.count ?? s.boxes.length;
    d["bounding_boxes"] = s.boxes.map((b) => [...b]);
    if (s.kind === "PR") d["placement_feasibility"] = s.feasible;
    return d;
  }
  if (key) {
    const c = noisyCount(rng, s.count ?? s.boxes.length);
    if (c !== MISSING) d[key] = c;
  }
  if (rng.chance(0.97)) d["bounding_boxes"] = boxEntries(rng, jitterBoxes(rng, s));
  if (s.kind === "PR") {
    const f = noisyFeasibility(rng, s.feasible ?? false);
    if (f !== MISSING) d["placement_feasibility"] = f;
  }
  return d;
}

function pathPayload(rng: Rng, s: Sample, quality: Quality): Record<string, unknown> {
  const { start, goal } = s.path!;
  const n = quality === "good" ? rng.int(4, 8) : rng.int(2, 9);
  let pts: unknown[][] = [];
  for (let i = 0; i < n; i++) {
    const t = i / Math.max(1, n - 1);
    const noise = quality === "good" ? 0 : rng.pick([0, 4, 12, 40, 120]);
    const x = start[0] + (goal[0] - start[0]) * t + rng.float(-1, 1) * noise;
    const y = start[1] + (goal[1] - start[1]) * t + rng.float(-1, 1) * noise;
    const digits = rng.pick([0, 0, 1]);
    pts.push([Math.round(x * 10 ** digits) / 10 ** digits, Math.round(y * 10 ** digits) / 10 ** digits]);
  }
  if (quality === "noisy") {
    if (rng.chance(0.1)) pts.reverse();
    if (rng.chance(0.05)) pts.splice(1, 0, [...pts[0]!]);
    if (rng.chance(0.05)) pts.push([1, 2, 3]);
    if (rng.chance(0.03)) return { points: pts.filter((p) => p.length === 2).map((p) => ({ x: p[0], y: p[1] })) };
    if (rng.chance(0.05)) pts = pts.slice(0, 1);
  }
  return { points: pts };
}

function render(rng: Rng, d: Record<string, unknown>, quality: Quality): string {
  if (quality === "good") return rng.chance(0.7) ? J(d) : JP(d);
  const k = rng.next();
  if (k < 0.55) return J(d);
  if (k < 0.75) return JP(d);
  return pyrepr(d);
}

function wrapReadable(rng: Rng, body: string, draft: string): string {
  const k = rng.next();
  if (k < 0.3) return body;
  if (k < 0.48) return "```json\n" + body + "\n```";
  if (k < 0.53) return "```\n" + body + "\n```";
  if (k < 0.57) return "```python\n" + body + "\n```";
  if (k < 0.7) return "<think>\nreasoning about the scene " + draft + "\n</think>\n" + body;
  if (k < 0.75) return "draft " + draft + "\n</think>\n" + body;
  if (k < 0.87) return "Looking at the image, the answer is " + body + ". Let me know if more is needed.";
  if (k < 0.93) return "First attempt: " + draft + "\nCorrected final answer:\n```json\n" + body + "\n```";
  if (k < 0.96) return "```JSON\n" + body + "\n```";
  return '```json\n{"note": "see below"}\n```\n```json\n' + body + "\n```";
}

function unreadable(rng: Rng, s: Sample, d: Record<string, unknown>): string {
  const k = rng.next();
  if (k < 0.2) return "<think>\nstill thinking about " + J(d) + " and more";
  if (k < 0.38) return JP(d).slice(0, -2) + ",\n}";
  if (k < 0.54) return J(d).slice(0, -rng.int(1, 8));
  if (k < 0.62) return "";
  if (k < 0.74) return "I could not find anything that matches the description.";
  if (k < 0.84) return J({ answer: "see the image", confidence: 0.4 });
  const key = COUNT_KEY[s.kind];
  if (key) return J({ ...d, [key]: rng.pick(["two", "3.0", "several"]) });
  return "```json\n" + J(d).replace(/\]\]/, "]") + "\n```";
}

function reply(rng: Rng, s: Sample, quality: Quality): string {
  const payload = (q: Quality) => (s.kind === "FP" ? pathPayload(rng, s, q) : boxPayload(rng, s, q));
  const d = payload(quality);
  if (quality === "unreadable") return unreadable(rng, s, d);
  const draft = J(payload("noisy"));
  if (quality === "good") {
    const k = rng.next();
    const body = render(rng, d, quality);
    if (k < 0.4) return body;
    if (k < 0.7) return "```json\n" + body + "\n```";
    if (k < 0.85) return "<think>\nthe objects are easy to see\n</think>\n" + body;
    return "The answer is:\n" + body;
  }
  return wrapReadable(rng, render(rng, d, quality), draft);
}

// ------------------------------------------------------------------ the release

async function placeholderImages(dir: string): Promise<{ jpg: string; png: string }> {
  mkdirSync(dir, { recursive: true });
  const jpg = path.join(dir, "placeholder.jpg");
  const png = path.join(dir, "placeholder.png");
  const base = sharp({ create: { width: 16, height: 9, channels: 3, background: { r: 120, g: 130, b: 140 } } });
  await base.clone().jpeg().toFile(jpg);
  await base.clone().png().toFile(png);
  return { jpg, png };
}

/**
 * Write `samples` samples below `<root>/EPIC_Bench/` and their replies to `responsesFile`
 * (ms-swift JSONL: `response`, `images` relative to the root; shuffled). Same seed, same files.
 */
export async function writeRelease(root: string, responsesFile: string, options: { samples: number; seed: number }): Promise<ReleaseStats> {
  const files = await placeholderImages(path.join(path.dirname(root), "placeholders"));
  const gtRng = createRng(deriveSeed(options.seed, 1));
  const replyRng = createRng(deriveSeed(options.seed, 2));
  const canvas = new Canvas();
  const stats: ReleaseStats = {
    samples: 0, byCategory: {}, instances: 0, emptyTargets: 0, imageFiles: 0,
    replies: { good: 0, noisy: 0, unreadable: 0 }, maxTargetAreaPixels: 0,
  };
  const rows: Array<{ response: string; images: unknown[] }> = [];
  let id = 1;
  for (const [leaf, n] of planFor(options.samples)) {
    for (let i = 0; i < n; i++, id++) {
      const w = makeSample(gtRng, canvas, leaf, id, root, files);
      stats.samples++;
      stats.byCategory[leaf.category] = (stats.byCategory[leaf.category] ?? 0) + 1;
      stats.instances += w.instances;
      stats.imageFiles += w.sample.images.length;
      if (w.empty) stats.emptyTargets++;
      if (w.targetArea !== undefined) stats.maxTargetAreaPixels = Math.max(stats.maxTargetAreaPixels, w.targetArea);
      const k = replyRng.next();
      const quality: Quality = k < 0.35 ? "good" : k < 0.8 ? "noisy" : "unreadable";
      stats.replies[quality]++;
      const images: unknown[] = replyRng.chance(0.02) ? w.sample.images.map((p) => ({ path: p })) : w.sample.images;
      rows.push({ response: reply(replyRng, w.sample, quality), images });
    }
  }
  const shuffled = replyRng.shuffle(rows);
  writeFileSync(responsesFile, shuffled.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return stats;
}
