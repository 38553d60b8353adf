/**
 * PathEval picture rendering time.
 *
 *   node --import tsx bench/patheval-render.ts [--runs 20] [--polygons 150]
 *
 * Builds a seeded map of random axis-aligned rectangles (default 150, placed without overlap
 * where possible, kept off the start and goal) and a 24-corner path from start to goal, then
 * renders it `runs` times with renderMap3D (1280x720) and renderMap2D (480x480), PNG bytes
 * included, after 3 warm-up renders each. Also times a ~200-polygon map for the 3D target.
 * Prints medians (and min/max) and the ratio of the 3D median to the 150 ms target.
 *
 * A missed target is printed as "TARGET MISSED" and does not fail the script; renders that do
 * not give identical bytes every time exit non-zero.
 */
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import { renderMap2D } from "../src/media/render2d.js";
import { renderMap3D } from "../src/media/render3d.js";
import { PATHEVAL_GOAL, PATHEVAL_START, type PathEvalScene, type Point2 } from "../src/media/scene2d.js";
import { createRng } from "../src/stats/rng.js";
import { table } from "./lib/common.js";

const TARGET_3D_MS = 150;
const WARMUP = 3;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer`);
  return v;
}

function randomMap(polygons: number, seed: number): PathEvalScene {
  const rng = createRng(seed);
  const rects: Array<[number, number, number, number]> = [];
  const clearOf = (x0: number, y0: number, x1: number, y1: number) =>
    rects.every(([a0, b0, a1, b1]) => x1 + 0.5 < a0 || a1 + 0.5 < x0 || y1 + 0.5 < b0 || b1 + 0.5 < y0);
  const nearMarker = (x0: number, y0: number, x1: number, y1: number) =>
    [PATHEVAL_START, PATHEVAL_GOAL].some(([px, py]) => px > x0 - 3 && px < x1 + 3 && py > y0 - 3 && py < y1 + 3);
  for (let tries = 0; rects.length < polygons && tries < polygons * 200; tries++) {
    const w = rng.float(0.5, 8), h = rng.float(0.5, 8);
    const x0 = rng.float(-39.5, 39.5 - w), y0 = rng.float(-39.5, 39.5 - h);
    const r: [number, number, number, number] = [x0, y0, x0 + w, y0 + h];
    if (nearMarker(...r)) continue;
    if (clearOf(...r) || tries > polygons * 100) rects.push(r);
  }
  const path: Point2[] = [PATHEVAL_START];
  for (let k = 1; k < 24; k++) {
    const t = k / 24;
    path.push([PATHEVAL_START[0] + (PATHEVAL_GOAL[0] - PATHEVAL_START[0]) * t + rng.float(-8, 8), PATHEVAL_START[1] + (PATHEVAL_GOAL[1] - PATHEVAL_START[1]) * t + rng.float(-8, 8)]);
  }
  path.push(PATHEVAL_GOAL);
  return { polygons: rects.map(([x0, y0, x1, y1]) => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), path };
}

async function timeRenders(runs: number, render: () => Promise<Buffer>): Promise<{ ms: number[]; hashes: Set<string> }> {
  const hashes = new Set<string>();
  for (let i = 0; i < WARMUP; i++) hashes.add(createHash("sha256").update(await render()).digest("hex"));
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const png = await render();
    ms.push(performance.now() - t0);
    hashes.add(createHash("sha256").update(png).digest("hex"));
  }
  return { ms, hashes };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main(): Promise<void> {
  const runs = arg("runs", 20);
  const nPoly = arg("polygons", 150);
  const cases = [
    { name: `renderMap3D 1280x720, ${nPoly} polygons`, scene: randomMap(nPoly, 1), kind: "3d" as const },
    { name: `renderMap3D 1280x720, 200 polygons`, scene: randomMap(200, 2), kind: "3d" as const },
    { name: `renderMap2D 480x480, ${nPoly} polygons`, scene: randomMap(nPoly, 1), kind: "2d" as const },
  ];
  const rows: string[][] = [];
  let broken = false;
  let headline = 0;
  for (const c of cases) {
    const { ms, hashes } = await timeRenders(runs, () => (c.kind === "3d" ? renderMap3D(c.scene) : renderMap2D(c.scene)));
    if (hashes.size !== 1) broken = true;
    const med = median(ms);
    if (c === cases[0]) headline = med;
    rows.push([
      c.name,
      String(c.scene.polygons.length),
      med.toFixed(1),
      Math.min(...ms).toFixed(1),
      Math.max(...ms).toFixed(1),
      c.kind === "3d" ? (med / TARGET_3D_MS).toFixed(3) : "-",
      hashes.size === 1 ? "yes" : `NO (${hashes.size})`,
    ]);
  }
  console.log(`PathEval rendering, ${runs} timed renders per case after ${WARMUP} warm-up, node ${process.version}, PNG encoding included`);
  console.log(table(["case", "polygons", "median ms", "min ms", "max ms", "median/150ms", "same bytes"], rows));
  const ratio = headline / TARGET_3D_MS;
  console.log(`3D median ${headline.toFixed(1)} ms vs target ${TARGET_3D_MS} ms: ratio ${ratio.toFixed(3)} ${ratio <= 1 ? "(target met)" : "TARGET MISSED"}`);
  if (broken) {
    console.error("renders of the same input gave different bytes");
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
