/**
 * Errors of the run's set-up are not the items' results (issue 30 item 2): when the first requests
 * all fail with one refusal of the key (401) or of the model (404), the run stops with exit 2 and
 * says what to check, having sent only those requests; nothing of them is stored, so the same
 * command with the key or the model fixed asks every item afresh instead of replaying the errors.
 */
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { SETUP_CHECK_REQUESTS } from "../../src/core/run.js";
import { runCli, ROOT } from "../helpers/cli.js";
import { startMockServer, type MockServer } from "../helpers/mock-server.js";

const EXAMPLE = path.join(ROOT, "examples/egopath-mini");
const GOOD_KEY = "sk-setup-good-0001";
const BAD_KEY = "sk-setup-bad-0002";

let mock: MockServer;
before(async () => {
  // As OpenAI answers: 401 for a key it does not accept, 404 for a model it does not know.
  mock = await startMockServer({
    faults: (req) => {
      if (req.headers.authorization !== `Bearer ${GOOD_KEY}`) return { type: "status", status: 401 };
      if (req.model === "no-such-model") return { type: "status", status: 404 };
      return undefined;
    },
  });
});
after(() => mock.close());

const run = (out: string, model: string, key: string, ...extra: string[]) =>
  runCli(["run", "egopath", "--data", EXAMPLE, "--limit", "2", "--model", `openai:${model}`, "--base-url", `${mock.url}/v1`, "--out", out, "--bootstrap", "0", "--quiet", ...extra], { OPENAI_API_KEY: key });

test("a refused key stops the run after its first requests; fixed, the same command asks every item", async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-setup-"));
  const before = mock.stats.requests;
  const refused = await run(out, "vlm", BAD_KEY, "--concurrency", "1");
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, new RegExp(`the first ${SETUP_CHECK_REQUESTS} requests all failed with HTTP 401`));
  assert.match(refused.stderr, /the provider refuses the key: check OPENAI_API_KEY/);
  assert.ok(!refused.stderr.includes(BAD_KEY), "the key is not printed");
  // One request at a time: exactly the check's requests were sent, not the run's ten.
  assert.equal(mock.stats.requests - before, SETUP_CHECK_REQUESTS);

  const sent = mock.stats.requests;
  const fixed = await run(out, "vlm", GOOD_KEY);
  assert.equal(fixed.code, 0, fixed.stderr);
  // --limit 2 over five tasks: ten items, all asked now (no refusal replayed from the store).
  assert.equal(mock.stats.requests - sent, 10);
});

test("an unknown model stops the run and names the model as the thing to check", async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-setup-"));
  const result = await run(out, "no-such-model", GOOD_KEY, "--concurrency", "1");
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, new RegExp(`the first ${SETUP_CHECK_REQUESTS} requests all failed with HTTP 404`));
  assert.match(result.stderr, /does not know the model "no-such-model"/);
});
