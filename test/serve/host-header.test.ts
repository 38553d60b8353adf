import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { executeRun } from "../../src/core/session.js";
import { hostHeaderCount, startViewer, type Viewer } from "../../src/serve/server.js";

/** The viewer refuses requests with more than one Host header, and shows damaged folders instead of failing. */
const ROOT = path.resolve(import.meta.dirname, "../..");
const work = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-host-"));
const runDir = path.join(work, "oracle");
const damaged = path.join(work, "damaged");
let viewer: Viewer;
let port: number;

/** Send these exact header lines over a raw socket; the status line's code comes back. */
function raw(headerLines: string[], target = "/api/state"): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let data = "";
    socket.setEncoding("latin1");
    socket.on("connect", () => socket.write(`GET ${target} HTTP/1.1\r\n${headerLines.map((l) => `${l}\r\n`).join("")}Connection: close\r\n\r\n`));
    socket.on("data", (d) => (data += d));
    socket.on("error", reject);
    socket.on("end", () => {
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(data);
      resolve({ status: status ? Number(status[1]) : -1, body: data.slice(data.indexOf("\r\n\r\n") + 4) });
    });
  });
}

before(async () => {
  await executeRun({
    benchmark: "egopath", data: path.join(ROOT, "examples/egopath-mini"), out: runDir, model: "oracle", tasks: ["a2"],
    bootstrapResamples: 0, bootstrapSeed: 1, quiet: true, promptSource: "release", control: "none", seed: 1, flags: {}, retryErrors: false,
  });
  cpSync(runDir, damaged, { recursive: true });
  const items = path.join(damaged, "items.jsonl");
  const lines = readFileSync(items, "utf8").split("\n");
  lines[1] = lines[1]!.slice(0, 25);
  writeFileSync(items, lines.join("\n"));
  viewer = await startViewer({ dirs: [runDir, damaged], port: 0 });
  port = Number(new URL(viewer.url).port);
});
after(() => viewer.close());

test("hostHeaderCount counts Host headers in any letter case", () => {
  assert.equal(hostHeaderCount(["Host", "a", "Accept", "*/*", "HOST", "b"]), 2);
  assert.equal(hostHeaderCount(["Accept", "*/*"]), 0);
});

test("two Host headers (different or the same) are refused with 400; one right Host is served", async () => {
  const host = `Host: 127.0.0.1:${port}`;
  assert.equal((await raw([host])).status, 200);
  const twoDifferent = await raw([host, "Host: evil.example"]);
  assert.equal(twoDifferent.status, 400);
  assert.equal(twoDifferent.body, "a request needs exactly one Host header");
  assert.equal((await raw(["Host: evil.example", host])).status, 400);
  assert.equal((await raw([host, host])).status, 400);
  assert.equal((await raw([host, `host: 127.0.0.1:${port}`])).status, 400);
  assert.equal((await raw(["Host: evil.example"])).status, 403);
});

test("a damaged run folder is shown with its problem (file and line), not hidden and not fatal", async () => {
  const host = `Host: 127.0.0.1:${port}`;
  const state = JSON.parse((await raw([host])).body);
  assert.deepEqual(state.runs.map((r: { problems: number }) => r.problems), [0, 2]); // the torn line, and items.jsonl no longer what outputs.json records
  const finishedLines = readFileSync(path.join(runDir, "items.jsonl"), "utf8").trim().split("\n").length;
  assert.equal(state.runs[1].done, finishedLines - 1);
  const summary = (await raw([host], "/fragment/summary")).body;
  assert.ok(summary.startsWith('<div class="problems" role="alert"><h2>Problems in the run folders</h2>'));
  assert.ok(summary.includes(`<li>${path.join(damaged, "items.jsonl")}, line 2: not valid JSON (25 characters): a torn or damaged line</li>`));
});
