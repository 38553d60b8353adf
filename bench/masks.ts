/**
 * Mask operations at EPIC-Bench image size (1280x720): median milliseconds per call.
 *
 *   node --import tsx bench/masks.ts [--runs N]
 *
 * The masks are seeded unions of ellipses (about a fifth of the image each, two of them
 * overlapping, one far away for the region distance); nothing is read from disk.
 */
import { performance } from "node:perf_hooks";
import { labelComponents } from "../src/geometry/components.js";
import { pointToRegionDistance, regionToRegionMinDistance, squaredDistanceToMask } from "../src/geometry/distance-transform.js";
import { BitMask, iou } from "../src/geometry/mask.js";
import { decodeRle, decodeRleUnion, encodeRle, encodeRleCounts } from "../src/geometry/rle.js";
import { createRng, type Rng } from "../src/stats/rng.js";

const W = 1280;
const H = 720;
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 41;

function blobs(rng: Rng, n: number, cx: [number, number], cy: [number, number]): BitMask {
  const shapes = Array.from({ length: n }, () => ({
    x: rng.float(cx[0], cx[1]),
    y: rng.float(cy[0], cy[1]),
    rx: rng.float(40, 220),
    ry: rng.float(30, 160),
  }));
  return BitMask.fromPredicate(W, H, (x, y) => shapes.some((s) => ((x - s.x) / s.rx) ** 2 + ((y - s.y) / s.ry) ** 2 <= 1));
}

/** Median wall time in ms of `fn`, after a few warm-up calls. */
function time(fn: () => unknown): number {
  for (let i = 0; i < 3; i++) fn();
  const t: number[] = [];
  let sink = 0;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const r = fn();
    t.push(performance.now() - t0);
    if (r !== undefined && r !== null) sink++;
  }
  t.sort((a, b) => a - b);
  if (sink < 0) console.log(sink);
  return t[Math.floor(t.length / 2)]!;
}

const rng = createRng(20260801);
const a = blobs(rng, 4, [200, 900], [150, 550]);
const b = blobs(rng, 4, [300, 1000], [150, 550]);
const far = blobs(rng, 2, [1150, 1200], [620, 680]);
const aRle = encodeRle(a);
const bRle = encodeRle(b);
const aList = { size: aRle.size, counts: encodeRleCounts(a) };
const boxes = Array.from({ length: 5 }, () => {
  const x = rng.float(-50, W);
  const y = rng.float(-50, H);
  return [x, y, x + rng.float(10, 600), y + rng.float(10, 400)];
});
const target = a.clone();
const points = Array.from({ length: 16 }, () => [rng.float(0, W - 1), rng.float(0, H - 1)] as const);

const rows: [string, number, string][] = [];
const add = (name: string, fn: () => unknown, note = "") => rows.push([name, time(fn), note]);

add("decodeRle (compressed string)", () => decodeRle(aRle), `${aRle.counts.length} chars, ${a.count()} px set`);
add("decodeRle (list counts)", () => decodeRle(aList), `${aList.counts.length} runs`);
add("decodeRleUnion (2 instances)", () => decodeRleUnion([aRle, bRle]));
add("encodeRle", () => encodeRle(a));
add("union (in place)", () => target.union(b));
add("iou", () => iou(a, b), `iou = ${iou(a, b).toFixed(4)}`);
add("fromBoxes (5 boxes)", () => BitMask.fromBoxes(boxes, W, H));
add("count", () => a.count());
add("squaredDistanceToMask (EDT)", () => squaredDistanceToMask(a));
add("regionToRegionMinDistance", () => regionToRegionMinDistance(a, far), `d = ${regionToRegionMinDistance(a, far).toFixed(3)}`);
const smallA = BitMask.fromBoxes([[600, 300, 660, 340]], W, H);
const smallB = BitMask.fromBoxes([[700, 420, 760, 470]], W, H);
add("regionToRegionMinDistance (small)", () => regionToRegionMinDistance(smallA, smallB), "two 60-px-wide boxes: the EDT runs on their bounding box");
add("pointToRegionDistance x16", () => points.reduce((s, [x, y]) => s + pointToRegionDistance(far, x, y), 0));
add("labelComponents (4-conn)", () => labelComponents(a), `${labelComponents(a).count} components`);

console.log(`mask operations at ${W}x${H}, median of ${RUNS} runs (node ${process.version})`);
const nameWidth = Math.max(...rows.map((r) => r[0].length));
for (const [name, ms, note] of rows) console.log(`${name.padEnd(nameWidth)}  ${ms.toFixed(3).padStart(8)} ms  ${note}`);
