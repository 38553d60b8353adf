/** The reply cap: long reply texts are cut and marked; bodies far over it are not read to the end. */
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { createProviderModel, type ProviderOptions } from "../../src/models/provider.js";
import { makeRequest, startMockServer, type MockServer } from "../helpers/mock-server.js";

const KEY = "sk-cap-test-KEY-31337";
const ENV = { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY, GEMINI_API_KEY: KEY };
const PROVIDERS = ["openai", "anthropic", "gemini"] as const;
const MiB = 1024 * 1024;
const never = new AbortController().signal;

/** Reply text per request, chosen by the request's first text. */
const replies = new Map<string, string>();
let mock: MockServer;
before(async () => {
  mock = await startMockServer({ reply: (req) => replies.get(req.texts[0] ?? "") ?? "{}" });
});
after(() => mock.close());

const model = (p: (typeof PROVIDERS)[number], options: ProviderOptions) =>
  createProviderModel(`${p}:cap-model`, { baseUrl: p === "openai" ? `${mock.url}/v1` : mock.url, env: ENV, maxAttempts: 3, backoffBaseMs: 1, ...options });

let counter = 0;
function ask(text: string): ReturnType<typeof makeRequest> {
  const label = `cap ${++counter}`;
  replies.set(label, text);
  return makeRequest([label]);
}

test("10 MB replies with a 3 MiB cap: each stored text is the cap, marked with the full length", async () => {
  const big = "x".repeat(10 * MiB);
  for (const p of PROVIDERS) {
    const m = model(p, { maxReplyBytes: 3 * MiB });
    const results = await Promise.all(Array.from({ length: p === "openai" ? 4 : 1 }, () => m.generate(ask(big), never)));
    for (const res of results) {
      assert.equal(res.outcome, "ok", `${p}: ${res.error?.message}`);
      assert.equal(res.attempts, 1);
      assert.equal(res.text.length, 3 * MiB);
      assert.equal(Buffer.byteLength(res.text), 3 * MiB);
      assert.deepEqual(res.truncated, { bytes: 10 * MiB });
    }
  }
});

test("the cut falls on a UTF-8 character boundary; short replies are untouched and unmarked", async () => {
  const m = model("openai", { maxReplyBytes: 1001 });
  const res = await m.generate(ask("é".repeat(1000)), never); // 2000 bytes
  assert.equal(res.text, "é".repeat(500));
  assert.deepEqual(res.truncated, { bytes: 2000 });
  const short = await m.generate(ask("é".repeat(500)), never); // exactly 1000 bytes
  assert.equal(short.text, "é".repeat(500));
  assert.equal("truncated" in short, false);
});

test("the key is scrubbed before the cut: a key straddling the cap leaves no piece of it", async () => {
  const m = model("anthropic", { maxReplyBytes: 100 });
  const res = await m.generate(ask(`${"a".repeat(95)}${KEY} and more`), never);
  assert.equal(res.text, `${"a".repeat(95)}[reda`);
  assert.deepEqual(res.truncated, { bytes: 95 + "[redacted] and more".length });
});

test("a body over four times the cap plus 1 MiB is not read on: a non-retryable error saying so", async () => {
  for (const p of PROVIDERS) {
    const m = model(p, { maxReplyBytes: MiB });
    const before = mock.stats.requests;
    const res = await m.generate(ask("y".repeat(10 * MiB)), never);
    assert.equal(res.outcome, "error", p);
    assert.equal(res.attempts, 1, p);
    assert.equal(mock.stats.requests - before, 1, p);
    assert.equal(res.text, "");
    assert.deepEqual(res.error, {
      kind: "other",
      message: "reply exceeded the size limit: body over 5242880 bytes (4 × --max-reply-bytes 1048576 + 1 MiB); stopped reading",
    });
  }
});

test("a streamed body without a length stops being read at the limit: the server cannot push on", async () => {
  let written = 0;
  let closed!: () => void;
  const gone = new Promise<void>((resolve) => (closed = resolve));
  const endless = createServer((req, res) => {
    req.resume();
    req.on("end", async () => {
      res.writeHead(200, { "content-type": "application/json" }); // chunked: no content-length
      res.on("close", closed);
      const chunk = Buffer.alloc(64 * 1024, "y");
      res.write('{"choices":[{"message":{"content":"');
      while (!res.destroyed && written < 256 * MiB) {
        written += chunk.length;
        if (!res.write(chunk)) await new Promise((r) => res.once("drain", r).once("close", r));
      }
      res.end();
    });
  });
  await new Promise<void>((r) => endless.listen(0, "127.0.0.1", r));
  try {
    const { port } = endless.address() as AddressInfo;
    const m = createProviderModel("openai:m", { baseUrl: `http://127.0.0.1:${port}/v1`, env: {}, maxReplyBytes: MiB });
    const res = await m.generate(makeRequest(), never);
    assert.equal(res.error?.message, "reply exceeded the size limit: body over 5242880 bytes (4 × --max-reply-bytes 1048576 + 1 MiB); stopped reading");
    assert.equal(res.attempts, 1);
    await gone;
    // The limit (5 MiB) plus what socket buffers held: far from the 256 MiB the server had ready.
    assert.ok(written < 64 * MiB, `server wrote ${written} bytes`);
  } finally {
    endless.closeAllConnections();
    await new Promise((r) => endless.close(r));
  }
});

test("the default cap is 4 MiB", async () => {
  const m = model("gemini", {});
  const res = await m.generate(ask("z".repeat(5 * MiB)), never);
  assert.equal(res.text.length, 4 * MiB);
  assert.deepEqual(res.truncated, { bytes: 5 * MiB });
});
