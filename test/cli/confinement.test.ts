/**
 * Through the built binary, as a user runs it: a dataset row that names a file outside the dataset
 * root is refused by `validate`, `run` (before any request leaves) and `score`, and
 * `--allow-outside-root` is the way to read media kept elsewhere, said so in scores.json.
 */
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { runCli, ROOT } from "../helpers/cli.js";
import { TINY_PNG } from "../helpers/media.js";

const top = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-confine-"));
after(() => rmSync(top, { recursive: true, force: true }));


/** A copy of the example set whose first a1 question shows `imagePath`. */
function datasetWithImage(name: string, imagePath: string): string {
  const data = path.join(top, name);
  cpSync(path.join(ROOT, "examples/egopath-mini"), data, { recursive: true });
  const vqa = path.join(data, "benchmark_evalfix/benchmark/vqa/vqa_next_a1.jsonl");
  const [first, ...rest] = readFileSync(vqa, "utf8").split("\n");
  writeFileSync(vqa, [JSON.stringify({ ...JSON.parse(first!), image_path: imagePath }), ...rest].join("\n"));
  return data;
}

const VQA_A1 = "benchmark_evalfix/benchmark/vqa/vqa_next_a1.jsonl";

test("validate, run and score refuse a row that points at /etc/passwd; nothing is sent", async () => {
  const data = datasetWithImage("passwd", "../../../../../../../../etc/passwd");
  const problem = `${VQA_A1}, line 1, field image_path: image file ../../../../../../../../etc/passwd is outside the dataset root; refused (pass --allow-outside-root to read media kept elsewhere on purpose)`;

  const validate = await runCli(["validate", "egopath", "--data", data]);
  assert.equal(validate.code, 1);
  assert.deepEqual(validate.stdout.trim().split("\n"), [problem, "1 problem found"]);

  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  try {
    const out = path.join(top, "passwd-run");
    const run = await runCli(["run", "egopath", "--data", data, "--model", "openai:gpt-test", "--base-url", `http://127.0.0.1:${port}/v1`, "--out", out, "--quiet"], { OPENAI_API_KEY: "sk-test" });
    assert.equal(run.code, 1, run.stderr);
    assert.ok(run.stderr.includes(problem), run.stderr);
    assert.ok(!run.stderr.includes("root:x:0"), "the file's content is never shown");
    assert.equal(requests, 0);
    assert.equal(existsSync(path.join(out, "scores.json")), false);
  } finally {
    server.close();
  }

  const predictions = path.join(top, "predictions.jsonl");
  writeFileSync(predictions, `${JSON.stringify({ question_id: "x", output: "[1]" })}\n`);
  const score = await runCli(["score", "egopath", "--data", data, "--predictions", predictions, "--out", path.join(top, "passwd-score")]);
  assert.equal(score.code, 1);
  assert.ok(score.stderr.includes(problem), score.stderr);
});

test("--allow-outside-root runs on media kept elsewhere and says so in scores.json", async () => {
  const elsewhere = path.join(top, "elsewhere.png");
  writeFileSync(elsewhere, TINY_PNG);
  const data = datasetWithImage("elsewhere", elsewhere);
  const refused = await runCli(["validate", "egopath", "--data", data]);
  assert.equal(refused.code, 1);
  const allowed = await runCli(["validate", "egopath", "--data", data, "--allow-outside-root"]);
  assert.equal(allowed.code, 0, allowed.stdout);
  const out = path.join(top, "elsewhere-run");
  const run = await runCli(["run", "egopath", "--data", data, "--model", "oracle", "--tasks", "a1", "--out", out, "--allow-outside-root", "--bootstrap", "0", "--quiet"]);
  assert.equal(run.code, 0, run.stderr);
  const scores = JSON.parse(readFileSync(path.join(out, "scores.json"), "utf8"));
  assert.equal(scores.allow_outside_root, true);
  assert.equal(scores.run_options.benchmark_options.allowOutsideRoot, true);
  const confined = path.join(top, "confined-run");
  assert.equal((await runCli(["run", "egopath", "--data", path.join(ROOT, "examples/egopath-mini"), "--model", "oracle", "--tasks", "a1", "--out", confined, "--bootstrap", "0", "--quiet"])).code, 0);
  assert.equal(JSON.parse(readFileSync(path.join(confined, "scores.json"), "utf8")).allow_outside_root, false);
});
