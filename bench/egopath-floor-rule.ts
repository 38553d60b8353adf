/**
 * How far a rule that only looks at colour gets on Point Traversability (a1) of a generated
 * EgoPathBench set: a marker counts as walkable when the pixels in a ring just outside it have
 * the colour of the floor in front of the robot (the strip at the bottom centre of the image).
 * The colour tolerance is tuned on the set itself (the best of a sweep), so the figure is the
 * rule's best case. Prints the balanced accuracy (BA, pooled over candidates as the official
 * evaluator pools them) and the chance level 0.5.
 *
 *   node --import tsx bench/egopath-floor-rule.ts [DATA_DIR]
 *
 * Without DATA_DIR it generates a set (EGOPATH_BENCH_SCENES houses, default 4) into a temporary folder.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { generateEgoPathRelease } from "../src/benchmarks/egopath/construct/index.js";

interface Marker { id: number; x: number; y: number }
interface Sample { colour: [number, number, number]; walkable: boolean }

async function rgbOf(file: string): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Mean colour of the pixels between radii r0 and r1 around (x, y). */
function ringMean(img: { data: Buffer; width: number; height: number }, x: number, y: number, r0: number, r1: number): [number, number, number] {
  const sum = [0, 0, 0];
  let n = 0;
  for (let j = Math.floor(y - r1); j <= Math.ceil(y + r1); j++) {
    for (let i = Math.floor(x - r1); i <= Math.ceil(x + r1); i++) {
      if (i < 0 || j < 0 || i >= img.width || j >= img.height) continue;
      const d = Math.hypot(i + 0.5 - x, j + 0.5 - y);
      if (d < r0 || d > r1) continue;
      for (let c = 0; c < 3; c++) sum[c]! += img.data[(j * img.width + i) * 3 + c]!;
      n++;
    }
  }
  return n ? [sum[0]! / n, sum[1]! / n, sum[2]! / n] : [0, 0, 0];
}

async function samples(root: string): Promise<Sample[]> {
  const rows = readFileSync(path.join(root, "benchmark_evalfix/benchmark/vqa/vqa_next_a1.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const out: Sample[] = [];
  for (const row of rows) {
    const img = await rgbOf(path.join(root, row.image_path));
    const s = img.width / 1024;
    const waypoints = JSON.parse(readFileSync(path.join(root, row.visible_waypoints_path), "utf8")).visible_waypoints as Array<{ display_id: number; image_xy: [number, number] }>;
    const markers: Marker[] = waypoints.map((w) => ({ id: w.display_id, x: w.image_xy[0], y: w.image_xy[1] }));
    // The floor in front of the robot: the bottom-centre strip of the image.
    const floor = ringMean(img, img.width / 2, img.height - 20 * s, 0, 18 * s);
    const walkable = new Set<number>(row.ground_truth.walkable_ids);
    for (const m of markers) {
      const c = ringMean(img, m.x, m.y, 13 * s, 20 * s);
      out.push({ colour: [c[0] - floor[0], c[1] - floor[1], c[2] - floor[2]], walkable: walkable.has(m.id) });
    }
  }
  return out;
}

function balancedAccuracy(ss: readonly Sample[], tolerance: number): number {
  let tp = 0, fp = 0, tn = 0, fn = 0;
  for (const s of ss) {
    const says = Math.hypot(...s.colour) <= tolerance;
    if (says && s.walkable) tp++;
    else if (says) fp++;
    else if (s.walkable) fn++;
    else tn++;
  }
  return (tp / Math.max(tp + fn, 1) + tn / Math.max(tn + fp, 1)) / 2;
}

const given = process.argv[2];
const root = given ?? mkdtempSync(path.join(os.tmpdir(), "egopath-floor-"));
try {
  if (!given) {
    const scenes = Number(process.env["EGOPATH_BENCH_SCENES"] ?? 4);
    await generateEgoPathRelease({ outDir: root, seed: 11, scenes, splits: { train: 0, val: 0, benchmark: 1 } });
  }
  const ss = await samples(root);
  let best = { tolerance: 0, ba: 0 };
  for (let t = 2; t <= 200; t += 2) {
    const ba = balancedAccuracy(ss, t);
    if (ba > best.ba) best = { tolerance: t, ba };
  }
  const positives = ss.filter((s) => s.walkable).length;
  console.log(`a1 candidates: ${ss.length} (${positives} walkable, ${ss.length - positives} not)`);
  console.log(`floor-colour rule, best tolerance ${best.tolerance} (RGB distance): BA ${(100 * best.ba).toFixed(1)} (chance 50.0; paper's best VLM 77.9)`);
} finally {
  if (!given) rmSync(root, { recursive: true, force: true });
}
