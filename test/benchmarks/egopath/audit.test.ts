import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { summaryOfReplies } from "../../helpers/audit.js";
import sharp from "sharp";
import type { AuditUnit, BlindRule } from "../../../src/audit/types.js";
import { labelCoverage } from "../../../src/benchmarks/egopath/audit-marks.js";
import { egopathAudit as audit, idsReply } from "../../../src/benchmarks/egopath/audit.js";
import { egopath } from "../../../src/benchmarks/egopath/index.js";
import type { EgoPathItem, RouteItem, SetItem } from "../../../src/benchmarks/egopath/types.js";
import { createRng } from "../../../src/stats/rng.js";

const MINI = path.resolve("examples/egopath-mini");
const scratch = mkdtempSync(path.join(tmpdir(), "egopath-audit-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

const ids = (n: number) => Array.from({ length: n }, (_, k) => BigInt(k + 1));
const base = (id: string, task: EgoPathItem["task"]) => ({
  id, rawId: id, task, sceneId: `s${id}`, cluster: `s${id}`, viewId: "0", imagePath: "", imageRef: "",
  systemPrompt: "You help a robot.", userPrompt: "Reply with a JSON array of point numbers.", waypoints: [], groundTruth: {},
  source: { file: "f", line: 1 },
});

function setItem(id: string, n: number, positives: bigint[]): SetItem {
  return { ...base(id, "a1"), kind: "set", candidates: ids(n), positives };
}

/** A route question where every one-hop step from the start is legal (1 m) and `goals` are acceptable. */
function routeItem(id: string, n: number, goals: bigint[]): RouteItem {
  const adjacency = new Map([[1n, new Map(ids(n).slice(1).map((to) => [to, 1]))]]);
  return {
    ...base(id, "a2"), kind: "route", displayed: ids(n), startId: 1n, acceptableGoals: goals, optimalLengthM: 1,
    adjacency, graph: "direct_pairs", referenceRoute: [1n, goals[0]!],
  };
}

/** Scores one reply per item with the benchmark's own readReply, scoreItem and summarize, and reads the headline. */
function headlineOf(items: EgoPathItem[], replies: Map<string, string>, task: string) {
  return audit.headline(summaryOfReplies(egopath, items, new Map(items.map((i) => [i.id, replies.get(i.id) ?? ""])), [], [task]), task);
}

/** Fits a rule on the first half of the units and answers the second half; returns the second half's headline. */
async function heldOut(rule: BlindRule, items: EgoPathItem[], edit?: (units: AuditUnit[]) => void) {
  const units = await audit.units(items, { root: scratch, cues: false });
  edit?.(units);
  const half = units.length / 2;
  const answer = rule.fit(units.slice(0, half));
  const replies = new Map(units.slice(half).map((u) => [u.id, answer(u)]));
  return headlineOf(items.slice(half), replies, items[0]!.task);
}

const candidatesOf = (unit: AuditUnit) => (unit.answer.kind === "number" ? [] : unit.answer.candidates);
const rule = (name: string) => audit.rules.find((r) => r.name === name)!;

/** Planted cues: a walkable marker stands 60 px from the others, a blocked one 10 px; colour says the opposite half the time. */
function plantCues(units: AuditUnit[], rng = createRng(5), planted = true) {
  for (const unit of units) {
    for (const c of candidatesOf(unit)) {
      const walkable = planted ? c.label === 1 : rng.next() < 0.5;
      c.cues = { nearest_px: walkable ? 60 : 10, within_32: walkable ? 0 : 3, within_64: 2, y: rng.next(), x: rng.next(), ring_r: rng.next(), ring_g: 0.5, ring_b: 0.5, ring_brightness: 0.5, ring_texture: 0.1, ring_vs_picture: rng.next() };
    }
  }
}

test("planted shortcuts: the depth-rank prior, the typical goal rank and the isolation cue answer them, scored by the benchmark's own scorer", async () => {
  // a1: the far half of the markers (ids 11-20, numbered nearest first) is always the walkable set.
  const sets = Array.from({ length: 40 }, (_, k) => setItem(`a${k}`, 20, ids(20).slice(10)));
  assert.deepEqual(await heldOut(rule("walkable by depth rank"), sets), { metric: "BA", score: 1, ci: null });
  // The same walkable sets, readable from marker isolation alone.
  const rng = createRng(3);
  const randomSets = Array.from({ length: 40 }, (_, k) => setItem(`c${k}`, 20, ids(20).filter(() => rng.next() < 0.5)));
  assert.equal((await heldOut(rule("isolated markers"), randomSets, (u) => plantCues(u))).score, 1);
  // The combined rule also weighs the noise cues (colour, height): near 1.
  assert.ok((await heldOut(rule("isolation + floor colour"), randomSets, (u) => plantCues(u))).score! >= 0.99);
  // a2: the goal is always the last (farthest) marker, one legal step from the start.
  const routes = Array.from({ length: 40 }, (_, k) => routeItem(`r${k}`, 12, [12n]));
  assert.deepEqual(await heldOut(rule("one-hop to the typical goal rank"), routes), { metric: "SR", score: 1, ci: null });
});

test("answers redrawn at random: every EgoPath rule stays near chance", async () => {
  const rng = createRng(11);
  // 80 questions of 30 markers, each walkable with probability 1/2: the held-out half has 1,200
  // markers, so BA's standard deviation is about 0.02; the bound is 0.07.
  const sets = Array.from({ length: 80 }, (_, k) => setItem(`a${k}`, 30, ids(30).filter(() => rng.next() < 0.5)));
  const setRules = audit.rules.filter((r) => r.tasks?.includes("a1"));
  assert.equal(setRules.length, 6);
  for (const r of setRules) {
    const { score } = await heldOut(r, sets, (u) => plantCues(u, createRng(8), false));
    assert.ok(Math.abs(score! - 0.5) <= 0.07, `${r.name}: BA ${score}`);
  }
  // 80 routes over 12 markers, the goal drawn among 2-12: chance SR 1/11; 40 held out (sd 0.045), bound 0.15.
  const routes = Array.from({ length: 80 }, (_, k) => routeItem(`r${k}`, 12, [BigInt(2 + rng.below(11))]));
  assert.ok(Math.abs(audit.chance(routes, "a2")! - 1 / 11) < 1e-12);
  const routeRules = audit.rules.filter((r) => r.tasks?.includes("a2"));
  assert.equal(routeRules.length, 4);
  for (const r of routeRules) {
    const { score } = await heldOut(r, routes, (units) => {
      const cues = createRng(9);
      for (const c of units.flatMap(candidatesOf)) {
        c.cues = { x: cues.next(), y: cues.next(), nearest_px: 40 * cues.next(), within_32: cues.below(3), from_start_px: 500 * cues.next(), dx_start_px: 0, dy_start_px: 0, side_x: 0, depth_y: 0, ring_brightness: cues.next(), ring_vs_picture: cues.next() };
      }
    });
    assert.ok(Math.abs(score! - 1 / 11) <= 0.15, `${r.name}: SR ${score}`);
  }
});

test("units on examples/egopath-mini: every candidate's label is what the benchmark's scorer gives its reply", async () => {
  const { items, problems } = egopath.load(MINI);
  assert.equal(problems.length, 0);
  const units = await audit.units(items, { root: MINI, cues: true });
  assert.equal(units.length, 53);
  const byId = new Map(items.map((i) => [i.id, i]));
  let candidates = 0;
  for (const unit of units) {
    const item = byId.get(unit.id)!;
    const form = unit.answer;
    assert.notEqual(form.kind, "number");
    if (form.kind === "number") continue;
    for (const c of form.candidates) {
      const detail = egopath.scoreItem(item, egopath.readReply(item, c.reply));
      if (item.kind === "route") assert.equal(audit.credit(item, detail), c.label, `${unit.id} ${c.reply}`);
      else assert.deepEqual([detail["tp"], detail["fp"]], c.label === 1 ? [1, 0] : [0, 1], `${unit.id} ${c.reply}`);
      assert.ok(c.cues && Object.keys(c.cues).length > 0);
      candidates++;
    }
    if (form.kind === "subset") {
      // The whole labelled set is the exact answer: credit 1.
      const all = form.candidates.flatMap((c, i) => (c.label === 1 ? [i] : []));
      assert.equal(audit.credit(item, egopath.scoreItem(item, egopath.readReply(item, form.reply(all)))), 1);
    }
  }
  // One candidate per marker (a1/b1) and one per marker other than the start (routes).
  assert.equal(candidates, items.reduce((n, i) => n + (i.kind === "set" ? i.candidates.length : i.displayed.length - 1), 0));
  // The isolation cue of the first a1 marker, from the waypoints file by hand: the nearest other marker, at the 1024 px scale (the example is 512 px).
  const a1 = units.find((u) => u.task === "a1")!;
  assert.equal(a1.id, "house_001_v0_a1_00");
  const file = JSON.parse(readFileSync(path.join(MINI, "assets/house_001/view_0/visible_waypoints_a1.json"), "utf8")) as { visible_waypoints: Array<{ image_xy: [number, number] }> };
  const [first, ...others] = file.visible_waypoints;
  const nearest = Math.min(...others.map((o) => Math.hypot(o.image_xy[0] - first!.image_xy[0], o.image_xy[1] - first!.image_xy[1])));
  const cue = candidatesOf(a1)[0]!.cues!;
  assert.ok(Math.abs(cue["nearest_px"]! - (nearest * 1024) / 512) < 1e-9);
  assert.equal(cue["y"], first!.image_xy[1] / 512);
});

test("label legibility: later circles and the border cover labels, measured on the overlay's geometry", async () => {
  // At 1024 px: radius 10, outline 2, font 18 px, shadow 1 px. Marker 7 at (100, 100): its label box
  // is x 112..124.52, y 74.86..89. Marker 8, drawn later, is centred on that box; its circle
  // (radius 11) reaches every corner (half-diagonal 9.8 px), so 7's label is covered whole.
  const box = { cx: 112 + (0.6958 * 18 + 1) / 2, cy: (88 - 0.73 * 18 + 89) / 2 };
  const covered = labelCoverage([{ id: 7, x: 100, y: 100 }, { id: 8, x: box.cx, y: box.cy }], 1024, 1024);
  assert.deepEqual(covered, [1, 0]);
  // A one-digit label whose box straddles the right border by half (x0 = 1024 − 13.5244 / 2).
  const half = labelCoverage([{ id: 5, x: 1024 - (0.6958 * 18 + 1) / 2 - 12, y: 500 }], 1024, 1024);
  assert.ok(Math.abs(half[0]! - 0.5) < 0.02, String(half[0]));

  // The same two markers on a real picture: one a1 question (7 walkable) and two route questions.
  const root = path.join(scratch, "legible");
  const png = await sharp({ create: { width: 1024, height: 1024, channels: 3, background: "#808080" } }).png().toBuffer();
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, "p.png"), png);
  const waypoints = [{ displayId: 7, imageXY: [100, 100] as [number, number] }, { displayId: 8, imageXY: [box.cx, box.cy] as [number, number] }];
  const onPicture = <T extends EgoPathItem>(item: T): T => ({ ...item, imageRef: "p.png", imagePath: path.join(root, "p.png"), waypoints });
  const a1 = onPicture({ ...setItem("s", 0, [7n]), candidates: [7n, 8n] });
  const goal8 = onPicture({ ...routeItem("g8", 8, [8n]) });
  const goal7 = onPicture({ ...routeItem("g7", 8, [7n]) });
  const result = await audit.legibility!([a1, goal8, goal7], { root });
  assert.deepEqual(result["a1"], { labels_covered: 0.5, questions_unreadable: 1, labels: 2, questions: 1, unreadable_ids: ["s"] });
  assert.deepEqual(result["a2"], { labels_covered: 0.5, questions_unreadable: 0.5, labels: 4, questions: 2, unreadable_ids: ["g7"] });
});

test("writeSubset: the kept questions load back unchanged, rows byte for byte", async () => {
  const { items } = egopath.load(MINI);
  const keep = new Set(items.filter((_, k) => k % 3 === 0).map((i) => i.id));
  const out = path.join(scratch, "subset");
  await audit.writeSubset(MINI, items, keep, out);
  const back = egopath.load(out);
  assert.deepEqual(back.problems, []);
  assert.deepEqual(back.items.map((i) => i.id).sort(), [...keep].sort());
  const original = new Map(items.map((i) => [i.id, i]));
  const comparable = (item: EgoPathItem, root: string) => ({ ...item, imagePath: path.relative(root, item.imagePath), source: { file: item.source.file, line: 0 } });
  for (const item of back.items) {
    assert.deepEqual(comparable(item, out), comparable(original.get(item.id)!, MINI));
    const lineOf = (root: string, i: EgoPathItem) => readFileSync(path.join(root, i.source.file), "utf8").split("\n")[i.source.line - 1];
    assert.equal(lineOf(out, item), lineOf(MINI, original.get(item.id)!));
  }
});

test("chance: 0.5 BA for traversability; the exact uniform one-hop SR for routes", () => {
  // Route 1: 5 markers, goals 3 and 4, legal one-hop steps 1->2, 1->3, 1->4: 2 of the 4 one-hop routes succeed.
  const one = { ...routeItem("q1", 5, [3n, 4n]), adjacency: new Map([[1n, new Map([[2n, 1], [3n, 1], [4n, 1]])]]) };
  // Route 2: 3 markers, goal 3 not one legal step away (1->2->3): none of the 2 succeeds.
  const two = { ...routeItem("q2", 3, [3n]), adjacency: new Map([[1n, new Map([[2n, 1]])], [2n, new Map([[3n, 1]])]]) };
  assert.equal(audit.chance([one, two], "a2"), (2 / 4 + 0 / 2) / 2);
  assert.equal(audit.chance([one, two], "point_path"), 0.25);
  assert.equal(audit.chance([setItem("s", 4, [1n])], "a1"), 0.5);
  assert.equal(audit.chance([setItem("s", 4, [])], "a1"), null);
  assert.equal(audit.chance([one], "b2"), null);
  assert.equal(idsReply([1n, 4n]), '{"display_ids":[1,4]}');
});
