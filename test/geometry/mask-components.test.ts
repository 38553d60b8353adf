import assert from "node:assert/strict";
import { test } from "node:test";
import { componentCentroid, componentMask, labelComponents, type Connectivity } from "../../src/geometry/components.js";
import { BitMask } from "../../src/geometry/mask.js";
import { createRng, type Rng } from "../../src/stats/rng.js";

function draw(...rows: string[]): BitMask {
  return BitMask.fromPredicate(rows[0]!.length, rows.length, (x, y) => rows[y]![x] === "#");
}

function randomMask(rng: Rng): BitMask {
  const w = rng.int(1, 90);
  const h = rng.int(1, 40);
  const p = rng.pick([0, 0.05, 0.3, 0.45, 0.55, 0.7, 1]);
  return BitMask.fromPredicate(w, h, () => rng.next() < p);
}

/**
 * Reference labelling: scan pixels in raster order; each unlabelled set pixel starts a new label,
 * spread by an explicit-stack flood fill. This numbers components by the raster order of their
 * first pixel, as scipy.ndimage.label does.
 */
function floodLabels(mask: BitMask, connectivity: Connectivity): { labels: Int32Array; count: number } {
  const { width: w, height: h } = mask;
  const px = mask.toUint8();
  const labels = new Int32Array(w * h);
  const steps = connectivity === 4 ? [[1, 0], [-1, 0], [0, 1], [0, -1]] : [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]];
  let count = 0;
  for (let i = 0; i < w * h; i++) {
    if (!px[i] || labels[i]) continue;
    count++;
    labels[i] = count;
    const stack = [i];
    while (stack.length > 0) {
      const j = stack.pop()!;
      const x = j % w;
      const y = (j - x) / w;
      for (const [dx, dy] of steps) {
        const nx = x + dx!;
        const ny = y + dy!;
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        const k = ny * w + nx;
        if (px[k] && !labels[k]) {
          labels[k] = count;
          stack.push(k);
        }
      }
    }
  }
  return { labels, count };
}

test("4- and 8-connectivity on a hand-drawn mask", () => {
  const m = draw(
    "#.#..",
    ".#...",
    "....#",
    "##.##",
  );
  const four = labelComponents(m);
  assert.equal(four.count, 5);
  // (4, 2) starts component 4 before (0, 3) starts component 5; (3, 3) joins component 4.
  assert.deepEqual(Array.from(four.labels), [
    1, 0, 2, 0, 0,
    0, 3, 0, 0, 0,
    0, 0, 0, 0, 4,
    5, 5, 0, 4, 4,
  ]);
  const eight = labelComponents(m, 8);
  assert.equal(eight.count, 3);
  assert.deepEqual(eight.components.map((c) => [c.label, c.pixelCount, c.box]), [
    [1, 3, [0, 0, 3, 2]],
    [2, 3, [3, 2, 5, 4]],
    [3, 2, [0, 3, 2, 4]],
  ]);
});

test("labels follow the raster order of each component's first pixel (scipy.ndimage.label)", () => {
  // The right-hand component starts on row 0; the lone pixel at (0, 1) comes second even though
  // the right-hand component's pixels on row 1 are met after it.
  const m = draw("..#.#", "#.###");
  const l = labelComponents(m);
  assert.equal(l.count, 2);
  assert.deepEqual(Array.from(l.labels), [0, 0, 1, 0, 1, 2, 0, 1, 1, 1]);
  assert.deepEqual(l.components[0], { label: 1, pixelCount: 5, box: [2, 0, 5, 2], sumX: 2 + 4 + 2 + 3 + 4, sumY: 3 });
  assert.deepEqual(componentCentroid(l.components[0]!), { x: 15 / 5, y: 3 / 5 });
  // A U shape is one component, joined only on its last row.
  const u = labelComponents(draw("#.#", "#.#", "###"));
  assert.equal(u.count, 1);
  assert.equal(u.components[0]!.pixelCount, 7);
});

test("componentMask picks labels", () => {
  const m = draw("#.#", "...", "#.#");
  const l = labelComponents(m);
  assert.equal(l.count, 4);
  assert.deepEqual(Array.from(componentMask(l, 2).toUint8()), [0, 0, 1, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(Array.from(componentMask(l, [1, 4, 99]).toUint8()), [1, 0, 0, 0, 0, 0, 0, 0, 1]);
  assert.ok(componentMask(l, [1, 2, 3, 4]).equals(m));
});

test("empty and full masks", () => {
  assert.equal(labelComponents(new BitMask(7, 3)).count, 0);
  assert.equal(labelComponents(new BitMask(0, 0)).count, 0);
  const full = labelComponents(new BitMask(70, 5).fillBox(0, 0, 70, 5));
  assert.equal(full.count, 1);
  assert.deepEqual(full.components[0], { label: 1, pixelCount: 350, box: [0, 0, 70, 5], sumX: 5 * ((69 * 70) / 2), sumY: 70 * 10 });
});

test("random masks: labels, counts, boxes and sums equal a flood-fill reference", () => {
  const rng = createRng(77);
  for (let t = 0; t < 300; t++) {
    const m = randomMask(rng);
    for (const conn of [4, 8] as const) {
      const got = labelComponents(m, conn);
      const ref = floodLabels(m, conn);
      assert.equal(got.count, ref.count);
      assert.deepEqual(got.labels, ref.labels);
      const w = m.width;
      for (const c of got.components) {
        let n = 0;
        let sx = 0;
        let sy = 0;
        let x1 = Infinity;
        let y1 = Infinity;
        let x2 = -1;
        let y2 = -1;
        ref.labels.forEach((v, i) => {
          if (v !== c.label) return;
          const x = i % w;
          const y = (i - x) / w;
          n++;
          sx += x;
          sy += y;
          x1 = Math.min(x1, x);
          y1 = Math.min(y1, y);
          x2 = Math.max(x2, x + 1);
          y2 = Math.max(y2, y + 1);
        });
        assert.deepEqual([c.pixelCount, c.sumX, c.sumY, c.box], [n, sx, sy, [x1, y1, x2, y2]]);
      }
    }
  }
});
