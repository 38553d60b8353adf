import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { startMockServer, type MockRequest, type MockServer } from "../helpers/mock-server.js";

/**
 * The two video benchmarks end to end through the built binary, against the mock
 * OpenAI-compatible server, as a new user runs them on the shipped example sets.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin/spatialprobe.js");
const VCN = path.join(ROOT, "test/fixtures/vcn-legacy-mini");
const EGOTL = path.join(ROOT, "test/fixtures/egotl-legacy-mini");
const KEY = "sk-test-video-4e7a";
const FRAME_CACHE = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-frames-"));
const tmp = () => mkdtempSync(path.join(os.tmpdir(), "spatialprobe-video-"));
const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const readJsonl = (file: string) => readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));

/** The CLI as a child process; asynchronous, so the in-process mock server keeps answering. */
function cli(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, OPENAI_API_KEY: KEY, SPATIALPROBE_FRAME_CACHE: FRAME_CACHE },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

const VCN_REPLY = 'Looking at the tour, the destination is {"frame": 12}';

/** EgoTL replies chosen by the question's output contract (the template's last line). */
function egotlReply(req: MockRequest): string {
  const text = req.texts.join("\n");
  if (text.includes("Reply with JSON only")) return 'Here you go: {"scores": {"A": 2, "B": 4, "C": 9, "D": 1}, "best": "C"}';
  if (text.includes("Reply with the text of the chosen action")) return firstListedOption(text);
  if (text.includes("single capital letter")) return "Answer: A";
  if (text.includes("Choose one of: Turn left")) return "The camera wearer is going upstairs.";
  if (text.includes("How far")) return "About 2.15 meters.";
  return "unexpected question";
}

/** The first "- option" line of an option-text question. */
function firstListedOption(text: string): string {
  const line = text.split("\n").find((l) => l.startsWith("- "));
  return line ? line.slice(2) : "";
}

let server: MockServer;
before(async () => {
  server = await startMockServer({
    recordRequests: true,
    reply: (req) => (req.model === "mock-egotl" ? egotlReply(req) : VCN_REPLY),
  });
});
after(() => server.close());

const vcnItems = readJsonl(path.join(VCN, "items.jsonl"));

test("vcn: run against the OpenAI wire format, per-type success rates and chance rows, then navigation given goal identification", async () => {
  const out = tmp();
  const seenBefore = server.stats.seen.length;
  const run = await cli("run", "vcn", "--data", VCN, "--model", "openai:mock-vlm", "--base-url", `${server.url}/v1`, "--out", out, "--bootstrap", "200", "--quiet");
  assert.equal(run.status, 0, run.stderr);
  const scores = readJson(path.join(out, "scores.json"));
  // Independent expectation: the reply names tour frame 12; a question is right when 12 is among its answer frames.
  for (const task of ["count", "order", "distance", "orientation", "instance"]) {
    const ofTask = vcnItems.filter((i) => i.task === task);
    assert.equal(scores.tasks[task].SR, ofTask.filter((i) => i.answers.includes(12)).length / ofTask.length, task);
    assert.equal(scores.tasks[task].n, ofTask.length);
  }
  assert.equal(scores.counts.errors, 0);
  assert.equal(scores.counts.parse_failures, 0);
  // Every request carried the whole tour plus the four initial views.
  const requests = server.stats.seen.slice(seenBefore);
  assert.equal(requests.length, vcnItems.length);
  const tourFrames = readdirSync(path.join(VCN, "houses/house_1/tour")).filter((f) => f.endsWith(".png")).length;
  for (const req of requests) assert.equal(req.imageCount, tourFrames + 4);
  const report = readFileSync(path.join(out, "report.md"), "utf8");
  assert.match(report, /\| openai:mock-vlm \| plain \| 19\/19 \| 19 \|/);
  assert.match(report, /\| chance: complete \|/);
  assert.match(report, /\| chance: category \|/);
  assert.ok(!readFileSync(path.join(out, "scores.json"), "utf8").includes(KEY));

  const nav = await cli("navigation", "--episodes", path.join(VCN, "episodes.json.gz"), "--trajectories", path.join(VCN, "trajectories.jsonl"), "--goal-run", out, "--out", path.join(out, "nav"));
  assert.equal(nav.status, 0, nav.stderr);
  const navigation = readJson(path.join(out, "nav/navigation.json"));
  const identified = vcnItems.filter((i) => i.answers.includes(12)).map((i) => i.episode_id);
  assert.equal(navigation.conditional.correct.n, identified.length);
  assert.equal(navigation.conditional.wrong.n, vcnItems.length - identified.length);
  assert.equal(navigation.conditional.no_result.n, 0);
  assert.match(readFileSync(path.join(out, "nav/navigation.md"), "utf8"), /\| goal identified \| 4 \|/);
});

test("vcn: --max-images thins the tour evenly, keeps tour-index labels and says so in every result", async () => {
  const out = tmp();
  const seenBefore = server.stats.seen.length;
  const run = await cli("run", "vcn", "--data", VCN, "--model", "openai:mock-vlm", "--base-url", `${server.url}/v1`, "--out", out, "--bootstrap", "0", "--max-images", "10", "--quiet");
  assert.equal(run.status, 0, run.stderr);
  for (const req of server.stats.seen.slice(seenBefore)) assert.equal(req.imageCount, 10);
  const lines = readJsonl(path.join(out, "items.jsonl"));
  // 24 tour frames into 10 - 4 views = 6 slots: positions round(i * 23 / 5) = 0, 5, 9, 14, 18, 23.
  for (const line of lines) {
    assert.deepEqual(line.prompt.shown, [0, 5, 9, 14, 18, 23]);
    assert.equal(line.prompt.dropped, 18);
    assert.match(line.prompt.note, /24 frames thinned to 6/);
  }
  assert.equal(lines.length, vcnItems.length);
});

const egotlItems = readJsonl(path.join(EGOTL, "test.jsonl"));

test("egotl: run against the OpenAI wire format; each task read by its own rule and scored", async () => {
  const out = tmp();
  const run = await cli("run", "egotl", "--data", EGOTL, "--model", "openai:mock-egotl", "--base-url", `${server.url}/v1`, "--out", out, "--bootstrap", "200", "--quiet");
  assert.equal(run.status, 0, run.stderr);
  const scores = readJson(path.join(out, "scores.json"));
  const share = (task: string, right: (item: any) => boolean) => {
    const ofTask = egotlItems.filter((i) => i.task === task);
    return ofTask.filter(right).length / ofTask.length;
  };
  // Planning replies "best": "C"; option-text tasks reply the first listed option; action recognition "A"
  // (the capital A of "Answer" is not standalone); direction "going upstairs" = Going up.
  const expected = {
    planning: share("planning", (i) => i.answer === "C"),
    scene_action: share("scene_action", (i) => i.answer === i.options[0]),
    next_action: share("next_action", (i) => i.answer === i.options[0]),
    action_recognition: share("action_recognition", (i) => i.answer === "A"),
    direction: share("direction", (i) => i.answer === "Going up"),
  };
  assert.deepEqual(expected, { planning: 3 / 5, scene_action: 2 / 5, next_action: 2 / 5, action_recognition: 3 / 5, direction: 1 / 5 });
  for (const [task, accuracy] of Object.entries(expected)) assert.equal(scores.tasks[task].accuracy, accuracy, task);
  const avg = (3 / 5 + 2 / 5 + 2 / 5 + 3 / 5 + 1 / 5) / 5;
  assert.equal(scores["Avg."], avg);
  // Distance "2.15" against 0, 1.5, 3.77, 2.15, 0 (file order): MRA 0, 0.2, 0.2, 1, 0 by hand
  // (|2.15-1.5|/1.5 = 0.433 passes thresholds 0.50 and 0.55 only; |2.15-3.77|/3.77 = 0.430 likewise).
  assert.deepEqual(egotlItems.filter((i) => i.task === "distance").map((i) => i.answer), [0, 1.5, 3.77, 2.15, 0]);
  assert.equal(scores.tasks.distance.MRA, (0 + 0.2 + 0.2 + 1 + 0) / 5);
  assert.equal(scores.counts.errors, 0);
  const report = readFileSync(path.join(out, "report.md"), "utf8");
  assert.match(report, /\| openai:mock-egotl \| 30\/30 \| 60\.0 \| 40\.0 \| 40\.0 \| 60\.0 \| 20\.0 \| 44\.0 \| 28\.0 \|/);
  assert.match(report, /\| uniform chance \| – \| 25\.0 \| 25\.0 \| 25\.0 \| 25\.0 \| 20\.0 \| 24\.0 \|/);

  // Every result names the frames the model saw.
  const first = readJsonl(path.join(out, "items.jsonl")).find((l) => l.id === "w01-planning");
  assert.deepEqual(first.prompt.frames.indices, [0, 2, 4, 7, 9, 11, 14, 16, 18, 21, 23, 25, 28, 30, 32, 35]);

  // The exported predictions rescore to the same numbers.
  const rescored = tmp();
  const score = await cli("score", "egotl", "--data", EGOTL, "--predictions", path.join(out, "predictions.jsonl"), "--out", rescored, "--bootstrap", "200");
  assert.equal(score.status, 0, score.stderr);
  assert.deepEqual(readJson(path.join(rescored, "scores.json")).tasks, scores.tasks);
});

test("egotl: the frequency baseline needs --train and then reports its row", async () => {
  const missing = await cli("run", "egotl", "--data", EGOTL, "--model", "frequency", "--out", tmp(), "--quiet");
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /--train/);
  const out = tmp();
  const run = await cli("run", "egotl", "--data", EGOTL, "--model", "frequency", "--train", path.join(EGOTL, "train.jsonl"), "--out", out, "--bootstrap", "0", "--quiet");
  assert.equal(run.status, 0, run.stderr);
  assert.match(readFileSync(path.join(out, "report.md"), "utf8"), /\| frequency \(train train\.jsonl\) \|/);
});

test("derived questions are scored as they were asked: egotl --circular and vcn counterfactual, run then score", async () => {
  const circularRun = tmp();
  assert.equal((await cli("run", "egotl", "--data", EGOTL, "--model", "random:3", "--circular", "--out", circularRun, "--bootstrap", "0", "--quiet")).status, 0);
  const circularScore = tmp();
  const score = await cli("score", "egotl", "--data", EGOTL, "--predictions", path.join(circularRun, "predictions.jsonl"), "--circular", "--out", circularScore, "--bootstrap", "0");
  assert.equal(score.status, 0, score.stderr);
  const [ran, scored] = [readJson(path.join(circularRun, "scores.json")), readJson(path.join(circularScore, "scores.json"))];
  assert.equal(ran.circular, true);
  // Four rotations of each of the 20 four-option questions, plus the 10 direction and distance questions.
  assert.equal(ran.counts.items, 4 * 20 + 10);
  assert.deepEqual(scored.tasks, ran.tasks);
  assert.deepEqual(scored.counts, ran.counts);

  const cfRun = tmp();
  assert.equal((await cli("run", "vcn", "--data", VCN, "--model", "random:2", "--prompt", "counterfactual", "--out", cfRun, "--bootstrap", "0", "--quiet")).status, 0);
  const cfScore = tmp();
  const rescore = await cli("score", "vcn", "--data", VCN, "--predictions", path.join(cfRun, "predictions.jsonl"), "--prompt", "counterfactual", "--out", cfScore, "--bootstrap", "0");
  assert.equal(rescore.status, 0, rescore.stderr);
  assert.deepEqual(readJson(path.join(cfScore, "scores.json")).tasks, readJson(path.join(cfRun, "scores.json")).tasks);
  assert.equal(readJson(path.join(cfScore, "scores.json")).counterfactual.n, 17);
});
