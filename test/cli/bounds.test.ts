/**
 * Issue 25 end to end: every number a flag, a config file or a dataset gives is bounded, and the
 * attacks that once hung or crashed a command now end within seconds with a usage error or the
 * exact data problem (file, line, field). Spawns the built CLI (`npx tsc -p tsconfig.json` first).
 */
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { ROOT, runCli, type CliResult } from "../helpers/cli.js";
import { pngClaiming, TINY_PNG } from "../helpers/media.js";
import { DESCRIPTORS } from "../../src/benchmarks/patheval/scenarios.js";

const top = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-bounds-"));
let counter = 0;
const fresh = (name: string) => path.join(top, `${name}-${++counter}`);
const EGOPATH = path.join(ROOT, "examples/egopath-mini");
const HUGE = "its header claims 1000000000x1000000000 pixels, more than the 268402689 sharp decodes";

/** Run the CLI on every argument list, two at a time (the machine has two cores). */
async function runAll(argLists: string[][]): Promise<CliResult[]> {
  const results: CliResult[] = new Array(argLists.length);
  let next = 0;
  const worker = async () => {
    while (next < argLists.length) {
      const k = next++;
      results[k] = await runCli(argLists[k]!);
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
}

/** `validate` lists exactly `lines` and the count (exit 1), within `seconds`. */
async function validates(benchmark: string, data: string, lines: string[], seconds = 20): Promise<CliResult> {
  const started = performance.now();
  const result = await runCli(["validate", benchmark, "--data", data]);
  assert.ok(performance.now() - started < seconds * 1000, `validate took ${Math.round(performance.now() - started)} ms`);
  assert.equal(result.code, 1, result.stdout + result.stderr);
  assert.deepEqual(result.stdout.trim().split("\n"), [...lines, `${lines.length} problem${lines.length === 1 ? "" : "s"} found`]);
  return result;
}

// ---------------------------------------------------------------- flags and the config file

const run = (...flags: string[]) => ["run", "egopath", "--data", EGOPATH, "--model", "oracle", "--out", fresh("never"), ...flags];
const FLAGS: Array<[string[], string]> = [
  [run("--concurrency", "0"), "option '--concurrency <n>' argument '0' is invalid. must be a whole number from 1 to 1024"],
  [run("--concurrency", "1e9"), "option '--concurrency <n>' argument '1e9' is invalid. must be a whole number from 1 to 1024"],
  [run("--seed", "1e300"), "option '--seed <n>' argument '1e300' is invalid. must be a whole number from -9007199254740991 to 9007199254740991"],
  [run("--limit", "9007199254740993"), "option '--limit <n>' argument '9007199254740993' is invalid. must be a whole number from 1 to 9007199254740991"],
  [run("--bootstrap", "-1"), "option '--bootstrap <n>' argument '-1' is invalid. must be a whole number from 0 to 1000000"],
  [run("--fps", "1e300"), "option '--fps <x>' argument '1e300' is invalid. must be a number above 0 and at most 1000"],
  [run("--frames", "1000000000"), "option '--frames <n>' argument '1000000000' is invalid. must be a whole number from 1 to 10000"],
  [run("--max-pixels", "1000000000000"), "option '--max-pixels <n>' argument '1000000000000' is invalid. must be a whole number from 1 to 268402689"],
  [run("--max-images", "12abc"), "option '--max-images <n>' argument '12abc' is invalid. must be a whole number from 1 to 10000"],
  [run("--timeout-ms", "3000000000"), "option '--timeout-ms <n>' argument '3000000000' is invalid. must be a whole number from 1 to 86400000"],
  [run("--temperature", "5"), "option '--temperature <t>' argument '5' is invalid. must be a number from 0 to 2"],
  [run("--max-tokens", "0"), "option '--max-tokens <n>' argument '0' is invalid. must be a whole number from 1 to 1000000"],
  [run("--max-cost", "-3"), "option '--max-cost <usd>' argument '-3' is invalid. must be a number above 0 and at most 1000000 US dollars"],
  [run("--repeats", "100000"), "option '--repeats <k>' argument '100000' is invalid. must be a whole number from 1 to 1000"],
  [["serve", "runs", "--port", "70000"], "option '--port <n>' argument '70000' is invalid. must be a whole number from 0 to 65535"],
  [["sim", "serve", "--data", top, "--port", "-5"], "option '--port <n>' argument '-5' is invalid. must be a whole number from 0 to 65535"],
  [["report", "runs", "--picture-size", "1000000"], "option '--picture-size <px>' argument '1000000' is invalid. must be a whole number from 1 to 16383"],
  [["report", "runs", "--max-size", "-1"], "option '--max-size <MB>' argument '-1' is invalid. must be a number from 0 to 256"],
  [["export", "vcn", "--data", top, "--format", "llava", "--out", fresh("x"), "--seed", "12abc"], "option '--seed <n>' argument '12abc' is invalid. must be a whole number from -9007199254740991 to 9007199254740991"],
  [["generate", "vcn", "--out", fresh("g"), "--count", "1000000000"], "option '--count <n>' argument '1000000000' is invalid. must be a whole number from 1 to 100000"],
  [["navigate", "vcn", "--data", top, "--model", "oracle", "--max-actions", "1000000"], "option '--max-actions <n>' argument '1000000' is invalid. must be a whole number from 1 to 100000"],
  [["navigation", "vcn", "--episodes", "e.json.gz", "--trajectories", "t.jsonl", "--success-distance", "-1"], "option '--success-distance <m>' argument '-1' is invalid. must be a number above 0 and at most 100000 metres"],
];

test("issue 25: every numeric flag has a range; a value outside it is a usage error naming the range, before anything runs", async () => {
  const results = await runAll(FLAGS.map(([args]) => args));
  results.forEach((result, k) => {
    const [args, message] = FLAGS[k]!;
    assert.equal(result.code, 2, `${args.join(" ")}\n${result.stderr}`);
    assert.ok(result.stderr.startsWith(`error: ${message}\n`), `${args.join(" ")}\n${result.stderr.split("\n")[0]}`);
  });
});

test("issue 25: the config file's numbers have the flags' ranges", async () => {
  const config = path.join(top, "big.yaml");
  writeFileSync(config, "concurrency: 100000\ntimeout_ms: 3000000000\n");
  const result = await runCli(run("--config", config));
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stderr.trim(), `error: config ${config}: timeout_ms: must be a whole number from 1 to 86400000; concurrency: must be a whole number from 1 to 1024`);
});

// ---------------------------------------------------------------- datasets

const fine = (id: string, media: Record<string, unknown>) => ({ id, task: "direction", media: { frames: ["clip/a.png", "clip/b.png"], ...media }, answer: "Turn left" });

/** An EgoTL folder with two frames (and `now.png` claiming 1e9 x 1e9 pixels), and `rows` as test.jsonl. */
function egotlSet(rows: unknown[]): string {
  const dir = fresh("egotl");
  mkdirSync(path.join(dir, "clip"), { recursive: true });
  for (const f of ["a.png", "b.png"]) writeFileSync(path.join(dir, "clip", f), TINY_PNG);
  writeFileSync(path.join(dir, "now.png"), pngClaiming(1e9, 1e9));
  writeFileSync(path.join(dir, "test.jsonl"), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return dir;
}

test("issue 25: validate egotl: a frame spec of 1e300 fps (once a hang) is one problem on its line and field", async () => {
  await validates("egotl", egotlSet([fine("fast", { fps: 10, spec: { mode: "fps", fps: 1e300 } })]), [
    "test.jsonl, line 1, field media.spec.fps: must be above 0 and at most 1000 frames per second",
  ]);
});

test("issue 25: validate vcn: a tour spec of 1e300 fps is one problem on its line and field", async () => {
  const root = fresh("vcn");
  cpSync(path.join(ROOT, "test/fixtures/vcn-legacy-mini"), root, { recursive: true });
  const file = path.join(root, "items.jsonl");
  const rows = readFileSync(file, "utf8").trim().split("\n");
  const first = JSON.parse(rows[0]!);
  rows[0] = JSON.stringify({ ...first, tour: { ...first.tour, spec: { mode: "fps", fps: 1e300 } } });
  writeFileSync(file, rows.join("\n") + "\n");
  await validates("vcn", root, ["items.jsonl, line 1, field tour.spec.fps: must be above 0 and at most 1000 frames per second"]);
});

test("issue 25: 150,000 out-of-range frame indices (once a stack overflow) list the first 1,000 problems and count the rest; run refuses the same", async () => {
  const indices = Array.from({ length: 10_000 }, (_, k) => 2 + k);
  const dir = egotlSet(Array.from({ length: 15 }, (_, r) => fine(`r${r}`, { spec: { mode: "indices", indices } })));
  const started = performance.now();
  const validate = await runCli(["validate", "egotl", "--data", dir]);
  assert.equal(validate.code, 1, validate.stderr);
  const lines = validate.stdout.trim().split("\n");
  assert.equal(lines.length, 1002);
  assert.equal(lines[0], "test.jsonl, line 1, field media.spec.indices[0]: frame 2 is beyond the 2 frames");
  assert.deepEqual(lines.slice(-2), ["... and 149000 more problems", "150000 problems found"]);
  const out = fresh("run");
  const refused = await runCli(["run", "egotl", "--data", dir, "--model", "oracle", "--out", out, "--bootstrap", "0", "--quiet"]);
  assert.equal(refused.code, 1);
  assert.ok(refused.stderr.startsWith("error: the data has problems; nothing was run.\n  - test.jsonl, line 1, field media.spec.indices[0]: frame 2 is beyond the 2 frames\n"));
  assert.ok(refused.stderr.endsWith("\n  ... and 149000 more problems\n"), refused.stderr.slice(-100));
  assert.ok(performance.now() - started < 30_000);
});

test("issue 25: a picture whose header claims 1e9 x 1e9 pixels is a problem naming it, in every benchmark; run refuses it too", async () => {
  // EgoTL: the current view.
  const options = ["turn left", "turn right", "walk ahead", "stop"];
  const egotl = egotlSet([{ id: "big", task: "scene_action", current_frame: "now.png", abstract_task: "go", options, answer: "A" }]);
  await validates("egotl", egotl, [`test.jsonl, line 1, field current_frame: image now.png: ${HUGE}`]);
  const out = fresh("run");
  const refused = await runCli(["run", "egotl", "--data", egotl, "--model", "oracle", "--out", out, "--bootstrap", "0", "--quiet"]);
  assert.equal(refused.code, 1);
  assert.ok(refused.stderr.includes(`  - test.jsonl, line 1, field current_frame: image now.png: ${HUGE}\n`), refused.stderr);

  // EgoPathBench: a row's overlay picture.
  const egopath = fresh("egopath");
  cpSync(EGOPATH, egopath, { recursive: true });
  const picture = "assets/house_001/view_0/rgb_overlay_a1.png";
  writeFileSync(path.join(egopath, picture), pngClaiming(1e9, 1e9));
  await validates("egopath", egopath, [`benchmark_evalfix/benchmark/vqa/vqa_next_a1.jsonl, line 1, field image_path: image ${picture}: ${HUGE}`]);

  // VCN-Bench: a start view.
  const vcn = fresh("vcn");
  cpSync(path.join(ROOT, "test/fixtures/vcn-legacy-mini"), vcn, { recursive: true });
  const rows = readFileSync(path.join(vcn, "items.jsonl"), "utf8").trim().split("\n").map((r) => JSON.parse(r));
  const front = rows[0].initial_views.front as string;
  writeFileSync(path.join(vcn, front), pngClaiming(1e9, 1e9));
  const using = rows.flatMap((r, k) => (r.initial_views.front === front ? [k + 1] : []));
  await validates("vcn", vcn, using.map((line) => `items.jsonl, line ${line}, field initial_views.front: image ${front}: ${HUGE}`));

  // EPIC-Bench: a sample's picture.
  const folder = "TargetLocalization/BasicAttributes/Category";
  const epic = fresh("epic");
  cpSync(path.join(ROOT, "test/fixtures/epic/conformance/EPIC_Bench", folder), path.join(epic, "EPIC_Bench", folder), { recursive: true });
  writeFileSync(path.join(epic, "EPIC_Bench", folder, "0002_image.jpg"), pngClaiming(1e9, 1e9));
  await validates("epic", epic, [`EPIC_Bench/${folder}/0002_mask_rle.json, field images: image EPIC_Bench/${folder}/0002_image.jpg: ${HUGE}`]);

  // PathEval: a pair's picture.
  const patheval = fresh("patheval");
  mkdirSync(path.join(patheval, "2D"), { recursive: true });
  writeFileSync(path.join(patheval, "2D", "pair.png"), pngClaiming(1e9, 1e9));
  const metrics = Object.fromEntries(["Path 1", "Path 2"].map((p, k) => [p, Object.fromEntries(DESCRIPTORS.map((d) => [d, k + 1]))]));
  const record = { id: 1, image: "pair.png", conversations: [{ from: "human", value: "A large truck must pass. Which path is better?" }, { from: "gpt", value: "Path 2" }], metrics };
  writeFileSync(path.join(patheval, "2D", "test_dataset_2D.json"), JSON.stringify([record]));
  await validates("patheval", patheval, [`2D/test_dataset_2D.json, field [0].image: image ${path.join(patheval, "2D", "pair.png")}: ${HUGE}`]);
});

test("issue 25: navigate vcn on an episode file with a start of 1e16 (once a hang in the simulator) stops at the data check", async () => {
  const data = fresh("nav");
  mkdirSync(data);
  const episode = { episode_id: "e1", scene_id: "house_001", start_position: [1e16, 0, 1e16], start_rotation: [0, 0, 0, 1], instruction: { task_type: "count", instruction_text: "Go." }, goals: [{ position: [1, 0, 1] }] };
  writeFileSync(path.join(data, "episodes.json"), JSON.stringify({ episodes: [episode] }));
  const started = performance.now();
  const result = await runCli(["navigate", "vcn", "--data", data, "--model", "oracle", "--out", fresh("nav-out"), "--quiet"]);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(
    result.stderr,
    [
      "error: the data has problems; nothing was run.",
      "  - episodes.json, field episodes[0].start_position[0]: must be between -10000 and 10000 (metres)",
      "  - episodes.json, field episodes[0].start_position[2]: must be between -10000 and 10000 (metres)",
      "",
    ].join("\n"),
  );
  assert.ok(performance.now() - started < 20_000);
});
