import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_MESSAGE, ProviderError, classifyError } from "../../src/models/errors.js";
import { bodyLimit, truncateUtf8 } from "../../src/models/http.js";
import { clip, coveredSpans, mergeSpans, scrub, snippet } from "../../src/models/secrets.js";

const KEY = "sk-test-SECRET-9f3a1c"; // 21 characters

/** The done-criterion, checked independently of scrub: no 8-character piece of any key in `text`. */
function leaks(text: string, keys: string[]): string[] {
  const found: string[] = [];
  for (const key of keys) for (let i = 0; i + 8 <= key.length; i++) if (text.includes(key.slice(i, i + 8))) found.push(key.slice(i, i + 8));
  return found;
}

test("a whole key, every occurrence, is redacted", () => {
  assert.equal(scrub(`key ${KEY} and again ${KEY}.`, [KEY]), "key [redacted] and again [redacted].");
  assert.equal(scrub("nothing here", [KEY, undefined, ""]), "nothing here");
  assert.equal(scrub("", [KEY]), "");
});

test("a key cut at every length: a kept prefix of 8 or more characters is redacted, a shorter one is left", () => {
  const text = `Bearer ${KEY}`;
  for (let cut = 0; cut <= text.length; cut++) {
    const kept = Math.max(0, cut - "Bearer ".length);
    const expected = kept >= 8 ? "Bearer [redacted]" : text.slice(0, cut);
    assert.equal(scrub(text.slice(0, cut), [KEY]), expected, `cut ${cut}`);
  }
});

test("suffixes and inner pieces of 8+ characters are redacted wherever they are", () => {
  for (let from = 0; from <= KEY.length; from++) {
    const piece = KEY.slice(from);
    const expected = piece.length >= 8 ? "<[redacted]>" : `<${piece}>`;
    assert.equal(scrub(`<${piece}>`, [KEY]), expected, `from ${from}`);
  }
  assert.equal(scrub(`a ${KEY.slice(3, 13)} b`, [KEY]), "a [redacted] b");
  assert.equal(scrub(`a ${KEY.slice(3, 10)} b`, [KEY]), `a ${KEY.slice(3, 10)} b`); // 7 characters
  // Two pieces back to back become one redaction; pieces split by other text stay two.
  assert.equal(scrub(`${KEY.slice(0, 9)}${KEY.slice(10, 20)}`, [KEY]), "[redacted]");
  assert.equal(scrub(`${KEY.slice(0, 9)} ${KEY.slice(10, 20)}`, [KEY]), "[redacted] [redacted]");
});

test("URL-encoded keys (either hex case) and their pieces are redacted", () => {
  const key = "ab/cd+ef=gh12";
  assert.equal(encodeURIComponent(key), "ab%2Fcd%2Bef%3Dgh12");
  assert.equal(scrub("GET /x?key=ab%2Fcd%2Bef%3Dgh12&alt=json", [key]), "GET /x?key=[redacted]&alt=json");
  assert.equal(scrub("GET /x?key=ab%2fcd%2bef%3dgh12&alt=json", [key]), "GET /x?key=[redacted]&alt=json");
  assert.equal(scrub("cut: ab%2Fcd%2Be", [key]), "cut: [redacted]");
  assert.equal(scrub(`raw ${key}`, [key]), "raw [redacted]");
});

test("keys shorter than 8 characters are redacted only whole; shorter than 4 not at all", () => {
  assert.equal(scrub("x abc123 y abc12", ["abc123"]), "x [redacted] y abc12");
  assert.equal(scrub("x abc y", ["abc"]), "x abc y");
});

test("several secrets at once, overlapping matches merge", () => {
  const other = "AIzaSyD-0123456789";
  const text = `one ${KEY} two ${other} three ${KEY.slice(5)}${other.slice(0, 8)}`;
  assert.equal(scrub(text, [KEY, other]), "one [redacted] two [redacted] three [redacted]");
  assert.deepEqual(mergeSpans([[5, 9], [0, 3], [3, 4], [8, 12]]), [[0, 4], [5, 12]]);
  assert.deepEqual(coveredSpans("xxabcdefghijyy", 8, new Set(["abcdefgh", "cdefghij"])), [[2, 12]]);
});

test("linear work on long texts: megabytes of near misses and a hit at the end", () => {
  const long = "sk-test".repeat(400_000) + KEY; // 7-character near misses, 2.8 MB
  const started = performance.now();
  const out = scrub(long, [KEY]);
  assert.ok(out.endsWith("[redacted]"));
  assert.deepEqual(leaks(out, [KEY]), []);
  assert.ok(performance.now() - started < 3000, "scrub of 2.8 MB took seconds: not linear?");
});

test("clip and snippet: scrub first, then cut, so a key at the cut leaves nothing", () => {
  assert.equal(clip("abcdef", 10), "abcdef");
  assert.equal(clip("abcdef", 4), "abc…");
  assert.equal(clip("ab😀cd", 4), "ab…"); // not half a surrogate pair
  assert.equal(snippet(`Bearer ${KEY}`, [KEY], 12), "Bearer [red…");
  for (let at = 0; at < 40; at++) {
    const text = `${"x".repeat(at)}${KEY} tail`;
    assert.deepEqual(leaks(snippet(text, [KEY], 30), [KEY]), [], `at ${at}`);
  }
});

test("error messages are scrubbed whole and only then cut to MAX_MESSAGE", () => {
  for (const at of [MAX_MESSAGE - 12, MAX_MESSAGE - 5, MAX_MESSAGE - 1]) {
    const message = `${"m".repeat(at)}${KEY}`;
    const fromProvider = classifyError(new ProviderError("http", message, { status: 500 }), [KEY]);
    const fromSocket = classifyError(new Error(message), [KEY]);
    for (const e of [fromProvider, fromSocket]) {
      assert.ok(e.message.length <= MAX_MESSAGE + 20, String(e.message.length));
      assert.deepEqual(leaks(e.message, [KEY]), [], `at ${at}`);
    }
    assert.equal(fromProvider.message, clip(`${"m".repeat(at)}[redacted]`, MAX_MESSAGE));
    assert.deepEqual([fromProvider.status, fromProvider.retryable], [500, true]);
  }
});

test("truncateUtf8 cuts at a character boundary and reports the full length", () => {
  // "h" 1 byte, "é" 2 bytes, "😀" 4 bytes.
  assert.deepEqual(truncateUtf8("héllo", 2), { text: "h", bytes: 6, cut: true });
  assert.deepEqual(truncateUtf8("héllo", 3), { text: "hé", bytes: 6, cut: true });
  assert.deepEqual(truncateUtf8("héllo", 6), { text: "héllo", bytes: 6, cut: false });
  assert.deepEqual(truncateUtf8("a😀b", 4), { text: "a", bytes: 6, cut: true });
  assert.deepEqual(truncateUtf8("a😀b", 5), { text: "a😀", bytes: 6, cut: true });
  assert.deepEqual(truncateUtf8("abc", 0), { text: "", bytes: 3, cut: true });
  assert.deepEqual(truncateUtf8("x".repeat(10), 100), { text: "x".repeat(10), bytes: 10, cut: false });
});

test("the body limit is four times the reply cap plus 1 MiB", () => {
  assert.equal(bodyLimit(1_048_576), 5_242_880);
  assert.equal(bodyLimit(100), 1_048_976);
});
