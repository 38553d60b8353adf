/** A server that echoes our credential headers back, cut at every length: no piece of a key gets through. */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createProviderModel } from "../../src/models/provider.js";
import { ECHO_TARGETS, echoText, makeRequest, startMockServer, type Fault, type MockRequest, type MockServer } from "../helpers/mock-server.js";

const KEYS = { OPENAI_API_KEY: "sk-proj-Zx81QwErTy-55aa", ANTHROPIC_API_KEY: "sk-ant-api03-KeyKey-77bb", GEMINI_API_KEY: "AIzaSyEchoEcho-0099cc" };
const KEY_OF = { openai: KEYS.OPENAI_API_KEY, anthropic: KEYS.ANTHROPIC_API_KEY, gemini: KEYS.GEMINI_API_KEY };
const PROVIDERS = ["openai", "anthropic", "gemini"] as const;
const never = new AbortController().signal;

/** Every 8-character piece of any key found in `text` (computed without the code under test). */
function leaks(text: string): string[] {
  const found: string[] = [];
  for (const key of Object.values(KEYS)) for (let i = 0; i + 8 <= key.length; i++) if (text.includes(key.slice(i, i + 8))) found.push(key.slice(i, i + 8));
  return found;
}

/** The fault for each request, keyed by the request's text (so requests can run at once). */
const plan = new Map<string, Fault>();
let mock: MockServer;
before(async () => {
  mock = await startMockServer({ faults: (req) => plan.get(req.texts[0] ?? ""), reply: (req) => `echo of ${req.texts[0]}` });
});
after(() => mock.close());

let counter = 0;

test("echoText lists the credential headers, then the URL", () => {
  const req = { path: "/v1/messages", headers: { "x-api-key": "k-123", "anthropic-version": "2023-06-01" } } as unknown as MockRequest;
  assert.equal(echoText(req), "x-api-key: k-123\nurl: /v1/messages");
});

test("every provider, every echo target, every cut length: no 8-character piece of the key in the response or retry messages", async () => {
  const runs: Promise<void>[] = [];
  for (const p of PROVIDERS) {
    const key = KEY_OF[p];
    const prefix = { openai: "authorization: Bearer ", anthropic: "x-api-key: ", gemini: "x-goog-api-key: " }[p];
    // Cuts that end just before the key, at every offset inside it, just after it, and no cut.
    const cuts: (number | undefined)[] = [];
    for (let c = prefix.length - 2; c <= prefix.length + key.length + 2; c++) cuts.push(c);
    cuts.push(undefined);
    for (const into of ECHO_TARGETS)
      for (const cut of cuts) {
        const text = `echo ${++counter}`;
        plan.set(text, { type: "echo", into, status: 503, ...(cut !== undefined && { cut }) });
        const retries: string[] = [];
        const m = createProviderModel(`${p}:echo-model`, {
          baseUrl: p === "openai" ? `${mock.url}/v1` : mock.url,
          env: KEYS,
          maxAttempts: 2,
          backoffBaseMs: 1,
          sleep: async () => undefined,
          onRetry: ({ error }) => retries.push(error.message),
        });
        runs.push(
          m.generate(makeRequest([text]), never).then((res) => {
            const dump = JSON.stringify(res) + retries.join("\n");
            assert.deepEqual(leaks(dump), [], `${p} ${into} cut ${cut}: ${dump}`);
            if (into !== "reply") assert.equal(res.outcome, "error", `${p} ${into} cut ${cut}`);
            if (into !== "error-message" && into !== "error-text") return;
            assert.equal(res.attempts, 2, "503 is retried, so onRetry saw the message");
            assert.equal(retries.length, 1);
          }),
        );
      }
  }
  await Promise.all(runs);
  assert.equal(runs.length, 4 * Object.values(KEY_OF).reduce((n, k) => n + k.length + 6, 0)); // 4 targets, key length + 6 cuts
});

test("an echoed reply keeps everything but the key", async () => {
  const want = {
    openai: "authorization: Bearer [redacted]\nurl: /v1/chat/completions",
    anthropic: "x-api-key: [redacted]\nurl: /v1/messages",
    gemini: "x-goog-api-key: [redacted]\nurl: /v1beta/models/echo-model:generateContent",
  };
  for (const p of PROVIDERS) {
    const m = createProviderModel(`${p}:echo-model`, { baseUrl: p === "openai" ? `${mock.url}/v1` : mock.url, env: KEYS });
    const text = `reply ${++counter}`;
    plan.set(text, { type: "echo", into: "reply" });
    const res = await m.generate(makeRequest([text]), never);
    assert.equal(res.outcome, "ok");
    assert.equal(res.text, want[p]);
  }
});

test("a key pasted into the base URL is not kept in the model identity or in messages", async () => {
  const key = KEYS.GEMINI_API_KEY;
  const m = createProviderModel("gemini:m", { baseUrl: `${mock.url}/?key=${key}`, env: KEYS });
  assert.equal(m.identity.endpoint, `${mock.url}/?key=[redacted]`);
  assert.throws(
    () => createProviderModel("gemini:m", { baseUrl: `not a url ${key}`, env: KEYS }),
    (e: Error) => e.message === 'invalid base URL for gemini: "not a url [redacted]"',
  );
});

test("every configured key is scrubbed, whichever provider the model talks to", async () => {
  const m = createProviderModel("openai:m", { baseUrl: `${mock.url}/v1`, env: KEYS });
  const res = await m.generate(makeRequest([`${KEYS.ANTHROPIC_API_KEY} and ${KEYS.GEMINI_API_KEY.slice(2, 12)}`]), never);
  assert.equal(res.text, "echo of [redacted] and [redacted]");
});
