import assert from "node:assert/strict";
import { test } from "node:test";
import { firstLetter, firstNumber, findJsonObjects, letterFromValue, matchOption, normalizeText, readAnswer, readDirection, readPlanning } from "../../../src/benchmarks/egotl/parse.js";
import type { EgoTLItem } from "../../../src/benchmarks/egotl/load.js";
import { scoreAnswer } from "../../../src/benchmarks/egotl/score.js";

/** Golden values worked out by hand from the rules in parse.ts. */

test("normalisation: case, punctuation, symbols and spaces", () => {
  assert.equal(normalizeText("  Walk  TO the Sink!!! "), "walk to the sink");
  assert.equal(normalizeText("left-hand\tturn."), "left hand turn");
  assert.equal(normalizeText("Ｔｕｒｎ ｌｅｆｔ"), "turn left"); // NFKC folds full-width letters
  assert.equal(normalizeText("..."), "");
});

test("planning: the best field of the last JSON object that has a valid one", () => {
  assert.deepEqual(readPlanning('{"scores":{"A":7,"B":9,"C":3,"D":1},"best":"B"}'), { letter: "B", index: 1, scores: { A: 7, B: 9, C: 3, D: 1 }, via: "json" });
  assert.equal(readPlanning('Here it is:\n```json\n{"scores": {"A": 2, "B": 3, "C": 8, "D": 4}, "best": "C"}\n```')?.letter, "C");
  assert.equal(readPlanning('Draft {"best": "A"} ... final: {"scores":{"A":1,"B":2,"C":3,"D":9},"best":"D"}')?.letter, "D");
  assert.equal(readPlanning('{"best": "a"}')?.letter, "A");
  assert.equal(readPlanning('{"best": "Option B"}')?.letter, "B");
  assert.equal(readPlanning('{"best": "(C)"}')?.letter, "C");
  assert.equal(readPlanning('{"best": "D."}')?.letter, "D");
  assert.equal(readPlanning('{"reasoning": "use {braces} and \\"quotes\\" }", "best": "A"}')?.letter, "A");
  assert.equal(readPlanning('{"best": "B"} and later {"best": "E"}')?.letter, "B"); // E is no letter A-D
  assert.deepEqual(readPlanning('{"scores": {"A": "7", "B": 2}, "best": "A"}')?.scores, { A: 7, B: 2 });
  assert.equal(readPlanning('{"scores": [1, 2], "best": "A"}')?.scores, null);
  // No parseable object: the "best": "X" pattern, last one.
  assert.deepEqual(readPlanning('{"scores": {"A": 1}, "best": "B",}'), { letter: "B", index: 1, scores: null, via: "pattern" });
  assert.equal(readPlanning("{'best': 'D'}")?.via, "pattern");
  assert.equal(readPlanning("{'best': 'D'}")?.letter, "D");
  assert.equal(readPlanning('{"outer": {"best": "C"}}')?.via, "pattern"); // only top-level objects are read as JSON
  // Nothing to read.
  assert.equal(readPlanning('{"best": "E"}'), null);
  assert.equal(readPlanning('{"best": "AB"}'), null);
  assert.equal(readPlanning("Best plan: B"), null);
  assert.equal(readPlanning('The scores are {"A": 3} and the best is B'), null);
  assert.equal(readPlanning(""), null);
  assert.equal(readPlanning("{{{{"), null);
  // Pathological input: a bounded number of brace starts is tried, then the pattern.
  assert.equal(readPlanning("{".repeat(50_000) + '"best": "C"')?.via, "pattern");
});

test("planning: letter values and JSON scanning", () => {
  assert.equal(letterFromValue("b"), "B");
  assert.equal(letterFromValue(" option c "), "C");
  assert.equal(letterFromValue("A or B"), null);
  assert.equal(letterFromValue(1), null);
  assert.deepEqual(findJsonObjects('x {"a": 1} y {bad} {"b": {"c": 2}}'), [{ a: 1 }, { b: { c: 2 } }]);
});

const OPTIONS = ["open the fridge", "open the fridge door", "close the fridge", "walk to the sink"];

test("option text: exact first, then whole-word containment; nested occurrences do not count; ties are unreadable", () => {
  assert.deepEqual(matchOption("Open the fridge.", OPTIONS), { index: 0, via: "exact" });
  assert.deepEqual(matchOption("open the fridge door", OPTIONS), { index: 1, via: "exact" });
  assert.deepEqual(matchOption("WALK   TO THE SINK!!!", OPTIONS), { index: 3, via: "exact" });
  assert.deepEqual(matchOption("I would open the fridge door now", OPTIONS), { index: 1, via: "contains" });
  assert.deepEqual(matchOption("Answer: walk to the sink", OPTIONS), { index: 3, via: "contains" });
  assert.deepEqual(matchOption("Open the fridge, not close the fridge", OPTIONS), { index: null, reason: "the reply contains several options (A, C)", candidates: [0, 2] });
  // "open the fridge" occurs on its own as well as inside "open the fridge door": both count, a tie.
  assert.equal(matchOption("open the fridge door, or just open the fridge", OPTIONS).index, null);
  assert.deepEqual(matchOption("B", OPTIONS), { index: null, reason: "no option text found in the reply" });
  assert.equal(matchOption("walk to the sinks", OPTIONS).index, null); // whole words only
  assert.deepEqual(matchOption("  ", OPTIONS), { index: null, reason: "empty reply" });
});

test("action recognition: the first standalone capital A-D", () => {
  const cases: Array<[string, string | null]> = [
    ["B", "B"],
    ["(C)", "C"],
    ["Answer: D.", "D"],
    ["**A**", "A"],
    ["The answer is C", "C"],
    ["A person opens the door, so B", "A"], // the article counts: the rule is the first capital A-D token
    ["C-D", "C"],
    ["é A", "A"],
    ["Bob chose", null],
    ["AB", null],
    ["I think it's b", null],
    ["Option 1", null],
    ["D1", null],
    ["_A", null],
    ["", null],
  ];
  for (const [text, expected] of cases) assert.equal(firstLetter(text), expected, JSON.stringify(text));
});

test("direction: exact label, then the earliest label phrase, then the earliest keyword", () => {
  const cases: Array<[string, string | null, string | null]> = [
    ["Turn left", "Turn left", "exact"],
    ["turn LEFT.", "Turn left", "exact"],
    ["Going up", "Going up", "exact"],
    ["The camera is turning left.", "Turn left", "keyword"],
    ["Going up the stairs", "Going up", "phrase"],
    ["Move forward, then turn left", "Move forward", "phrase"],
    ["Straight ahead? No: turn left", "Turn left", "phrase"], // the verbatim label beats an earlier paraphrase
    ["I am not going down; moving forward", "Going down", "phrase"], // negation is not understood
    ["It goes straight ahead and slightly right", "Move forward", "keyword"],
    ["Ahead, then it turns left", "Move forward", "keyword"],
    ["The wearer walks upstairs", "Going up", "keyword"],
    ["descending", "Going down", "keyword"],
    ["Right.", "Turn right", "keyword"],
    ["a left-hand turn", "Turn left", "keyword"],
    ["rotates clockwise", "Turn right", "keyword"],
    ["no movement", null, null],
    ["", null, null],
  ];
  for (const [text, label, via] of cases) {
    const r = readDirection(text);
    assert.equal(r?.label ?? null, label, JSON.stringify(text));
    assert.equal(r?.via ?? null, via, JSON.stringify(text));
  }
});

test("distance: the first number (sign, decimals, exponent)", () => {
  const cases: Array<[string, number | null]> = [
    ["3 meters", 3],
    ["about 2.5m", 2.5],
    ["-1", -1],
    ["\u22122.5 m", -2.5],
    [".5", 0.5],
    ["+4", 4],
    ["1e3 m", 1000],
    ["1.2e-1", 0.12],
    ["5E+2", 500],
    ["5e", 5],
    ["1,5 m", 1],
    ["The distance is 0", 0],
    ["approximately 12 metres (±1)", 12],
    ["floor-3 then 4", 3], // a dash glued to a letter is not a sign
    ["x=-2", -2],
    ["3.0.1", 3],
    ["three metres", null],
    ["", null],
  ];
  for (const [text, expected] of cases) assert.equal(firstNumber(text)?.value ?? null, expected, JSON.stringify(text));
  assert.equal(firstNumber("1e999")?.value, Infinity);
});

function item(task: EgoTLItem["task"], truth: EgoTLItem["truth"], options: string[] | null = null): EgoTLItem {
  return { id: `x-${task}`, task, cluster: "v", file: "t.jsonl", line: 1, videoId: "v", media: null, currentFrame: null, abstractTask: null, chainOfThought: null, options, truth };
}

test("one reply per task: answers, unreadable replies, exclusion and scoring", () => {
  const planning = item("planning", { kind: "option", index: 2 }, ["a", "b", "c", "d"]);
  assert.equal(scoreAnswer(planning, readAnswer(planning, '{"best":"C"}')).correct, true);
  const unread = readAnswer(planning, "C");
  assert.equal(unread.status, "unparseable");
  assert.deepEqual(scoreAnswer(planning, unread), { task: "planning", missing: false, unreadable: true, truth: "C", correct: false, excluded: false, mra: null, mra_strict: null, predicted: null });

  const recog = item("action_recognition", { kind: "option", index: 1 }, ["w", "x", "y", "z"]);
  assert.equal(scoreAnswer(recog, readAnswer(recog, "B")).correct, true);
  const none = scoreAnswer(recog, readAnswer(recog, "no idea"));
  assert.equal(none.excluded, true);
  assert.equal(none.correct, false);
  assert.equal(scoreAnswer(recog, { status: "missing", value: null }).excluded, false); // a missing prediction is wrong, not excluded

  const next = item("next_action", { kind: "option", index: 3 }, OPTIONS);
  assert.equal(scoreAnswer(next, readAnswer(next, "I'd walk to the sink.")).predicted, "D");

  const direction = item("direction", { kind: "direction", label: "Going down" });
  assert.equal(scoreAnswer(direction, readAnswer(direction, "going downstairs")).correct, true);

  const distance = item("distance", { kind: "distance", metres: 3 });
  assert.equal(scoreAnswer(distance, readAnswer(distance, "3 meters")).mra, 1);
  assert.equal(scoreAnswer(distance, readAnswer(distance, "roughly 2.4 m")).mra, 0.6); // |2.4-3|/3 = 0.20000000000000004: thresholds 0.5..0.75 pass (6 of 10)
  assert.equal(scoreAnswer(distance, readAnswer(distance, "far")).mra, 0);
  const still = item("distance", { kind: "distance", metres: 0 });
  assert.equal(scoreAnswer(still, readAnswer(still, "0")).mra, 1);
  assert.equal(scoreAnswer(still, readAnswer(still, "0.2 m")).mra, 0);
});
