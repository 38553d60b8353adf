import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { goldOptionIndex, loadEgoTL } from "../../../src/benchmarks/egotl/load.js";
import { hedgedLetters, readAnswer, readDirection, readPlanning, readPlanningReply } from "../../../src/benchmarks/egotl/parse.js";
import { buildPrompt, loadTemplates } from "../../../src/benchmarks/egotl/prompt.js";
import { TINY_PNG } from "../../helpers/media.js";

const OPTIONS = ["Open the fridge door", "Pick up the milk bottle", "Close the lid", "Walk to the kitchen"];

function folder(rows: unknown[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "egotl-answers-"));
  mkdirSync(path.join(dir, "clip"));
  for (const f of ["a.png", "b.png", "c.png"]) writeFileSync(path.join(dir, "clip", f), TINY_PNG);
  writeFileSync(path.join(dir, "now.png"), TINY_PNG);
  writeFileSync(path.join(dir, "test.jsonl"), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return dir;
}

const clip = { dir: "clip" };

test("gold answers as option text map to letters by normalisation and exact matching (App. H.2.4)", () => {
  assert.equal(goldOptionIndex("C", OPTIONS), 2);
  assert.equal(goldOptionIndex("pick up the milk bottle.", OPTIONS), 1);
  assert.equal(goldOptionIndex("  WALK to the   kitchen!", OPTIONS), 3);
  // Exact after normalisation: a part of an option, or more words, is not it.
  assert.equal(goldOptionIndex("Pick up the milk", OPTIONS), null);
  assert.equal(goldOptionIndex("Open the fridge door now", OPTIONS), null);
  assert.equal(goldOptionIndex("...", OPTIONS), null);
  const dir = folder([
    { id: "ar", task: "action_recognition", media: clip, options: OPTIONS, answer: "close the lid" }, // 1
    { id: "pl", task: "planning", media: clip, abstract_task: "get milk", options: OPTIONS, answer: "Walk to the kitchen." }, // 2
    { id: "na", task: "next_action", media: clip, chain_of_thought: "I need milk", options: OPTIONS, answer: "open the FRIDGE door" }, // 3
    { id: "bad", task: "action_recognition", media: clip, options: OPTIONS, answer: "open the fridge" }, // 4
    { id: "ltr", task: "planning", media: clip, abstract_task: "get milk", options: OPTIONS, answer: "B" }, // 5
  ]);
  const { items, problems } = loadEgoTL(dir);
  assert.deepEqual(items.map((i) => [i.id, i.truth]), [
    ["ar", { kind: "option", index: 2 }],
    ["pl", { kind: "option", index: 3 }],
    ["na", { kind: "option", index: 0 }],
    ["ltr", { kind: "option", index: 1 }],
  ]);
  assert.deepEqual(problems, [{ file: "test.jsonl", line: 4, field: "answer", message: "must be a letter A-D or the text of one of the four options (compared after normalisation: case, spaces, punctuation)" }]);
});

test("hedged planning answers are unreadable, never their first letter", () => {
  assert.deepEqual(hedgedLetters("A or B"), ["A", "B"]);
  assert.deepEqual(hedgedLetters("either C or A"), ["C", "A"]);
  assert.deepEqual(hedgedLetters("B/D"), ["B", "D"]);
  assert.deepEqual(hedgedLetters("Option A or option B"), ["A", "B"]);
  assert.equal(hedgedLetters("A"), null);
  assert.equal(hedgedLetters("A or A"), null, "one letter named twice is not a hedge");
  assert.equal(hedgedLetters("A because B is wrong"), null, "other words: not a hedge (and not a letter either)");
  assert.equal(hedgedLetters(`${"A or ".repeat(13)}B`), null, "longer than 64 characters: not read");
  assert.equal(hedgedLetters("A ou B é"), null, "a character outside ASCII: not read as a hedge");
  assert.deepEqual(readPlanningReply('{"scores": {"A": 0.6, "B": 0.6, "C": 0, "D": 0}, "best": "A or B"}'), { hedged: ["A", "B"], via: "json" });
  assert.equal(readPlanning('{"scores": {"A": 0.6, "B": 0.6}, "best": "either A or B"}'), null);
  // Broken JSON: the pattern fallback sees the hedge too (before: "A or B" read as A).
  assert.deepEqual(readPlanningReply("{'scores': {'A': 1,}, 'best': 'A or B'}"), { hedged: ["A", "B"], via: "pattern" });
  // The last object decides: a draft's clean letter does not rescue a final hedge, and vice versa.
  assert.deepEqual(readPlanningReply('{"best": "C"} then {"best": "A or B"}'), { hedged: ["A", "B"], via: "json" });
  assert.equal(readPlanning('{"best": "A or B"} final: {"best": "B"}')?.letter, "B");
  const item = { id: "p", task: "planning", options: OPTIONS } as unknown as Parameters<typeof readAnswer>[0];
  assert.deepEqual(readAnswer(item, '{"best": "either A or B"}'), {
    status: "unparseable", value: { hedged: ["A", "B"] }, reason: '"best" hedges between A, B (a hedge is not an answer)', stored: '{"best": "either A or B"}',
  });
});

test("sitting down reads as Going down and standing up as Going up (the paper's vertical primitives)", () => {
  const label = (text: string) => readDirection(text)?.label ?? null;
  assert.equal(label("Sitting down"), "Going down");
  assert.equal(label("The wearer sits."), "Going down");
  assert.equal(label("sat on the sofa"), "Going down");
  assert.equal(label("Standing up"), "Going up");
  assert.equal(label("stood"), "Going up");
  assert.equal(label("They stand, then walk off"), "Going up");
  // A verbatim label still beats a keyword; among keywords the first wins.
  assert.equal(label("sitting at first, then Turn left"), "Turn left");
  assert.equal(label("sit then stand"), "Going down");
  assert.deepEqual(readDirection("sitting"), { label: "Going down", via: "keyword", matched: "sitting" });
});

test("scene-aware action with a clip only (no memory bank, no current frame): loaded and prompted with the clip", async () => {
  const dir = folder([
    { id: "clip-only", task: "scene_action", media: clip, abstract_task: "get the milk", options: OPTIONS, answer: "A" }, // 1
    { id: "both", task: "scene_action", media: clip, current_frame: "now.png", abstract_task: "get the milk", options: OPTIONS, answer: "B" }, // 2
    { id: "none", task: "scene_action", abstract_task: "get the milk", options: OPTIONS, answer: "B" }, // 3
  ]);
  const { items, problems } = loadEgoTL(dir);
  assert.deepEqual(items.map((i) => [i.id, i.currentFrame?.display ?? null, i.media?.display ?? null]), [["clip-only", null, "clip"], ["both", "now.png", "clip"]]);
  assert.deepEqual(problems, [{ file: "test.jsonl", line: 3, field: "current_frame", message: "scene_action needs current_frame, media (a clip of the current state), or both" }]);
  const built = await buildPrompt(items[0]!, loadTemplates(), { cacheDir: path.join(dir, "cache") });
  assert.ok("messages" in built);
  const user = built.messages[1]!.content;
  // Intro, then label + image per frame (3 frames: uniform 8 on a 3-frame clip takes each once), then the question.
  assert.equal(user.filter((p) => p.type === "image").length, 3);
  assert.match((user[0] as { text: string }).text, /^These 3 frames come from a short clip/);
  assert.equal(built.info["current_frame"], undefined);
  assert.deepEqual((built.info["frames"] as { indices: number[] }).indices, [0, 1, 2]);
});
