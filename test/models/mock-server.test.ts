/** The mock server as its own process, as bench scripts and kill -9 tests use it. */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { createProviderModel } from "../../src/models/provider.js";
import { makeRequest } from "../helpers/mock-server.js";

const MAIN = fileURLToPath(new URL("../helpers/mock-server-main.ts", import.meta.url));

test("mock-server-main prints its URL, answers from the reply file, and dies on SIGKILL", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mock-main-"));
  const replyFile = join(dir, "replies.json");
  writeFileSync(replyFile, JSON.stringify({ "[[item:a]]": '{"display_ids":[2,3]}', "[[item:b]]": '{"display_ids":[4]}' }));
  const child = spawn(process.execPath, ["--import", "tsx", MAIN, "--latency-ms", "20", "--reply-file", replyFile], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`mock server exited early (${code})`)));
    });
    const { url } = JSON.parse(line) as { url: string };
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const model = createProviderModel("openai:m", { baseUrl: `${url}/v1`, env: {} });
    const signal = new AbortController().signal;
    assert.equal((await model.generate(makeRequest(["Pick. [[item:b]]"]), signal)).text, '{"display_ids":[4]}');
    assert.equal((await model.generate(makeRequest(["[[item:a]] go"]), signal)).text, '{"display_ids":[2,3]}');
    assert.equal((await model.generate(makeRequest(["other"]), signal)).text, '{"display_ids":[1]}');
  } finally {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
});

test("mock-server-main --echo answers every request with the echoed credential, cut as asked", async () => {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN, "--echo", "reply", "--echo-cut", "27"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`mock server exited early (${code})`)));
    });
    const { url } = JSON.parse(line) as { url: string };
    const key = "sk-main-echo-0123456789";
    const model = createProviderModel("openai:m", { baseUrl: `${url}/v1`, env: { OPENAI_API_KEY: key } });
    // "authorization: Bearer " is 22 characters: the cut keeps 5 of the key, too few to redact.
    assert.equal((await model.generate(makeRequest(["hi"]), new AbortController().signal)).text, "authorization: Bearer sk-ma");
  } finally {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
  }
});
