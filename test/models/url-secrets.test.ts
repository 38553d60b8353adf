/** Credentials in base URLs (url-secrets.ts): what is shown, what is scrubbed, and what a request carries. */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { configuredKeys, createProviderModel } from "../../src/models/provider.js";
import { modelEndpoints } from "../../src/models/traffic.js";
import { endpointTarget, isCredentialParam, urlCredentials, withQuery } from "../../src/models/url-secrets.js";
import { refuseUrlCredentials, type RunSpec } from "../../src/queue/spec.js";
import { makeRequest, startMockServer, type MockServer } from "../helpers/mock-server.js";

const R = "[redacted]";

test("user info: user and password redacted together; the password and its user are secrets", () => {
  assert.deepEqual(urlCredentials("http://user:pass@host/v1"), { shown: `http://${R}@host/v1`, secrets: ["pass", "user"] });
  assert.deepEqual(urlCredentials("https://alice:s3cret@host:8443"), { shown: `https://${R}@host:8443`, secrets: ["s3cret", "alice"] });
  // An empty password leaves a short user alone as a secret; it is still not shown.
  assert.deepEqual(urlCredentials("http://alice:@host/v1"), { shown: `http://${R}@host/v1`, secrets: [] });
});

test("user info without a password: hidden; a secret only when long enough to be a token", () => {
  assert.deepEqual(urlCredentials("http://bob@host/v1"), { shown: `http://${R}@host/v1`, secrets: [] });
  const token = "ghp_0123456789abcdefXYZ";
  assert.deepEqual(urlCredentials(`https://${token}@host/v1`), { shown: `https://${R}@host/v1`, secrets: [token] });
});

test("credential query parameters: their values redacted, whatever the spelling of the name", () => {
  const names = ["key", "api-key", "api_key", "apikey", "apiKey", "API-KEY", "token", "access_token", "secret", "client_secret", "password", "pass", "pwd", "auth", "sig", "signature", "X-Amz-Signature", "x-api-key", "x-goog-api-key", "code", "X-Amz-Security-Token", "authToken"];
  const query = names.map((n, i) => `${n}=v${i}-value`).join("&");
  const { shown, secrets } = urlCredentials(`https://host/v1?${query}`);
  assert.equal(shown, `https://host/v1?${names.map((n) => `${n}=${R}`).join("&")}`);
  assert.deepEqual(secrets, names.map((_, i) => `v${i}-value`));
  for (const n of names) assert.ok(isCredentialParam(n), n);
});

test("other parameters are kept as written: names that only resemble credentials, empty values, bare flags", () => {
  const url = "http://host/v1?model=gpt-4o&api-version=2024-06-01&keyword=cats&bypass=1&format=json&user=me&key=&flag&a=b=c";
  assert.deepEqual(urlCredentials(url), { shown: url, secrets: [] });
  for (const n of ["model", "api-version", "keyword", "bypass", "format", "user", "keys_count"]) assert.equal(isCredentialParam(n), false, n);
});

test("percent-encoded user info, names and values: shown encoded as written, secret in both spellings", () => {
  assert.deepEqual(urlCredentials("http://us%40er:p%3Ass%2Fw@host/v1?api%2Dkey=a%2Bb%3D&x=%2B"), {
    shown: `http://${R}@host/v1?api%2Dkey=${R}&x=%2B`,
    secrets: ["p%3Ass%2Fw", "p:ss/w", "us%40er", "us@er", "a%2Bb%3D", "a+b="],
  });
  // A value that does not decode is a secret as written.
  assert.deepEqual(urlCredentials("http://host/?token=%E0%A4%A"), { shown: `http://host/?token=${R}`, secrets: ["%E0%A4%A"] });
});

test("IPv6 hosts, ports, fragments and several URLs' worth of punctuation", () => {
  assert.deepEqual(urlCredentials("http://u:pw12@[2001:db8::1]:8443/v1?token=abc123"), { shown: `http://${R}@[2001:db8::1]:8443/v1?token=${R}`, secrets: ["pw12", "u", "abc123"] });
  assert.deepEqual(urlCredentials("http://[::1]:8000/v1"), { shown: "http://[::1]:8000/v1", secrets: [] });
  assert.deepEqual(urlCredentials("http://host/v1#access_token=frag-tok&state=1"), { shown: `http://host/v1#access_token=${R}&state=1`, secrets: ["frag-tok"] });
  // A "?" after the "#" is the fragment's: the query is empty.
  assert.deepEqual(urlCredentials("http://host/v1#x?key=k1"), { shown: `http://host/v1#x?key=${R}`, secrets: ["k1"] });
  // An "@" in the path is no user info.
  assert.deepEqual(urlCredentials("http://host/models/@cf/v1"), { shown: "http://host/models/@cf/v1", secrets: [] });
  // The user info runs to the authority's last "@" (an unencoded "@" in a password).
  assert.deepEqual(urlCredentials("http://user:p@ss@host/v1"), { shown: `http://${R}@host/v1`, secrets: ["p@ss", "user"] });
});

test("malformed URLs never throw: everything between '//' and the last '@' is redacted", () => {
  assert.deepEqual(urlCredentials("http://user:pa/ss@host/v1?token=t0k"), { shown: `http://${R}@host/v1?token=${R}`, secrets: ["pa/ss", "user", "t0k"] });
  assert.deepEqual(urlCredentials("http://us er:p w@ho st/v1"), { shown: `http://${R}@ho st/v1`, secrets: ["p w", "us er"] });
  assert.deepEqual(urlCredentials("http://[::1/v1"), { shown: "http://[::1/v1", secrets: [] });
  assert.deepEqual(urlCredentials("not a url"), { shown: "not a url", secrets: [] });
  assert.deepEqual(urlCredentials(""), { shown: "", secrets: [] });
  assert.deepEqual(urlCredentials("://@"), { shown: "://@", secrets: [] });
});

test("1 MB hostile URLs are read in linear time", () => {
  const MB = 1 << 20;
  const hostile = [
    `http://${"@".repeat(MB)}`,
    `http://${"a:".repeat(MB / 2)}@h/`,
    `http://${"/".repeat(MB)}x`,
    `http://h${"/".repeat(MB)}?key=x`,
    `http://h/?${"key=x&".repeat(MB / 6)}`,
    `http://h/?${"=".repeat(MB)}`,
    `http://h/?${"aA".repeat(MB / 2)}=v`,
    `http://h/?${"%".repeat(MB)}key=v`,
    `${"a".repeat(MB)}:`,
    `http://${"a@".repeat(MB / 2)}`,
    `http://h/?${"?#".repeat(MB / 2)}`,
  ];
  for (const url of hostile) {
    const started = performance.now();
    urlCredentials(url);
    const ms = performance.now() - started;
    assert.ok(ms < 1500, `${url.slice(0, 20)}...: ${ms.toFixed(0)} ms`);
  }
});

test("endpointTarget: user info becomes Basic authorization, the query is kept apart for every request", () => {
  assert.deepEqual(endpointTarget("http://user:pass@host/v1?api-key=K1&api-version=2"), { base: "http://host/v1", query: "api-key=K1&api-version=2", authorization: `Basic ${Buffer.from("user:pass").toString("base64")}` });
  // Percent-encoding is undone before encoding as Basic (RFC 7617: user-id ":" password, UTF-8).
  assert.deepEqual(endpointTarget("http://us%40er:p%3Aé@[::1]:8080/v1/#frag"), { base: "http://[::1]:8080/v1", query: "", authorization: `Basic ${Buffer.from("us@er:p:é").toString("base64")}` });
  assert.deepEqual(endpointTarget("https://api.openai.com/v1"), { base: "https://api.openai.com/v1", query: "" });
  assert.deepEqual(endpointTarget("http://HOST:8000/v1/"), { base: "http://HOST:8000/v1", query: "" });
  assert.equal(withQuery("http://h/v1/chat/completions", "key=1"), "http://h/v1/chat/completions?key=1");
  assert.equal(withQuery("http://h/v1/batches?limit=5", "key=1"), "http://h/v1/batches?limit=5&key=1");
  assert.equal(withQuery("http://h/v1", ""), "http://h/v1");
});

test("configuredKeys: credentials in the providers' base-URL variables are scrubbed like their keys", () => {
  const env = { OPENAI_API_KEY: "sk-env-key-1234", OPENAI_BASE_URL: "http://u1:pw-one@a/v1,http://b/v1?token=tok-two", GEMINI_BASE_URL: "http://g/?key=gem-three" };
  const keys = configuredKeys(env);
  for (const s of ["sk-env-key-1234", "pw-one", "u1", "tok-two", "gem-three", Buffer.from("u1:pw-one").toString("base64")]) assert.ok(keys.includes(s), s);
});

test("--queue: a base URL with credentials is refused before anything is stored; one without is not", () => {
  const spec = (base_url?: string | string[]): RunSpec => ({ version: 1, benchmark: "egopath", benchmarkOptions: {}, data: "/d", model: "anthropic:m", settings: base_url ? { base_url } : {}, promptSource: "release", control: "none", seed: 1, retryErrors: false });
  assert.doesNotThrow(() => refuseUrlCredentials(spec()));
  assert.doesNotThrow(() => refuseUrlCredentials(spec("http://host/v1?api-version=1")));
  assert.throws(
    () => refuseUrlCredentials(spec(["http://host/v1", "http://u:secret-pw@host2/v1"])),
    (e: Error) => e.message === `the base URL http://${R}@host2/v1 carries credentials, which --queue would store in the queue server's rows: export it as ANTHROPIC_BASE_URL on this machine and on every worker instead of giving --base-url or base_url`,
  );
  assert.throws(() => refuseUrlCredentials(spec("http://host/v1?key=abc,http://other/v1")), /base URL http:\/\/host\/v1\?key=\[redacted\] carries credentials/);
});

let mock: MockServer;
const seen: Array<{ url: string; authorization?: string; apiKey?: string }> = [];
before(async () => {
  mock = await startMockServer({
    onRequest: (req) => seen.push({ url: req.url ?? "", ...(req.headers.authorization && { authorization: req.headers.authorization }), ...(typeof req.headers["x-api-key"] === "string" && { apiKey: req.headers["x-api-key"] }) }),
    // The first attempt of every request echoes the credentials and URL it got into an error message.
    faults: (_req, attempt) => (attempt === 1 ? { type: "echo", into: "error-message", status: 500 } : undefined),
  });
});
after(() => mock.close());

test("a provider model sends user info as Basic authorization (in place of the Bearer key) and the query on every request; nothing shown or returned carries them", async () => {
  const hostPort = mock.url.slice("http://".length);
  const baseUrl = `http://alice:s3cret-Pw9@${hostPort}/v1?api-key=qk-77aa88bb99&api-version=2024-06-01`;
  const model = createProviderModel("openai:m", { baseUrl, env: { OPENAI_API_KEY: "sk-bearer-never-sent" }, maxAttempts: 2, backoffBaseMs: 1, adaptiveConcurrency: false });
  assert.equal(model.identity.endpoint, `http://${R}@${hostPort}/v1?api-key=${R}&api-version=2024-06-01`);
  // Stores written before the endpoint left the key hashed the URL as given: those lookups still find them.
  assert.deepEqual(modelEndpoints(model), [baseUrl]);
  const from = seen.length;
  const retries: string[] = [];
  const reply = await createProviderModel("openai:m", { baseUrl, env: { OPENAI_API_KEY: "sk-bearer-never-sent" }, maxAttempts: 2, backoffBaseMs: 1, adaptiveConcurrency: false, onRetry: (info) => retries.push(info.error.message) }).generate(makeRequest(), new AbortController().signal);
  assert.equal(reply.outcome, "ok", JSON.stringify(reply));
  const sent = seen.slice(from);
  assert.equal(sent.length, 2);
  for (const r of sent) {
    assert.equal(r.url, "/v1/chat/completions?api-key=qk-77aa88bb99&api-version=2024-06-01");
    assert.equal(r.authorization, `Basic ${Buffer.from("alice:s3cret-Pw9").toString("base64")}`);
  }
  // The echo (Basic value and URL with the key) reached the retry hook scrubbed.
  assert.equal(retries.length, 1);
  assert.match(retries[0]!, /\[redacted\]/);
  for (const secret of ["s3cret-Pw9", "qk-77aa88bb99", Buffer.from("alice:s3cret-Pw9").toString("base64")]) assert.ok(!retries[0]!.includes(secret), secret);
});

test("anthropic keeps its x-api-key beside the Basic authorization of user info; an error's message is scrubbed", async () => {
  const hostPort = mock.url.slice("http://".length);
  const model = createProviderModel("anthropic:claude-x", { baseUrl: `http://proxy-user:proxy-pass-42@${hostPort}?sig=sig-value-314`, env: { ANTHROPIC_API_KEY: "sk-ant-kept-0001" }, maxAttempts: 1, adaptiveConcurrency: false });
  const from = seen.length;
  const reply = await model.generate(makeRequest(), new AbortController().signal);
  assert.equal(reply.outcome, "error");
  const message = reply.error!.message;
  assert.match(message, /^HTTP 500: /);
  for (const secret of ["proxy-pass-42", "proxy-user", "sig-value-314", Buffer.from("proxy-user:proxy-pass-42").toString("base64"), "sk-ant-kept-0001"]) assert.ok(!message.includes(secret), `${secret} in ${message}`);
  assert.deepEqual(seen.slice(from), [{ url: "/v1/messages?sig=sig-value-314", authorization: `Basic ${Buffer.from("proxy-user:proxy-pass-42").toString("base64")}`, apiKey: "sk-ant-kept-0001" }]);
});
