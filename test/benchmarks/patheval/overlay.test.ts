import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { generatePathEval } from "../../../src/benchmarks/patheval/generate.js";
import { patheval } from "../../../src/benchmarks/patheval/index.js";
import { pathevalOverlay } from "../../../src/benchmarks/patheval/overlay.js";
import type { PathEvalItem } from "../../../src/benchmarks/patheval/types.js";
import type { ItemResult } from "../../../src/core/benchmark.js";
import { executeRun } from "../../../src/core/session.js";
import { hasFont } from "../../../src/media/draw.js";
import { decodeRgb } from "../../../src/media/png.js";
import { assertColour, countNear, decodeOverlay, writePng, type RGB } from "../../helpers/pixels.js";

/**
 * Golden pixel checks on a hand-made pair image: 640 × 320, the left half (Path 1 in the record)
 * one flat colour, the right half (Path 2) another. Frame geometry as the overlay documents it:
 * stroke w = max(2, round(longest side / 160)) = 4 px; the correct path's frame covers [0, w] from
 * the edges of its half, the chosen path's frame [2w, 3w]. Table (when a font is installed): text
 * size clamp(round(width / 48), 9, 18) = 13, rows 23 px, starting 6 px under the image, header
 * first, then the seven descriptors in the release's order; deciding rows tinted #fef3c7 across
 * the full width.
 */

const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-patheval-overlay-"));
const LEFT: RGB = [220, 220, 120];
const RIGHT: RGB = [70, 70, 110];
const GREEN: RGB = [0x1a, 0x98, 0x50];
const PURPLE: RGB = [0x7c, 0x3a, 0xed];
const TINT: RGB = [0xfe, 0xf3, 0xc7];
const WHITE: RGB = [255, 255, 255];

function pairImage(name: string, width = 640, height = 320): Promise<string> {
  return writePng(path.join(tmp, name), width, height, (x) => (x < width / 2 ? LEFT : RIGHT));
}

/**
 * Scenario 1 (large truck: sharp turns, maximum angle and smoothness, smaller is better). Sharp
 * turns differ by 2 (threshold 1): Path 1 wins; smoothness by 50 (< 90) and maximum angle by 5
 * (< 30) decide nothing. So the label is Path 1 and only "Sharp turns" decides.
 */
function pairItem(imagePath: string): PathEvalItem {
  return {
    id: "2D/hand", recordId: "hand", task: "2D", cluster: "hand", imagePath, scenarioId: 1, truth: "Path 1",
    question: "A large truck must drive through this maze. Which path better achieves the task?",
    metrics: {
      "Path 1": { "Minimum clearance": 1, "Maximum clearance": 5, "Average clearance": 2, "Path length": 200, "Smoothness": 300, "Sharp turns": 1, "Maximum angle": 95 },
      "Path 2": { "Minimum clearance": 1.2, "Maximum clearance": 5, "Average clearance": 2.3, "Path length": 210, "Smoothness": 350, "Sharp turns": 3, "Maximum angle": 100 },
    },
    source: { file: "hand.json", index: 0 },
  };
}

function pairResult(choice: "Path 1" | "Path 2" | null, truth: "Path 1" | "Path 2", prompt: Record<string, unknown>): ItemResult {
  return {
    id: "2D/hand", task: "2D", cluster: "hand", status: "scored",
    answer: choice ? { status: "ok", value: choice, stored: "Answer: ..." } : { status: "unparseable", value: null, reason: "no single path named after \"Answer\"", stored: "I cannot tell." },
    detail: { choice, truth, correct: choice === truth, choseLeft: choice === null ? null : (choice === "Path 1") !== (prompt["flipped"] === true), officialCorrect: choice === truth, deciding: ["Sharp turns"] },
    prompt,
  };
}

const PLAIN = { variant: "plain", names: ["Path 1", "Path 2"], flipped: false };
const FLIPPED = { variant: "flipped", names: ["Path 1", "Path 2"], flipped: true };

async function render(item: PathEvalItem, result: ItemResult, options = {}) {
  const overlay = await pathevalOverlay(item, result, options);
  return { overlay, image: await decodeOverlay(overlay) };
}

test("not flipped: Path 1 on the left; correct frame green on it, the choice (Path 2) purple on the right", async () => {
  const item = pairItem(await pairImage("pair.png"));
  const { overlay, image } = await render(item, pairResult("Path 2", "Path 1", PLAIN));
  assert.equal(overlay.width, 640);
  assert.equal(overlay.height, hasFont() ? 320 + 12 + 8 * 23 : 320);
  assertColour(image, 100, 160, LEFT, "left half shows Path 1's picture");
  assertColour(image, 2, 160, GREEN, "green frame, left edge of the left half");
  assertColour(image, 317, 160, GREEN, "green frame, right edge of the left half");
  assertColour(image, 160, 2, GREEN, "green frame, top edge of the left half");
  assertColour(image, 10, 160, LEFT, "no purple frame on the left half");
  assertColour(image, 330, 160, PURPLE, "purple frame, left edge of the right half");
  assertColour(image, 629, 160, PURPLE, "purple frame, right edge of the right half");
  assertColour(image, 480, 10, PURPLE, "purple frame, top edge of the right half");
  assertColour(image, 322, 160, RIGHT, "no green frame on the right half");
  assertColour(image, 500, 160, RIGHT, "right half shows Path 2's picture");
  const text = overlay.caption.join("\n");
  assert.match(text, /2D question 2D\/hand · scenario 1 \(large truck\) · prompt plain/);
  assert.match(text, /answer: Path 2 \(the right path\)/);
  assert.match(text, /truth: Path 1/);
  assert.match(text, /outcome: wrong · score 0 · official reading: wrong/);
  assert.match(text, /deciding: Sharp turns: Path 1 better \(Path 1 1, Path 2 3\)$/m);
});

test("flipped: the halves are swapped as shown; frames follow the paths, not the positions", async () => {
  const item = pairItem(await pairImage("pair-flipped.png"));
  const { overlay, image } = await render(item, pairResult("Path 2", "Path 1", FLIPPED));
  assertColour(image, 100, 160, RIGHT, "left half now shows Path 2's picture");
  assertColour(image, 500, 160, LEFT, "right half now shows Path 1's picture");
  assertColour(image, 10, 160, PURPLE, "the choice (Path 2) is framed on the left");
  assertColour(image, 2, 160, RIGHT, "no green frame on the left");
  assertColour(image, 322, 160, GREEN, "the correct path (Path 1) is framed on the right");
  assertColour(image, 637, 160, GREEN, "green frame, right edge of the right half");
  assertColour(image, 330, 160, LEFT, "no purple frame on the right");
  const text = overlay.caption.join("\n");
  assert.match(text, /prompt flipped: Path 2 shown on the left/);
  assert.match(text, /answer: Path 2 \(the left path, shown as "Path 1"\)/);
});

test("a right choice: both frames on the same half, green outside, purple inside", async () => {
  const item = pairItem(await pairImage("pair-right.png"));
  const { overlay, image } = await render(item, pairResult("Path 1", "Path 1", PLAIN));
  assertColour(image, 2, 160, GREEN, "green, outermost");
  assertColour(image, 6, 160, LEFT, "the gap between the frames");
  assertColour(image, 10, 160, PURPLE, "purple, inside");
  assert.equal(countNear(image, PURPLE, [320, 0, 640, 320]) + countNear(image, GREEN, [320, 0, 640, 320]), 0, "nothing on the right half");
  assert.match(overlay.caption.join("\n"), /outcome: correct · score 1/);
  const noReference = await render(item, pairResult("Path 1", "Path 1", PLAIN), { reference: false });
  assertColour(noReference.image, 2, 160, LEFT, "reference: false leaves the green frame out");
  assertColour(noReference.image, 10, 160, PURPLE, "the choice stays");
});

test("descriptor table: seven rows under the picture, the deciding descriptor tinted and its better value green", { skip: !hasFont() && "no font installed" }, async () => {
  const item = pairItem(await pairImage("pair-table.png"));
  const { image } = await render(item, pairResult("Path 2", "Path 1", PLAIN));
  // Rows start at 326 (header 326-348); "Sharp turns" is descriptor 6 of 7: row 6, y 464-486.
  assertColour(image, 639, 475, TINT, "Sharp turns row tinted");
  for (const [row, name] of [[1, "Minimum clearance"], [4, "Path length"], [5, "Smoothness"], [7, "Maximum angle"]] as const) {
    assertColour(image, 639, 326 + row * 23 + 11, WHITE, `${name} row not tinted`);
  }
  // The Path 1 column starts at 45 % of 640 = 288, the Path 2 column at 72 % = 461.
  assert.ok(countNear(image, GREEN, [288, 464, 461, 487], 60) > 0, "Path 1's sharp-turn count (the better one) in green");
  assert.equal(countNear(image, GREEN, [461, 464, 640, 487], 60), 0, "Path 2's value not green");
  assert.ok(countNear(image, [0x11, 0x18, 0x27], [0, 326, 288, 349], 60) > 0, "header text drawn");
});

test("scaling: maxSide shrinks the picture and the frames with it", async () => {
  // 640 × 320 at maxSide 480: 480 × 240; frame stroke round(480 / 160) = 3 (green [0, 3], purple [6, 9]).
  const item = pairItem(await pairImage("pair-scaled.png"));
  const { overlay, image } = await render(item, pairResult("Path 2", "Path 1", PLAIN), { maxSide: 480 });
  assert.equal(overlay.width, 480);
  assert.equal(overlay.height, hasFont() ? 240 + 12 + 8 * 20 : 240);
  assertColour(image, 1, 120, GREEN, "scaled green frame");
  assertColour(image, 7, 120, LEFT, "no purple on the left");
  assertColour(image, 247, 120, PURPLE, "scaled purple frame on the right half (starts at 240)");
  assertColour(image, 241, 120, RIGHT, "no green on the right");
});

test("probes: fine-grained frames the smaller path; attribute abstraction shows stances against Table 7", async () => {
  const image = await pairImage("probe.png");
  const fine: PathEvalItem = { ...pairItem(image), id: "2D/hand/Path length", probe: { kind: "fine-grained", descriptor: "Path length", smaller: "Path 1", difference: 10, level: "below" } };
  const fineResult: ItemResult = {
    id: fine.id, task: "2D", cluster: "hand", status: "scored", answer: { status: "ok", value: "Path 2", stored: "Answer: Path 2" },
    detail: { kind: "fine-grained", descriptor: "Path length", choice: "Path 2", smaller: "Path 1", correct: false, level: "below" }, prompt: PLAIN,
  };
  const f = await render(fine, fineResult);
  assertColour(f.image, 2, 160, GREEN, "the smaller path (Path 1) framed green");
  assertColour(f.image, 330, 160, PURPLE, "the choice (Path 2) framed purple");
  if (hasFont()) {
    assertColour(f.image, 639, 326 + 4 * 23 + 11, TINT, "the probed descriptor's row tinted");
    assertColour(f.image, 639, 475, WHITE, "Sharp turns not tinted in this probe");
  }
  const fineText = f.overlay.caption.join("\n");
  assert.match(fineText, /fine-grained probe \(test-set variant\) · 2D\/hand\/Path length · which path has the smaller Path length\? · below ε1/);
  assert.match(fineText, /truth: Path 1 \(Path length 200\.00 vs 210\.00\)/);
  assert.match(fineText, /outcome: wrong · score 0/);

  // Abstraction for scenario 1: every descriptor called irrelevant. Table 7 makes smoothness, sharp
  // turns and maximum angle matter (smaller), the other four irrelevant: 4 of 7 right either way.
  const abstraction: PathEvalItem = { ...pairItem(image), id: "abstraction/1", probe: { kind: "attribute-abstraction", scenarioId: 1 } };
  const zeros = { "Minimum clearance": 0, "Maximum clearance": 0, "Average clearance": 0, "Path length": 0, "Smoothness": 0, "Sharp turns": 0, "Maximum angle": 0 };
  const a = await render(abstraction, {
    id: abstraction.id, task: "2D", cluster: "scenario 1", status: "scored", answer: { status: "ok", value: zeros, stored: "all irrelevant" },
    detail: { kind: "attribute-abstraction", stances: zeros }, prompt: { ...PLAIN, probe: "attribute-abstraction" },
  });
  const text = a.overlay.caption.join("\n");
  assert.match(text, /attribute-abstraction probe · abstraction\/1 · scenario 1 \(large truck\)/);
  assert.match(text, /answer: irrelevant: Minimum clearance, .*Maximum angle/);
  assert.match(text, /truth \(Table 7\): smaller: Smoothness, Sharp turns, Maximum angle · irrelevant: Minimum clearance, Maximum clearance, Average clearance, Path length/);
  assert.match(text, /outcome: 4\/7 directions right · 4\/7 relevance right/);
  if (hasFont()) {
    assertColour(a.image, 639, 326 + 5 * 23 + 11, TINT, "a relevant descriptor's row (Smoothness) tinted");
    assertColour(a.image, 639, 326 + 4 * 23 + 11, WHITE, "an irrelevant one (Path length) not");
  }
});

test("errors, unreadable replies, random names and garbage give a picture and a caption, never a throw", async () => {
  const item = pairItem(await pairImage("robust.png"));
  const failed: ItemResult = {
    id: item.id, task: "2D", cluster: "hand", status: "error",
    response: { latency_ms: 3, attempts: 6, cached: false, error: { kind: "timeout", message: "no reply within 60000 ms" } }, prompt: PLAIN,
  };
  const errored = await render(item, failed);
  assertColour(errored.image, 2, 160, GREEN, "the reference (correct path) is still framed");
  assert.equal(countNear(errored.image, PURPLE), 0, "no choice");
  assert.match(errored.overlay.caption.join("\n"), /request failed: no reply within 60000 ms/);
  assert.match(errored.overlay.caption.join("\n"), /outcome: not scored/);

  const unreadable = await render(item, pairResult(null, "Path 1", PLAIN));
  assert.equal(countNear(unreadable.image, PURPLE), 0, "no choice framed");
  assert.match(unreadable.overlay.caption.join("\n"), /unreadable: no single path named after "Answer"/);
  assert.match(unreadable.overlay.caption.join("\n"), /outcome: wrong \(no choice\) · score 0/);

  const named = await render(item, pairResult("Path 2", "Path 1", { variant: "random-ids", names: ["ab12", "cd34"], flipped: false }));
  assert.match(named.overlay.caption.join("\n"), /answer: Path 2 \(the right path, shown as "cd34"\)/);

  const garbage: unknown[] = [
    {},
    null,
    { status: "scored", detail: { choice: 42, correct: "yes" }, prompt: { flipped: "yes", names: 5, variant: "sideways" } },
    { status: "scored", detail: "Path 1", answer: { status: "ok", value: ["Path 1"] } },
    { status: "scored", answer: { status: "ok", value: "Path 3" }, prompt: [] },
    { status: "error", response: { error: { message: 12 } } },
  ];
  const probes: PathEvalItem[] = [
    item,
    { ...item, id: "2D/hand/Smoothness", probe: { kind: "fine-grained", descriptor: "Smoothness", smaller: "Path 1", difference: 50, level: "below" } },
    { ...item, id: "abstraction/1", probe: { kind: "attribute-abstraction", scenarioId: 1 } },
  ];
  for (const target of probes) {
    for (const result of garbage) {
      const overlay = await pathevalOverlay(target, result as ItemResult, { maxSide: 200 });
      assert.ok(overlay.png.length > 0 && overlay.caption.length >= 3, `${target.id}: ${JSON.stringify(result)}`);
      assert.ok(overlay.caption.every((line) => typeof line === "string" && line.length > 0));
    }
  }
  // No detail at all: the parsed answer (record frame) stands in for the choice.
  const noDetail = await render(item, { id: item.id, task: "2D", cluster: "hand", status: "scored", answer: { status: "ok", value: "Path 2" }, prompt: PLAIN });
  assertColour(noDetail.image, 330, 160, PURPLE, "choice from the answer");

  const missing = path.join(tmp, "combined_images", "404_2D.png");
  await assert.rejects(pathevalOverlay({ ...item, imagePath: missing }, failed), (error: Error) => error instanceof Error && error.message.includes(missing));
});

test("end to end: runs of built-in models on a generated set, an overlay for every item", async () => {
  const data = path.join(tmp, "set");
  await generatePathEval({ outDir: data, seed: 5, environments: 3, runsPerEnvironment: 8, testPerScenario: 1, workers: 1 });
  const loaded = patheval.load(data);
  assert.deepEqual(loaded.problems, []);
  let rendered = 0;
  for (const [model, prompt] of [["always-first", "flipped"], ["random:2", "plain"], ["random:2", "fine-grained"], ["random:2", "attribute-abstraction"]] as const) {
    const out = path.join(tmp, `${model.replace(/\W/g, "_")}-${prompt}`);
    await executeRun({
      benchmark: "patheval", data, out, model, bootstrapResamples: 0, bootstrapSeed: 1, quiet: true,
      promptSource: prompt, control: "none", seed: 3, flags: {}, retryErrors: false,
    });
    const items = patheval.deriveItems!(loaded.items, { source: prompt, control: "none", seed: 3 });
    const byId = new Map(items.map((i) => [i.id, i]));
    const results = readFileSync(path.join(out, "items.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line) as ItemResult);
    assert.ok(results.length >= 10, `${model} ${prompt}: ${results.length} results`);
    for (const result of results.slice(0, 30)) {
      const overlay = await pathevalOverlay(byId.get(result.id)!, result, { maxSide: 512 });
      assert.ok(overlay.width <= 512);
      rendered++;
      const text = overlay.caption.join("\n");
      const detail = result.detail as Record<string, unknown>;
      if (prompt === "attribute-abstraction") {
        const right = Object.values(detail["correct"] as Record<string, boolean>).filter(Boolean).length;
        assert.ok(text.includes(`outcome: ${right}/7 directions right`), `${result.id}: ${text}`);
        continue;
      }
      assert.ok(text.includes(`outcome: ${detail["correct"] ? "correct" : "wrong"}`), `${result.id}: ${text}`);
      if (prompt === "flipped") {
        // always-first picks the path shown on the left, which the flipped picture shows on the left too.
        assert.equal(detail["choseLeft"], true);
        assert.ok(text.includes("(the left path"), text);
        const image = await decodeRgb(overlay.png);
        const w = Math.max(2, Math.round(overlay.width / 160)); // pair pictures are wider than tall
        assertColour(image, Math.floor(2.5 * w), Math.floor(image.height / 4), PURPLE, `${result.id}: choice framed on the left`);
      }
    }
  }
  assert.ok(rendered >= 20);
});
