import assert from "node:assert/strict";
import { test } from "node:test";
import { ProviderError, classifyError, isRetryableStatus, scrub } from "../../src/models/errors.js";

test("status classification", () => {
  for (const s of [408, 409, 425, 429, 500, 502, 503, 504, 529, 599]) assert.equal(isRetryableStatus(s), true, String(s));
  for (const s of [400, 401, 403, 404, 422]) assert.equal(isRetryableStatus(s), false, String(s));
  assert.equal(new ProviderError("http", "x", { status: 503 }).retryable, true);
  assert.equal(new ProviderError("http", "x", { status: 401 }).retryable, false);
  assert.equal(new ProviderError("malformed", "x").retryable, true);
  assert.equal(new ProviderError("refused", "x").retryable, false);
});

test("socket and parse failures are retryable; others are not", () => {
  const fetchFailed = (code: string, message = "read failed") =>
    Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error(message), { code }) });
  for (const code of ["ECONNRESET", "ECONNREFUSED", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]) {
    const e = classifyError(fetchFailed(code));
    assert.equal(e.kind, "network", code);
    assert.equal(e.retryable, true, code);
    assert.match(e.message, new RegExp(code));
  }
  assert.equal(classifyError(fetchFailed("UND_ERR_HEADERS_TIMEOUT")).kind, "timeout");
  assert.equal(classifyError(new Error("socket hang up")).retryable, true);
  const syntax = classifyError(new SyntaxError("Unexpected end of JSON input"));
  assert.deepEqual([syntax.kind, syntax.retryable], ["malformed", true]);
  const dns = classifyError(fetchFailed("ENOTFOUND"));
  assert.deepEqual([dns.kind, dns.retryable], ["network", false]);
  const other = classifyError(new Error("something odd"));
  assert.deepEqual([other.kind, other.retryable], ["other", false]);
});

test("scrub removes every occurrence of each secret", () => {
  const key = "sk-live-abc123XYZ";
  assert.equal(scrub(`key ${key} and again ${key}`, [key]), "key [redacted] and again [redacted]");
  assert.equal(scrub("nothing here", [key, undefined, ""]), "nothing here");
  const e = classifyError(new Error(`bad header Bearer ${key}`), [key]);
  assert.ok(!e.message.includes(key));
  const p = classifyError(new ProviderError("http", `HTTP 401: ${key}`, { status: 401 }), [key]);
  assert.ok(!p.message.includes(key));
  assert.deepEqual([p.status, p.retryable], [401, false]);
});

test("toResponseError keeps kind, status and message", () => {
  assert.deepEqual(new ProviderError("http", "HTTP 500", { status: 500 }).toResponseError(), {
    kind: "http",
    status: 500,
    message: "HTTP 500",
  });
  assert.deepEqual(new ProviderError("timeout", "slow").toResponseError(), { kind: "timeout", message: "slow" });
});
