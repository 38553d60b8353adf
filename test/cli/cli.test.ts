import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";

/** End to end through the built binary, as a user runs it (npm test builds dist/ first). */
const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin/spatialprobe.js");
const CONFORMANCE = path.join(ROOT, "test/fixtures/egopath/conformance");
const TASKS = ["a1", "b1", "a2", "b2", "c"];
const NAMES: Record<string, string> = { a1: "point_traversability", b1: "embodied_traversability", a2: "point_path", b2: "embodied_path", c: "intent_path" };

const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: "utf8" });
const tmp = () => mkdtempSync(path.join(os.tmpdir(), "spatialprobe-cli-"));

test("score: the official evaluator's metrics for every task, from per-task prediction files", () => {
  const out = tmp();
  const predictions = TASKS.map((t) => `${t}=${path.join(CONFORMANCE, "predictions", `${t}.jsonl`)}`);
  const result = cli("score", "egopath", "--data", CONFORMANCE, "--predictions", ...predictions, "--out", out, "--bootstrap", "1000");
  // Three questions have no prediction row: scored as empty answers (official rule), and the run is incomplete (exit 3).
  assert.equal(result.status, 3, result.stderr);
  assert.equal(result.stderr.trim(), "incomplete: 3 of 78 items have no prediction; exit 3 (--allow-incomplete to exit 0)");
  const scores = JSON.parse(readFileSync(path.join(out, "scores.json"), "utf8"));
  for (const task of TASKS) {
    const official = JSON.parse(readFileSync(path.join(CONFORMANCE, "expected", `${task}.json`), "utf8"));
    assert.deepEqual(scores.tasks[NAMES[task]!].official, official.metrics, task);
  }
  // The score from the officially rounded metrics, as the paper's script computes it.
  const metric = (t: string, key: string) => JSON.parse(readFileSync(path.join(CONFORMANCE, "expected", `${t}.json`), "utf8")).metrics[key];
  const expected = (2 * metric("a1", "balanced_accuracy") - 1 + (2 * metric("b1", "balanced_accuracy") - 1) + metric("a2", "success_rate") + metric("b2", "success_rate") + metric("c", "success_rate")) / 5;
  assert.equal(scores.official_rounding, expected);
  assert.equal(scores.benchmark, "egopath");
  assert.equal(scores.n, 78);
  assert.ok(scores.score_ci[0] <= scores.score && scores.score <= scores.score_ci[1]);
  for (const task of ["point_path", "embodied_path", "intent_path"]) assert.ok(scores.diagnostics[task].by_reference_edges.length > 0);
  const lines = readFileSync(path.join(out, "items.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.length, 78);
  const routeLine = lines.find((l) => l.task === "a2" && l.detail.stage === "illegal_edge");
  assert.ok(routeLine.detail.illegalStep && typeof routeLine.detail.illegalStep.from === "number");
  assert.ok(readFileSync(path.join(out, "report.md"), "utf8").includes("| Run | Scored | Score |"));
});

test("run with a built-in model, then report in md, json and html", () => {
  const out = tmp();
  const run = cli("run", "egopath", "--data", path.join(ROOT, "examples/egopath-mini"), "--model", "oracle", "--out", out, "--tasks", "a1,point_path", "--bootstrap", "100");
  assert.equal(run.status, 0, run.stderr);
  const scores = JSON.parse(readFileSync(path.join(out, "scores.json"), "utf8"));
  assert.deepEqual(Object.keys(scores.tasks), ["point_traversability", "point_path"]);
  assert.equal(scores.tasks.point_path.SR, 1);
  assert.equal(scores.score, null);
  assert.ok(existsSync(path.join(out, "predictions.jsonl")));
  const md = cli("report", out, out);
  assert.equal(md.status, 0);
  // Two runs of one folder, kept apart: leaderboard, intervals, Runs and Splits table rows for each.
  assert.equal(md.stdout.split("\n").filter((l) => l.startsWith("| oracle |")).length, 4);
  assert.equal(md.stdout.split("\n").filter((l) => l.startsWith("| oracle (2) |")).length, 4);
  const json = JSON.parse(cli("report", out, "--format", "json").stdout);
  assert.equal(json[0].model, "oracle");
  const htmlFile = path.join(out, "r.html");
  assert.equal(cli("report", out, "--format", "html", "--out", htmlFile).status, 0);
  assert.match(readFileSync(htmlFile, "utf8"), /<table>/);
});

test("bad input: unknown task, unknown model, broken data are clear errors", () => {
  const data = path.join(ROOT, "examples/egopath-mini");
  const task = cli("run", "egopath", "--data", data, "--model", "oracle", "--tasks", "z9");
  assert.equal(task.status, 2);
  assert.match(task.stderr, /unknown EgoPathBench task "z9"/);
  const model = cli("run", "egopath", "--data", data, "--model", "gpt-4o");
  assert.equal(model.status, 2);
  assert.match(model.stderr, /unknown model "gpt-4o"/);
  const broken = cli("run", "egopath", "--data", path.join(ROOT, "test/fixtures/egopath/broken"), "--model", "oracle", "--out", tmp());
  assert.equal(broken.status, 1);
  assert.match(broken.stderr, /vqa_next_c\.jsonl, line 1, field ground_truth\.optimal_length_m: missing/);
  const key = spawnSync(process.execPath, [BIN, "run", "egopath", "--data", data, "--model", "anthropic:claude-x", "--out", tmp()], {
    cwd: ROOT, encoding: "utf8", env: { ...process.env, ANTHROPIC_API_KEY: "" },
  });
  assert.equal(key.status, 2);
  assert.match(key.stderr, /ANTHROPIC_API_KEY/);
});

test("list and help", () => {
  const list = execFileSync(process.execPath, [BIN, "list"], { encoding: "utf8" });
  assert.match(list, /egopath\s+EgoPathBench/);
  assert.match(list, /a1 \(point_traversability\)/);
  assert.match(execFileSync(process.execPath, [BIN, "--help"], { encoding: "utf8" }), /validate/);
});

test("overlay: pictures and captions of chosen items; an unknown id is a clear error", async () => {
  const out = tmp();
  assert.equal(cli("run", "egopath", "--data", path.join(ROOT, "examples/egopath-mini"), "--model", "random:1", "--tasks", "a2", "--out", out, "--bootstrap", "0", "--quiet").status, 0);
  const lines = readFileSync(path.join(out, "items.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const [first, second] = [lines[0], lines[3]];
  const pictures = path.join(out, "pics");
  const result = cli("overlay", out, "--items", `${first.id},${second.id}`, "--out", pictures, "--max-side", "300");
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /wrote 2 pictures/);
  const { default: sharp } = await import("sharp");
  for (const [index, line] of [[0, first], [3, second]] as const) {
    const base = path.join(pictures, `${String(index).padStart(5, "0")}_${line.id}`);
    const meta = await sharp(`${base}.png`).metadata();
    assert.equal(Math.max(meta.width!, meta.height!), 300); // the example images are 640 wide
    assert.match(readFileSync(`${base}.txt`, "utf8"), new RegExp(`outcome: ${line.detail.stage}`));
  }
  const unknown = cli("overlay", out, "--items", "nope");
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /no result for item nope/);
});

test("validate --split reads the split run --split reads; another benchmark refuses the flag", () => {
  const data = path.join(ROOT, "test/fixtures/egopath-legacy");
  // The rows per task, counted from the fixture's own files.
  const rows = (task: string) => readFileSync(path.join(data, "release/train/vqa", `vqa_next_${task}.jsonl`), "utf8").trim().split("\n").length;
  const train = cli("validate", "egopath", "--data", data, "--split", "train");
  assert.equal(train.status, 0, train.stderr);
  assert.equal(train.stdout.trim(), `ok: ${rows("a1") + rows("a2") + rows("b2")} questions (a1 ${rows("a1")}, a2 ${rows("a2")}, b2 ${rows("b2")}); no problems found`);
  // The fixture holds no test split: the default is refused with the reason.
  const test = cli("validate", "egopath", "--data", data);
  assert.equal(test.status, 1);
  assert.match(test.stdout, /no vqa files found/);
  const epic = cli("validate", "epic", "--data", path.join(ROOT, "examples/epic-mini"), "--split", "train");
  assert.equal(epic.status, 2);
  assert.match(epic.stderr, /--split is read by egopath only, not epic/);
});

test("usage errors: the error and a one-line hint on stderr, exit 2; --model given twice is refused; --version", () => {
  const { version } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
  const printed = cli("--version");
  assert.equal(printed.status, 0);
  assert.equal(printed.stdout, `${version}\n`);
  const hint = "(add --help for the command's options)";
  const data = path.join(ROOT, "examples/egotl-mini");
  const unknown = cli("run", "egotl", "--data", data, "--model", "oracle", "--bogus");
  assert.equal(unknown.status, 2);
  assert.equal(unknown.stderr, `error: unknown option '--bogus'\n${hint}\n`);
  // Commander kept the last of two values and ran it alone.
  const twice = cli("run", "egotl", "--data", data, "--model", "oracle", "--model", "random:1");
  assert.equal(twice.status, 2);
  assert.equal(twice.stderr, `error: option '--model <spec>' given twice ("oracle" and "random:1"); a run has one model: one command per model\n${hint}\n`);
  assert.equal(twice.stdout, "");
  // Other options keep the last value given (a script's flag overridden by a later one).
  const limits = cli("run", "egotl", "--data", data, "--model", "oracle", "--limit", "100", "--limit", "1", "--out", path.join(tmp(), "r"));
  assert.equal(limits.status, 0, limits.stderr);
});
