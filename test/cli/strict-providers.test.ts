/**
 * Issue 10's acceptance test: every shipped example set, a generated PathEval set, an EPIC fixture
 * set and a set of 1280x720 video items run through `openai:gpt-4o`, `openai:gpt-5-mini`,
 * `anthropic:claude-sonnet-4-5` and `gemini:gemini-2.5-flash` against the strict mock server
 * (test/helpers/strict-rules.ts), as a new user would run them: zero rejected requests, and every
 * run complete (n_scored === n_total) with exit status 0. The mock's reply is any text: replies
 * that do not parse are scored, requests the real APIs would refuse are not.
 *
 * Needs the built CLI (`npx tsc -p tsconfig.json`) and Debian's ffmpeg (to make the video set).
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { after, before, describe, test } from "node:test";
import { ROOT, runCli } from "../helpers/cli.js";
import { startMockServer, type RejectedRequest } from "../helpers/mock-server.js";

const run = promisify(execFile);
const TMP = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-strict-"));
const ENV = {
  OPENAI_API_KEY: "sk-strict-openai-0000",
  ANTHROPIC_API_KEY: "sk-ant-strict-0000",
  GEMINI_API_KEY: "AIza-strict-0000",
  SPATIALPROBE_FRAME_CACHE: path.join(TMP, "frame-cache"),
};

const MODELS = ["openai:gpt-4o", "openai:gpt-5-mini", "anthropic:claude-sonnet-4-5", "gemini:gemini-2.5-flash"] as const;

interface DataSet {
  name: string;
  benchmark: string;
  data: () => string;
  /** Extra flags (the example sets: the first 2 questions of each task). */
  flags: string[];
}

let pathevalDir = "";
let epicDir = "";
let videoDir = "";

const PICTURE_SETS: DataSet[] = [
  { name: "egopath-mini", benchmark: "egopath", data: () => path.join(ROOT, "examples/egopath-mini"), flags: ["--limit", "2"] },
  { name: "vcn-mini", benchmark: "vcn", data: () => path.join(ROOT, "test/fixtures/vcn-legacy-mini"), flags: ["--limit", "2"] },
  { name: "egotl-mini", benchmark: "egotl", data: () => path.join(ROOT, "test/fixtures/egotl-legacy-mini"), flags: ["--limit", "2"] },
  { name: "patheval (generated)", benchmark: "patheval", data: () => pathevalDir, flags: ["--limit", "2"] },
  { name: "epic (conformance fixtures)", benchmark: "epic", data: () => epicDir, flags: ["--limit", "2"] },
];
const VIDEO: DataSet = { name: "egotl 1280x720 video", benchmark: "egotl", data: () => videoDir, flags: [] };

before(async () => {
  const [patheval, epic, video] = await Promise.all([makePathEval(), makeEpic(), makeVideoSet()]);
  pathevalDir = patheval;
  epicDir = epic;
  videoDir = video;
});
after(() => rmSync(TMP, { recursive: true, force: true }));

/** A small PathEval set from the generator (one environment, few runs: it only has to be real data). */
async function makePathEval(): Promise<string> {
  const out = path.join(TMP, "patheval");
  const made = await runCli(["generate", "patheval", "--out", out, "--count", "1", "--set", "runs=5", "pairs=2"]);
  assert.equal(made.code, 0, made.stderr);
  return out;
}

/** The EPIC conformance fixtures (23 tasks), as they are: they must validate clean for the default variant. */
async function makeEpic(): Promise<string> {
  const root = path.join(ROOT, "test/fixtures/epic/conformance");
  const checked = await runCli(["validate", "epic", "--data", root]);
  assert.equal(checked.code, 0, checked.stdout + checked.stderr);
  return root;
}

const OPTIONS = ["turn left into the red corridor", "walk straight ahead along the blue corridor", "climb the stairs between the green walls", "turn right into the yellow corridor"];
const PLANS = [
  "1. Walk straight ahead for about 2 m. 2. Turn left. 3. Climb the stairs. Then the door is ahead.",
  "1. Turn right. 2. Walk straight ahead for about 3 m. Then the door is ahead.",
  "1. Climb the stairs. 2. Turn left. 3. Walk straight ahead for about 1 m. Then the door is ahead.",
  "1. Go down the stairs. 2. Turn right. Then the door is ahead.",
];

/**
 * EgoTL items on a 10 s 1280x720 clip at 30 fps (300 frames), two per task: planning shows 16
 * frames (the memory bank), distance 48, the other clips the default 8; scene_action shows one
 * 1280x720 still. Film grain (ffmpeg's noise filter) makes each frame about 0.8 MB as PNG, like
 * camera footage, so unshaped requests would be the sizes the issue measured (about 25 MB for
 * planning, far over every provider's limit for distance).
 */
async function makeVideoSet(): Promise<string> {
  const dir = path.join(TMP, "video");
  mkdirSync(dir, { recursive: true });
  const ffmpeg = ["-hide_banner", "-loglevel", "error", "-y"];
  await run("ffmpeg", [...ffmpeg, "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30,noise=alls=8:allf=t", "-t", "10", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", path.join(dir, "clip.mp4")]);
  await run("ffmpeg", [...ffmpeg, "-ss", "5", "-i", path.join(dir, "clip.mp4"), "-frames:v", "1", path.join(dir, "current.png")]);
  const clip = (count?: number) => ({ video: "clip.mp4", ...(count && { spec: { mode: "uniform", count } }) });
  const rows: Record<string, unknown>[] = [];
  for (const n of [1, 2]) {
    const base = { video_id: "clip" };
    rows.push(
      { ...base, id: `planning-${n}`, task: "planning", media: clip(16), abstract_task: "Walk to the door at the end of the route.", options: PLANS, answer: "A" },
      { ...base, id: `scene-${n}`, task: "scene_action", current_frame: "current.png", abstract_task: "Walk to the door at the end of the route.", options: OPTIONS, answer: OPTIONS[n - 1] },
      { ...base, id: `next-${n}`, task: "next_action", media: clip(), chain_of_thought: "The route goes along the blue corridor, then up the stairs.", options: OPTIONS, answer: "B" },
      { ...base, id: `recognition-${n}`, task: "action_recognition", media: clip(), options: OPTIONS, answer: "C" },
      { ...base, id: `direction-${n}`, task: "direction", media: clip(), answer: "Move forward" },
      { ...base, id: `distance-${n}`, task: "distance", media: clip(48), answer: 2.5 * n },
    );
  }
  writeFileSync(path.join(dir, "test.jsonl"), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const checked = await runCli(["validate", "egotl", "--data", dir], ENV);
  assert.equal(checked.code, 0, checked.stdout + checked.stderr);
  return dir;
}

/** "rule: count" per rule, and the first message of each, for the test's failure message. */
function tally(rejected: RejectedRequest[]): Record<string, string> {
  const byRule: Record<string, { n: number; status: number; message: string }> = {};
  for (const r of rejected) {
    const seen = (byRule[r.rule] ??= { n: 0, status: r.status, message: r.message });
    seen.n++;
  }
  return Object.fromEntries(Object.entries(byRule).map(([rule, v]) => [rule, `${v.n} x ${v.status}: ${v.message.slice(0, 300)}`]));
}

/** One run of `spec` on `set` against its own strict mock: no rejections, every item scored, exit 0. */
async function runAgainstStrictMock(set: DataSet, spec: string, t: { diagnostic(message: string): void }): Promise<void> {
  const server = await startMockServer({ strict: true, recordRequests: false });
  try {
    const out = mkdtempSync(path.join(TMP, "run-"));
    const baseUrl = spec.startsWith("openai:") ? `${server.url}/v1` : server.url;
    const result = await runCli(["run", set.benchmark, "--data", set.data(), "--model", spec, "--base-url", baseUrl, "--out", out, "--quiet", "--bootstrap", "0", ...set.flags], ENV);
    const rejections = tally(server.stats.rejected);
    for (const [rule, line] of Object.entries(rejections)) t.diagnostic(`rejected ${rule}: ${line}`);
    assert.deepEqual(rejections, {}, `requests the real API would refuse (${server.stats.rejected.length} of ${server.stats.requests})`);
    const scoresFile = path.join(out, "scores.json");
    assert.ok(existsSync(scoresFile), `no scores.json (exit ${result.code}): ${result.stderr.slice(-2000)}`);
    const scores = JSON.parse(readFileSync(scoresFile, "utf8"));
    assert.ok(scores.n_total > 0, `n_total ${scores.n_total}`);
    // Items whose requests are identical share one stored reply, so requests can be fewer than items.
    assert.ok(server.stats.requests > 0, "no request reached the mock");
    assert.equal(scores.n_scored, scores.n_total, `scored ${scores.n_scored} of ${scores.n_total}; first error: ${JSON.stringify(scores.first_error)}`);
    assert.equal(scores.complete, true);
    assert.equal(result.code, 0, result.stderr.slice(-2000));
  } finally {
    await server.close();
  }
}

// The runs are independent (own mock server, own output folder); two at a time on a small machine.
describe("every example set through every provider against the strict mock", { concurrency: 2 }, () => {
  for (const set of PICTURE_SETS) for (const spec of MODELS) test(`${set.name} x ${spec}`, (t) => runAgainstStrictMock(set, spec, t));
});

// One after another: the first run extracts the frames, the others read them from the frame cache.
describe("the 1280x720 video set through every provider against the strict mock", () => {
  for (const spec of MODELS) test(`${VIDEO.name} x ${spec}`, (t) => runAgainstStrictMock(VIDEO, spec, t));
});
