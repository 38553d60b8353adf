/**
 * Honest results through the built CLI: an incomplete run (requests that failed, predictions that
 * are missing, prompts that cannot be built) exits 3 after a one-line reason unless
 * --allow-incomplete, every table shows N scored / N total, a run in which every request failed
 * quotes the first error, and runs are told apart by name, never merged by model.
 */
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { egopath } from "../../src/benchmarks/egopath/index.js";
import type { BenchItem, ItemResult, PromptBuilder } from "../../src/core/benchmark.js";
import { runItems, type Responder } from "../../src/core/run.js";
import { DEFAULT_SETTINGS, type Model } from "../../src/core/types.js";
import { defaultOut } from "../../src/cli/shared.js";
import { runCli, ROOT } from "../helpers/cli.js";
import { startMockServer, type Fault, type MockServer } from "../helpers/mock-server.js";

const EXAMPLE = path.join(ROOT, "examples/egopath-mini");
const KEY = "sk-incomplete-test-0042";
/** The first question of examples/egopath-mini (its first a1 row). */
const FIRST_ID = "house_001_v0_a1_00";
/** Questions per task in examples/egopath-mini (rows of each benchmark_evalfix file). */
const PER_TASK = { a1: 7, b1: 7, a2: 14, b2: 14, c: 11 };

/** By model name: "half" fails every other distinct request (first, third, ...) with 500; "down" answers 400 to all. */
const order = new Map<string, number>();
let mock: MockServer;
before(async () => {
  mock = await startMockServer({
    faults: (req): Fault | undefined => {
      if (req.model === "down") return { type: "status", status: 400 };
      if (req.model !== "half") return undefined;
      if (!order.has(req.key)) order.set(req.key, order.size);
      return order.get(req.key)! % 2 === 0 ? { type: "status", status: 500 } : undefined;
    },
  });
});
after(() => mock.close());

const tmp = () => mkdtempSync(path.join(os.tmpdir(), "spatialprobe-incomplete-"));
const json = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const cli = (args: string[]) => runCli(args, { OPENAI_API_KEY: KEY });
/** Two questions per task (10), one request at a time so the failing half is the same every run. */
const runModel = (model: string, out: string, ...extra: string[]) =>
  cli(["run", "egopath", "--data", EXAMPLE, "--limit", "2", "--model", `openai:${model}`, "--base-url", `${mock.url}/v1`, "--max-attempts", "1", "--concurrency", "1", "--out", out, "--bootstrap", "0", "--quiet", ...extra]);

test("half the requests failing: exit 3 with its reason, N/N in scores.json, the terminal and report.md; --allow-incomplete exits 0", async () => {
  const out = tmp();
  const result = await runModel("half", out);
  assert.equal(result.code, 3, result.stderr);
  assert.equal(result.stderr.trim(), "incomplete: 5 of 10 items ended in errors; exit 3 (--allow-incomplete to exit 0)");

  const scores = json(path.join(out, "scores.json"));
  assert.equal(scores.n_total, 10);
  assert.equal(scores.n_scored, 5);
  assert.equal(scores.complete, false);
  // The mock's error body, behind the adapter's "HTTP <status>: " and the key scrubbed.
  assert.deepEqual(scores.first_error, { id: FIRST_ID, kind: "http", message: "HTTP 500: mock error 500 for credential Bearer [redacted]" });
  assert.equal(scores.missing_by_task, undefined); // a model run records errors, not missing predictions
  // Each task kept one of its two questions, so the EgoPath Score covers all five tasks.
  assert.equal(scores.score_complete, true);

  // --limit 2 of the 53 questions (PER_TASK's sum) is said wherever the run is.
  assert.deepEqual(scores.limit, { per_task: 2, n_available: 53 });
  assert.match(result.stdout, /^scored 5 of 10 items · incomplete: 5 errors \(limited: first 2 per task, 10 of 53 items\)$/m);
  assert.match(result.stdout, /^5 of 10 requests failed; the first error, on item house_001_v0_a1_00 \(http\): HTTP 500: mock error 500 for credential Bearer \[redacted\]$/m);
  const report = readFileSync(path.join(out, "report.md"), "utf8");
  assert.match(report, /^\| openai:half \(limit 2\) \| 5\/10 of 53 \(limit 2\) incomplete \| /m); // the leaderboard
  assert.match(report, /^\| openai:half \(limit 2\) \| openai:half \| release \| none \| limit 2 \| 5\/10 \| incomplete: 5 errors \(limited: first 2 per task, 10 of 53 items\) \|/m); // the Runs table

  const allowed = await runModel("half", tmp(), "--allow-incomplete");
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.equal(allowed.stderr.trim(), "incomplete: 5 of 10 items ended in errors; exit 0 (--allow-incomplete)");
});

test("every request failing: the first error's message in the terminal and the report, no EgoPath Score", async () => {
  const out = tmp();
  const result = await runModel("down", out);
  assert.equal(result.code, 3, result.stderr);
  assert.equal(result.stderr.trim(), "incomplete: 10 of 10 items ended in errors; exit 3 (--allow-incomplete to exit 0)");
  const message = "HTTP 400: mock error 400 for credential Bearer [redacted]";
  assert.ok(result.stdout.includes(`every request failed; the first error, on item ${FIRST_ID} (http): ${message}`), result.stdout);
  assert.match(result.stdout, /^EgoPath Score — \(incomplete: predictions for 0 of 5 tasks\)/m);

  const scores = json(path.join(out, "scores.json"));
  assert.deepEqual([scores.n_scored, scores.n_total, scores.complete], [0, 10, false]);
  assert.deepEqual(scores.first_error, { id: FIRST_ID, kind: "http", message });
  assert.equal(scores.score_complete, false);
  assert.deepEqual(scores.score_coverage, { tasks: ["a1", "b1", "a2", "b2", "c"], without_predictions: ["a1", "b1", "a2", "b2", "c"] });

  const report = readFileSync(path.join(out, "report.md"), "utf8");
  assert.match(report, /^\| openai:down \(limit 2\) \| 0\/10 of 53 \(limit 2\) incomplete \| — \(0 of 5 tasks\) \|/m);
  // Markdown escapes the message's brackets and the id's underscores; it reads the same rendered.
  assert.ok(report.includes("- openai:down (limit 2): every request failed; the first error, on item house\\_001\\_v0\\_a1\\_00 (http): HTTP 400: mock error 400 for credential Bearer \\[redacted\\]"), report);

  const html = path.join(tmp(), "report.html");
  const rendered = await runCli(["report", out, "--format", "html", "--out", html]);
  assert.equal(rendered.code, 0, rendered.stderr);
  const page = readFileSync(html, "utf8");
  assert.ok(page.includes(`every request failed; the first error, on item ${FIRST_ID} (http): HTTP 400: mock error 400 for credential Bearer [redacted]`));
  assert.ok(page.includes('<td class="n" data-scored="0" data-total="10">0 / 10</td>'));
});

test("score with predictions for one task: exit 3, missing predictions per task, the EgoPath Score marked incomplete", async () => {
  const oracle = tmp();
  assert.equal((await runCli(["run", "egopath", "--data", EXAMPLE, "--model", "oracle", "--tasks", "a1", "--out", oracle, "--bootstrap", "0", "--quiet"])).code, 0);
  const out = tmp();
  const result = await runCli(["score", "egopath", "--data", EXAMPLE, "--predictions", `a1=${path.join(oracle, "predictions.jsonl")}`, "--out", out, "--bootstrap", "0", "--name", "a1 only"]);
  assert.equal(result.code, 3, result.stderr);
  const missing = PER_TASK.b1 + PER_TASK.a2 + PER_TASK.b2 + PER_TASK.c;
  const total = missing + PER_TASK.a1;
  assert.equal(result.stderr.trim(), `incomplete: ${missing} of ${total} items have no prediction; exit 3 (--allow-incomplete to exit 0)`);

  const scores = json(path.join(out, "scores.json"));
  assert.equal(scores.name, "a1 only");
  assert.deepEqual(scores.missing_by_task, { a1: 0, b1: PER_TASK.b1, a2: PER_TASK.a2, b2: PER_TASK.b2, c: PER_TASK.c });
  assert.deepEqual([scores.n_scored, scores.n_total, scores.complete, scores.first_error], [PER_TASK.a1, total, false, undefined]);
  assert.equal(scores.score_complete, false);
  assert.deepEqual(scores.score_coverage.without_predictions, ["b1", "a2", "b2", "c"]);
  // The number stays computable (missing rows are empty answers, as the official evaluator reads them):
  // a1 perfect (2·1 − 1 = 1), b1 all-empty (BA 0.5 -> 0), routes 0: (1 + 0 + 0 + 0 + 0) / 5.
  assert.equal(scores.score, 0.2);

  assert.match(result.stdout, /^EgoPath Score — \(incomplete: predictions for 1 of 5 tasks; as computed 20\.0, official rounding 20\.0\)/m);
  assert.match(result.stdout, /^no prediction for b1 7, a2 14, b2 14, c 11$/m);
  const report = readFileSync(path.join(out, "report.md"), "utf8");
  assert.match(report, /^\| a1 only \| 7\/53 incomplete \| — \(1 of 5 tasks\) \|/m);
  assert.match(report, /^- a1 only: no prediction for b1 7, a2 14, b2 14, c 11$/m);

  const allowed = await runCli(["score", "egopath", "--data", EXAMPLE, "--predictions", `a1=${path.join(oracle, "predictions.jsonl")}`, "--out", tmp(), "--bootstrap", "0", "--allow-incomplete"]);
  assert.equal(allowed.code, 0, allowed.stderr);
});

test("a built-in fails where a real model would: a prompt that cannot be built is an error result (kind prompt)", async () => {
  // Through the CLI, on egopath-mini's a1/b1 questions of its two views whose sheets show 18
  // markers (house_001 view 0, house_004 view 0; the other views' a1/b1 questions are left out of
  // the copy): over that set each has a partner from the other view and the data check passes; but
  // the first a1 and the first b1 question are both from house_001 view 0, so with one question
  // per task neither has a partner and the mismatched-overlay control cannot build a single prompt.
  const data = mkdtempSync(path.join(os.tmpdir(), "sp-incomplete-pairs-"));
  cpSync(EXAMPLE, data, { recursive: true });
  for (const task of ["a1", "b1"]) {
    const file = path.join(data, `benchmark_evalfix/benchmark/vqa/vqa_next_${task}.jsonl`);
    const keep = readFileSync(file, "utf8").split("\n").filter((l) => /"question_id":"house_00(1_v0|4_v0)_/.test(l));
    assert.equal(keep.length, 2);
    writeFileSync(file, keep.map((l) => `${l}\n`).join(""));
  }
  const out = tmp();
  const result = await runCli(["run", "egopath", "--data", data, "--model", "oracle", "--control", "mismatched-overlay", "--tasks", "a1,b1", "--limit", "1", "--out", out, "--bootstrap", "0", "--quiet"]);
  assert.equal(result.code, 3, result.stderr);
  assert.equal(result.stderr.trim(), "incomplete: 2 of 2 items ended in errors; exit 3 (--allow-incomplete to exit 0)");
  const scores = json(path.join(out, "scores.json"));
  assert.deepEqual(scores.first_error, { id: FIRST_ID, kind: "prompt", message: "no other question has the same number of candidates (mismatched-overlay control)" });
  assert.equal(scores.n_scored, 0);

  // In runItems: a builder that says why, and one that throws, give the built-in the same error result a model gets.
  const items = egopath.load(EXAMPLE).items.slice(0, 3) as BenchItem[];
  const build: PromptBuilder<BenchItem> = (item) => {
    if (item.id === items[0]!.id) return { error: "the frame folder has no frame 40" };
    if (item.id === items[1]!.id) throw new Error("media: frame_0040.png is not a PNG");
    return { messages: [{ role: "user", content: [{ type: "text", text: "Answer in JSON." }] }], info: {}, json: true };
  };
  const oracle = egopath.baselines["oracle"]!;
  const builtin: Responder<BenchItem> = { kind: "baseline", name: "oracle", reply: (item, prompt) => oracle.reply(item as never, 0, prompt) };
  const never: Model = {
    spec: "openai:never", identity: { provider: "openai", endpoint: "", model: "never" },
    generate: () => Promise.reject(new Error("no request is sent for a prompt error")),
  } as unknown as Model;
  const ask = (responder: Responder<BenchItem>) => runItems({
    benchmark: egopath as never, items, responder, build, settings: DEFAULT_SETTINGS, concurrency: 1, retryErrors: false, signal: new AbortController().signal,
  });
  const expected = (item: BenchItem, message: string): ItemResult => ({
    id: item.id, task: item.task, cluster: item.cluster, status: "error",
    response: { latency_ms: 0, attempts: 0, cached: false, error: { kind: "prompt", message } },
  });
  for (const responder of [builtin, { kind: "model", model: never } as Responder<BenchItem>]) {
    const results = await ask(responder);
    assert.deepEqual(results[0], expected(items[0]!, "the frame folder has no frame 40"));
    assert.deepEqual(results[1], expected(items[1]!, "media: frame_0040.png is not a PNG"));
  }
  const results = await ask(builtin);
  assert.equal(results[2]!.status, "scored"); // the item whose prompt was built is answered as before
});

test("two runs of random:1 named apart both appear in `report` (md and html); --name, config name: and the default folder", async () => {
  const [alpha, beta, gamma] = [tmp(), tmp(), tmp()];
  const base = ["run", "egopath", "--data", EXAMPLE, "--model", "random:1", "--tasks", "a1", "--bootstrap", "0", "--quiet"];
  const config = path.join(gamma, "run.yaml");
  writeFileSync(config, "name: gamma from config\n");
  const runs = await Promise.all([
    runCli([...base, "--name", "alpha", "--out", alpha]),
    runCli([...base, "--name", "beta", "--out", beta]),
    runCli([...base, "--config", config, "--out", gamma]),
  ]);
  for (const r of runs) assert.equal(r.code, 0, r.stderr);
  assert.deepEqual([alpha, beta, gamma].map((dir) => json(path.join(dir, "scores.json")).name), ["alpha", "beta", "gamma from config"]);

  const md = await runCli(["report", alpha, beta, gamma]);
  assert.equal(md.code, 0, md.stderr);
  // A run's folder and the minute its scores were written (created_at, UTC) tell same-model runs apart.
  const written = (dir: string) => `${String(json(path.join(dir, "scores.json")).created_at).slice(0, 16).replace("T", " ")} UTC`;
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  for (const [name, dir] of [["alpha", alpha], ["beta", beta], ["gamma from config", gamma]] as const) {
    assert.match(md.stdout, new RegExp(`^\\| ${name} \\| 7/7 \\| `, "m"), name); // leaderboard row
    assert.match(md.stdout, new RegExp(`^\\| ${name} \\| random:1 \\| release \\| none \\| – \\| 7/7 \\| complete \\| ${escaped(dir)} \\| ${escaped(written(dir))} \\|$`, "m"), name); // Runs row
  }
  // The same model twice without names: two rows, the second marked (2), neither replacing the other.
  const twice = await runCli(["report", alpha, alpha]);
  assert.equal((twice.stdout.match(/^\| alpha(?: \(2\))? \| 7\/7 \| /gm) ?? []).length, 2);

  const html = path.join(tmp(), "report.html");
  assert.equal((await runCli(["report", alpha, beta, "--format", "html", "--out", html])).code, 0);
  const page = readFileSync(html, "utf8");
  assert.ok(page.includes('<tr data-run="0"><td class="label">alpha</td>'));
  assert.ok(page.includes('<tr data-run="1"><td class="label">beta</td>'));
  const data = JSON.parse(/<script type="application\/json" id="sp-data">(.*?)<\/script>/s.exec(page)![1]!);
  assert.deepEqual(data.runs.map((r: { label: string; identity: string }) => [r.label, r.identity]), [
    ["alpha", `name alpha · model random:1 · prompt release · control none · folder ${alpha} · ${written(alpha)}`],
    ["beta", `name beta · model random:1 · prompt release · control none · folder ${beta} · ${written(beta)}`],
  ]);

  assert.equal(defaultOut("egopath", "random:1"), "runs/egopath/random_1");
  assert.equal(defaultOut("egopath", "random:1", "my run/2"), "runs/egopath/random_1--my_run_2");
});
