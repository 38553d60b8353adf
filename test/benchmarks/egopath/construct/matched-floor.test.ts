import assert from "node:assert/strict";
import test from "node:test";
import { balanceKinds, cueDistance, floorKind, matchTriples, surroundings } from "../../../../src/benchmarks/egopath/construct/matched-floor.js";
import type { Candidate } from "../../../../src/benchmarks/egopath/construct/types.js";
import { createRng } from "../../../../src/stats/rng.js";

function floor(key: number, kind: 0 | 1 | 2, x: number, y: number): Candidate {
  return {
    key, source: "floor_grid", world: [0, 0, 0], image: [x, y], depth: 1,
    pointWalkable: kind > 0, embodiedFeasible: kind === 2,
    onObjectPixel: false, onStructuralPixel: false, occluded: false, pointClearanceM: 0, embodiedClearanceM: 0,
  };
}

/** Surroundings: grey level v, no texture, place (x, y) of a 1024 px picture. */
const look = (v: number, x: number, y: number) => [v, v, v, v, 0, x / 1024, y / 1024];

test("kinds: occupied, point only, both agents", () => {
  assert.deepEqual([floorKind(floor(0, 0, 0, 0)), floorKind(floor(1, 1, 0, 0)), floorKind(floor(2, 2, 0, 0))], [0, 1, 2]);
});

test("cue distance: root mean square of the differences in their units (0.04 colour, 0.015 texture, 0.05 place)", () => {
  // Grey 0.04 apart in r, g, b and brightness: four units of 1 over seven dimensions.
  assert.ok(Math.abs(cueDistance(look(0.5, 0, 0), look(0.54, 0, 0)) - Math.sqrt(4 / 7)) < 1e-12);
  // 51.2 px apart horizontally: one unit.
  assert.ok(Math.abs(cueDistance(look(0.5, 0, 0), look(0.5, 51.2, 0)) - Math.sqrt(1 / 7)) < 1e-12);
});

test("each occupied point takes the nearest-looking partner of each other kind within the caliper and the reach", () => {
  const a = floor(1, 0, 500, 500);
  const bNear = floor(2, 1, 520, 500), bFar = floor(3, 1, 540, 500);
  const cNear = floor(4, 2, 500, 530), cTooDifferent = floor(5, 2, 480, 500);
  const cues = new Map([
    [1, look(0.5, 500, 500)],
    [2, look(0.51, 520, 500)],
    [3, look(0.53, 540, 500)],
    [4, look(0.5, 500, 530)],
    // 0.2 brighter: five units in four dimensions, beyond the caliper.
    [5, look(0.7, 480, 500)],
  ]);
  const m = matchTriples([a, bNear, bFar, cNear, cTooDifferent], cues, createRng(1), 16);
  assert.deepEqual(m.candidates.map((c) => c.key), [1, 2, 4]);
  assert.deepEqual(m.offered, [1, 2, 2]);
  assert.equal(m.triples, 1);
  // Without a both-agents partner no triple is kept.
  assert.equal(matchTriples([a, bNear, cTooDifferent], cues, createRng(1), 16).triples, 0);
  // Partners closer than the spacing to a kept marker are not taken; beyond 8 spacings (128 px) neither.
  assert.equal(matchTriples([a, floor(2, 1, 510, 500), cNear], cues, createRng(1), 16).triples, 0);
  // 120 px below: within the reach, and 2.34 place units (0.89 over seven dimensions) within the caliper.
  const farAway = new Map(cues).set(4, look(0.5, 500, 620));
  assert.equal(matchTriples([a, bNear, floor(4, 2, 500, 620)], farAway, createRng(1), 16).triples, 1);
  const tooFar = new Map(cues).set(4, look(0.5, 500, 640));
  assert.equal(matchTriples([a, bNear, floor(4, 2, 500, 640)], tooFar, createRng(1), 16).triples, 0);
});

test("surroundings: the ring 13 to 17 px from the marker at 1024 px, and its place", () => {
  const w = 1024, h = 1024;
  const rgb = new Uint8Array(w * h * 3);
  // Left half black, right half white: a ring centred on the edge is half white (brightness 0.5, texture 0.5).
  for (let y = 0; y < h; y++) for (let x = 512; x < w; x++) rgb.fill(255, (y * w + x) * 3, (y * w + x) * 3 + 3);
  const [r, , , v, tex, px, py] = surroundings(rgb, w, h, 512, 300);
  assert.equal(r, 0.5);
  assert.equal(v, 0.5);
  assert.equal(tex, 0.5);
  assert.deepEqual([px, py], [0.5, 300 / 1024]);
});

test("balancing kinds after the layout: the most isolated marker of an outnumbering kind goes first", () => {
  const pts = [floor(1, 0, 0, 0), floor(2, 0, 20, 0), floor(3, 1, 0, 20), floor(4, 2, 20, 20), floor(5, 2, 200, 200)];
  // Kinds 2/1/2: kind 0 loses one of its two (both 20 px from a neighbour: the first found), then
  // kind 2 loses the lone marker at (200, 200).
  assert.deepEqual(balanceKinds(pts).map((c) => c.key), [2, 3, 4]);
  assert.deepEqual(balanceKinds(pts.slice(0, 1)).map((c) => c.key), []);
});
