import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import sharp from "sharp";
import { buildDecisionMessages, DEPTH_PREVIEW_MAX_M, decisionWords, poseFields, frameOfLabel, loadNavTemplates, oracleFrame, planPrior, priorLabel } from "../../../src/benchmarks/vcn/navigate/prompt.js";
import { counterfactualTasks } from "../../../src/benchmarks/vcn/navigate/runner.js";
import { loadNavTasks } from "../../../src/benchmarks/vcn/navigate/tasks.js";
import { tourSampler } from "../../../src/benchmarks/vcn/prompt.js";
import { thinEvenly } from "../../../src/media/frames.js";
import { rotationOf, VIEW_NAMES, type EnvInfo, type Observation } from "../../../src/sim/types.js";
import type { Decision } from "../../../src/benchmarks/vcn/navigate/types.js";

const DATA = path.resolve(import.meta.dirname, "../../../examples/vcn-mini");
const { tasks } = loadNavTasks(DATA);
const task = tasks[0]!;
const templates = loadNavTemplates();
const info: EnvInfo = {
  simulator: "test", forward_step_m: 0.25, turn_step_deg: 30, max_actions: 1000, robot: { height_m: 1.41, radius_m: 0.17 },
  camera: { height_m: 1.41, hfov_deg: 90, width: 8, height: 8, pitch_deg: 0 }, views: [...VIEW_NAMES], depth: false,
};
const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 10, g: 20, b: 30 } } }).jpeg().toBuffer();
const observation = (step: number, collided = false): Observation => ({
  step, collided, pose: { position: [0, 0, 0], rotation: rotationOf(0), heading: 0 },
  views: VIEW_NAMES.map((name) => ({ name, mediaType: "image/jpeg" as const, data: jpeg, width: 8, height: 8 })),
});
const tour = await tourSampler(templates)(task.item!);
const texts = (m: ReturnType<typeof buildDecisionMessages>) => m[1]!.content.filter((p) => p.type === "text").map((p) => (p as { text: string }).text).join("\n");
const images = (m: ReturnType<typeof buildDecisionMessages>) => m[1]!.content.filter((p) => p.type === "image").length;

test("the prior video: thinned evenly to the budget with tour-index labels; shuffled: the same frames permuted, labelled by position and mapped back", () => {
  const all = task.item!.annotations.map((a) => a.index);
  const plain = planPrior(task, "none", 10, 1);
  assert.deepEqual(plain.shown, thinEvenly(all, 10).kept);
  assert.equal(plain.shown.length, 10);
  assert.equal(priorLabel(plain, 3), plain.shown[3]);
  assert.equal(frameOfLabel(plain, 57), 57);
  const shuffled = planPrior(task, "shuffled-prior", 10, 1);
  assert.deepEqual([...shuffled.shown].sort((a, b) => a - b), plain.shown);
  assert.notDeepEqual(shuffled.shown, plain.shown);
  assert.equal(priorLabel(shuffled, 3), 3);
  assert.equal(frameOfLabel(shuffled, 3), shuffled.shown[3]);
  assert.equal(frameOfLabel(shuffled, 10), null);
  assert.deepEqual(planPrior(task, "no-prior", 10, 1).shown, []);
});

test("a decision's messages: prior frames, initial views, the history window's front views, current views, the contract of the mode", () => {
  const prior = planPrior(task, "none", 10, 1);
  const history: Array<{ decision: Decision; observation: Observation }> = [
    { decision: { index: 0, at_step: 0, kind: "action", action: "FORWARD" }, observation: observation(0) },
    { decision: { index: 1, at_step: 1, kind: "action", action: "TURN_LEFT" }, observation: observation(1) },
  ];
  const m = buildDecisionMessages({ task, instruction: task.instruction, mode: "action", intervention: "none", prior, tour, info, initial: observation(0), current: observation(2, true), history }, templates);
  assert.equal(images(m), 10 + 4 + 2 + 4);
  const t = texts(m);
  assert.match(t, /Below are 10 frames of that walk/);
  assert.match(t, new RegExp(`Only 10 of the ${task.item!.annotations.length} frames`));
  assert.match(t, /After 0 actions you chose: FORWARD\./);
  assert.match(t, /After 1 actions you chose: TURN_LEFT\./);
  assert.match(t, /Your four views now, after 2 of at most 1000 actions:\nYour last move was blocked by an obstacle\./);
  assert.ok(t.includes(`Instruction: ${task.instruction}`));
  assert.match(t, /"action": "FORWARD" \| "TURN_LEFT" \| "TURN_RIGHT" \| "STOP"/);
  const w = buildDecisionMessages({ task, instruction: task.instruction, mode: "waypoint", intervention: "none", prior, tour, info, initial: observation(0), current: observation(0), history: [] }, templates);
  assert.match(texts(w), /\(8 x 8 pixels, x from the left edge/);
  assert.equal(images(w), 10 + 8);
  assert.equal(decisionWords({ index: 0, at_step: 0, kind: "goto", goto: { targets: [[0, 0, 0]], radius_m: 0.25, then: "stop", why: "" } }), "walk to a chosen point and stop");
});

test("interventions: no prior video at all; the oracle frame shown again with its number; counterfactual instructions with the goals unchanged", () => {
  const none = buildDecisionMessages({ task, instruction: task.instruction, mode: "action", intervention: "no-prior", prior: planPrior(task, "no-prior", 10, 1), tour: null, info, initial: observation(0), current: observation(0), history: [] }, templates);
  assert.equal(images(none), 8);
  assert.match(texts(none), /You have no memory of this house/);
  const k = oracleFrame(task)!;
  assert.ok(task.successFrames.includes(k));
  assert.equal(k, task.successFrames[Math.floor((task.successFrames.length - 1) / 2)]);
  const oracle = buildDecisionMessages({ task, instruction: task.instruction, mode: "action", intervention: "oracle-frame", prior: planPrior(task, "oracle-frame", 10, 1), tour, info, initial: observation(0), current: observation(0), history: [] }, templates);
  assert.equal(images(oracle), 10 + 1 + 8);
  assert.ok(texts(oracle).includes(`The destination is the place shown in frame ${k}:`));
  const { tasks: cf, skipped } = counterfactualTasks(tasks);
  assert.equal(cf.length + skipped.length, tasks.length);
  assert.ok(cf.length > 0);
  for (const t of cf) {
    const original = tasks.find((o) => o.id === t.id)!;
    assert.notEqual(t.instruction, original.instruction);
    assert.deepEqual(t.episode.goals, original.episode.goals);
  }
});

test("the observation of §3.1: the pose as seen from the start and a depth picture per current view, after the views", () => {
  const prior = planPrior(task, "none", 10, 1);
  const at = (step: number, position: [number, number, number], heading: number): Observation => ({ ...observation(step), pose: { position, rotation: rotationOf(heading), heading } });
  // From [2, 0, 5] facing -z: one step to -z (ahead), 0.5 m to -x (left), turned 60 degrees left, then 90 right.
  const start = at(0, [2, 0, 5], 0);
  assert.deepEqual(poseFields(start, at(3, [1.5, 0, 4.75], Math.PI / 3)), { forward: "0.25", left: "0.50", turn: "60" });
  assert.deepEqual(poseFields(start, at(6, [2.25, 0, 5.5], -Math.PI / 6)), { forward: "-0.50", left: "-0.25", turn: "-30" });
  assert.deepEqual(poseFields(start, start), { forward: "0.00", left: "0.00", turn: "0" });
  const depth = new Map(VIEW_NAMES.map((name) => [name, jpeg] as const));
  const current = at(3, [1.5, 0, 4.75], Math.PI / 3);
  const input = { task, instruction: task.instruction, mode: "action" as const, intervention: "none" as const, prior, tour, info, initial: start, current, history: [] };
  const m = buildDecisionMessages({ ...input, pose: true, depth }, templates);
  assert.equal(images(m), 10 + 4 + 4 + 4);
  const t = texts(m);
  assert.ok(t.includes("Your position: 0.25 m ahead of and 0.50 m to the left of where you started (negative numbers: behind, to the right); you have turned 60 degrees to the left since then"));
  assert.ok(t.includes(`black is 0 m away, white is ${DEPTH_PREVIEW_MAX_M} m or more`));
  // Order: the four current views, then their four depth pictures, then the pose and the question.
  const labels = m[1]!.content.flatMap((p) => (p.type === "text" && /^(Front|Left|Back|Right) (view|depth):$/.test(p.text) ? [p.text] : []));
  assert.deepEqual(labels.slice(-8), ["Front view:", "Left view:", "Back view:", "Right view:", "Front depth:", "Left depth:", "Back depth:", "Right depth:"]);
  assert.ok(t.indexOf("Right depth:") < t.indexOf("Your position:") && t.indexOf("Your position:") < t.indexOf("Instruction:"));
  // RGB only: neither.
  const rgb = buildDecisionMessages(input, templates);
  assert.equal(images(rgb), 10 + 8);
  assert.ok(!texts(rgb).includes("Your position") && !texts(rgb).includes("depth"));
  assert.throws(() => buildDecisionMessages({ ...input, depth: new Map([["front", jpeg]]) }, templates), /the depth of the left view is missing/);
});
