/**
 * Issue 25: credentials inside base URLs (user info, ?api-key=...) given by --base-url (two
 * endpoints, comma-separated), by a config file's base_url, by OPENAI_BASE_URL, and for --batch.
 * The strict mock server gets them (user info as Basic authorization, the query on every request)
 * and echoes them back, in plain text, into replies and error messages. No file of any run folder
 * (SQLite bytes included), no report and nothing on stdout/stderr may hold the password, the
 * username, the key values, the Basic value, or any 8-character piece of them. The built CLI runs
 * (npm test builds dist/ first).
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { ROOT, runCli } from "../helpers/cli.js";
import { filesUnder } from "../helpers/files.js";
import { echoText, startMockServer, type MockServer } from "../helpers/mock-server.js";

const EXAMPLE = path.join(ROOT, "examples/egopath-mini");

const USER = "probe-user-7";
const PASS = "p@ss:w0rd/Zq-51";
const KEY = "qk-4f7c9e2a1b";
const KEY2 = "tk-88d0e1c2f3";
const BASIC = Buffer.from(`${USER}:${PASS}`).toString("base64");
/** Every spelling a leak could take. */
const SECRETS = [USER, PASS, encodeURIComponent(PASS), KEY, KEY2, BASIC];

/** Whole secrets and 8-character pieces of them found in `text`, computed without the code under test. */
function leaks(text: string): string[] {
  const found = new Set<string>();
  for (const s of SECRETS) {
    if (text.includes(s)) found.add(s);
    for (let i = 0; i + 8 <= s.length; i++) if (text.includes(s.slice(i, i + 8))) found.add(s.slice(i, i + 8));
  }
  return [...found];
}

/** What a careless server says back: the credential headers and URL it got, and the Basic credentials decoded. */
function echoed(req: { path: string; headers: IncomingMessage["headers"] }): string {
  const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
  return `${echoText(req)}\nuser:password ${basic ? Buffer.from(basic, "base64").toString("utf8") : "(none)"}`;
}

const dirs: string[] = [];
function tmp(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-urlcred-"));
  dirs.push(dir);
  return dir;
}

let mock: MockServer;
/** Every request (batch routes included): its URL and Authorization header. */
const received: Array<{ url: string; authorization?: string }> = [];
/** Distinct questions (by body hash) in order: every third one's echo is an error, the others' a reply. */
const order = new Map<string, number>();
before(async () => {
  mock = await startMockServer({
    strict: true,
    onRequest: (req) => received.push({ url: req.url ?? "", ...(req.headers.authorization && { authorization: req.headers.authorization }) }),
    reply: (req) => `{"display_ids":[1]}\n${echoed(req)}`,
    faults: (req) => {
      if (!order.has(req.key)) order.set(req.key, order.size);
      return order.get(req.key)! % 3 === 0 ? { type: "echo", into: "error-message" } : undefined;
    },
    batch: { pollsToEnd: 1 },
  });
});
after(async () => {
  await mock.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The built CLI with no OpenAI key or base URL from this machine's environment. */
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { OPENAI_API_KEY: "", OPENAI_BASE_URL: "", ...env });

const runArgs = (out: string, ...extra: string[]) => [
  "run", "egopath", "--data", EXAMPLE, "--limit", "3", "--model", "openai:mock-vlm", "--out", out,
  "--max-attempts", "1", "--concurrency", "4", "--bootstrap", "0", ...extra,
];

test("credentials in base URLs reach the server and no output file, report or terminal", async () => {
  const hostPort = mock.url.slice("http://".length);
  const withCredentials = `http://${USER}:${encodeURIComponent(PASS)}@${hostPort}/v1?api-key=${KEY}&api-version=2024-06-01`;
  const withToken = `http://${hostPort}/v1?token=${KEY2}`;
  const shownFirst = `http://[redacted]@${hostPort}/v1?api-key=[redacted]&api-version=2024-06-01`;
  const shownSecond = `http://${hostPort}/v1?token=[redacted]`;
  const outs = { flag: tmp(), config: tmp(), env: tmp(), batch: tmp() };
  // The config file holds the URL itself, so it lives outside every searched folder.
  const config = path.join(tmp(), "config.yaml");
  writeFileSync(config, `base_url: "${withCredentials}"\n`);

  const runs = await Promise.all([
    cli(runArgs(outs.flag, "--base-url", `${withCredentials},${withToken}`)),
    cli(runArgs(outs.config, "--config", config)),
    cli(runArgs(outs.env), { OPENAI_BASE_URL: withCredentials }),
    cli(runArgs(outs.batch, "--base-url", withCredentials, "--batch", "--batch-poll", "0.05")),
  ]);
  // A third of the questions are answered with an error (in the batch too): the runs are incomplete (exit 3).
  for (const r of runs) assert.equal(r.code, 3, r.stderr);

  // The server got the credentials: user info as Basic authorization, the query on every request, batch calls included.
  assert.ok(received.some((r) => r.url === `/v1/chat/completions?api-key=${KEY}&api-version=2024-06-01` && r.authorization === `Basic ${BASIC}`));
  assert.ok(received.some((r) => r.url === `/v1/chat/completions?token=${KEY2}` && r.authorization === undefined));
  for (const route of ["/v1/files?", "/v1/batches?"]) assert.ok(received.some((r) => r.url.startsWith(route) && r.url.includes(`api-key=${KEY}`) && r.authorization === `Basic ${BASIC}`), route);
  assert.equal(mock.stats.rejected.length, 0, JSON.stringify(mock.stats.rejected));
  assert.equal(mock.batchStats.created.length, 1);

  // What is shown instead.
  for (const [name, out] of Object.entries(outs)) {
    const scores = JSON.parse(readFileSync(path.join(out, "scores.json"), "utf8"));
    assert.equal(scores.endpoint, name === "flag" ? `${shownFirst},${shownSecond}` : shownFirst, name);
    if (name !== "batch") assert.deepEqual(scores.traffic.endpoints.map((e: { url: string }) => e.url), name === "flag" ? [shownFirst, shownSecond] : [shownFirst], name);
  }
  // The echoes did arrive, redacted: in replies and in error messages.
  const items = readFileSync(path.join(outs.flag, "items.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  assert.ok(items.some((r) => r.status !== "error" && String(r.reply).includes("user:password [redacted]")), "reply echo");
  assert.ok(items.some((r) => r.status === "error" && /^HTTP 400: .*\[redacted\]/s.test(r.response.error.message)), "error echo");

  // The same command again reuses every stored reply: nothing is asked.
  const before = mock.stats.requests;
  const again = await cli(runArgs(outs.flag, "--base-url", `${withCredentials},${withToken}`));
  assert.equal(again.code, 3, again.stderr);
  assert.equal(mock.stats.requests, before);

  // Reports of all four runs: markdown, CSV and LaTeX on stdout, HTML (its gallery shows every reply; no pictures, to be quick) in a run folder.
  const all = Object.values(outs);
  const reports = await Promise.all([
    cli(["report", ...all]),
    cli(["report", ...all, "--format", "csv"]),
    cli(["report", ...all, "--format", "latex"]),
    cli(["report", ...all, "--format", "html", "--max-size", "0", "--out", path.join(outs.flag, "report.html")]),
  ]);
  for (const r of reports) assert.equal(r.code, 0, r.stderr);
  // The page does show the replies (redacted), so searching it means something.
  assert.match(readFileSync(path.join(outs.flag, "report.html"), "utf8"), /user:password \[redacted\]/);

  for (const [name, out] of Object.entries(outs)) {
    const files = filesUnder(out);
    for (const f of ["scores.json", "items.jsonl", "predictions.jsonl", "report.md", "responses.sqlite"]) assert.ok(files.has(f), `${name}: ${f}`);
    for (const [file, text] of files) assert.deepEqual(leaks(text), [], `${name}/${file}`);
  }
  for (const r of [...runs, again, ...reports]) assert.deepEqual(leaks(r.stdout + r.stderr), [], r.stdout + r.stderr);
});

test("an invalid base URL with credentials is named without them", async () => {
  const out = tmp();
  const r = await cli(runArgs(out, "--base-url", `http://${USER}:${PASS}@bad host/v1?api-key=${KEY}`));
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.trim(), `error: invalid base URL for openai: "http://[redacted]@bad host/v1?api-key=[redacted]"`);
  assert.deepEqual(leaks(r.stdout + r.stderr + [...filesUnder(out).values()].join("")), []);
});

test("--queue refuses a base URL with credentials before connecting, and names it redacted", async () => {
  const out = tmp();
  const hostPort = mock.url.slice("http://".length);
  const r = await cli(runArgs(out, "--base-url", `http://${USER}:${encodeURIComponent(PASS)}@${hostPort}/v1?api-key=${KEY}`, "--queue", "postgres://u:p@127.0.0.1:1/db"));
  assert.equal(r.code, 2, r.stderr);
  assert.equal(
    r.stderr.trim(),
    `error: the base URL http://[redacted]@${hostPort}/v1?api-key=[redacted] carries credentials, which --queue would store in the queue server's rows: export it as OPENAI_BASE_URL on this machine and on every worker instead of giving --base-url or base_url`,
  );
  assert.deepEqual(leaks(r.stdout + r.stderr), []);
});
