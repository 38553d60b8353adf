/**
 * JSON output mode per benchmark and task: which built prompts ask for it (BuiltPrompt.json), and
 * what each request then carries (settings.jsonOutput, the store key, response.json_output) with no
 * override, with --json-output and with --no-json-output.
 */
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { before, test } from "node:test";
import { generatePathEval } from "../../src/benchmarks/patheval/generate.js";
import { messagesMentionJson, type BenchItem, type BuiltPrompt, type PromptSetup } from "../../src/core/benchmark.js";
import { jsonModeByTask, requestKey, runItems, withJsonMode } from "../../src/core/run.js";
import { DEFAULT_SETTINGS, type Model, type ModelRequest } from "../../src/core/types.js";
import { getBenchmark } from "../../src/registry.js";
import { ResponseStore } from "../../src/store/store.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-json-mode-"));
process.env["SPATIALPROBE_FRAME_CACHE"] = path.join(tmp, "frames");
const PATHEVAL = path.join(tmp, "patheval");

before(async () => {
  await generatePathEval({ outDir: PATHEVAL, seed: 3, environments: 1, runsPerEnvironment: 4, testPerScenario: 1, workers: 1 });
});

interface Built {
  items: BenchItem[];
  build: (item: BenchItem) => BuiltPrompt | Promise<BuiltPrompt>;
  prompts: Array<{ item: BenchItem; prompt: BuiltPrompt }>;
}

async function buildAll(id: string, data: string, source: string): Promise<Built> {
  const benchmark = getBenchmark(id);
  const loaded = benchmark.load(data);
  assert.deepEqual(loaded.problems, []);
  const setup: PromptSetup = { source, control: benchmark.promptControls[0]!, seed: 1 };
  const items = benchmark.deriveItems ? benchmark.deriveItems(loaded.items, setup) : loaded.items;
  assert.ok(items.length > 0);
  const { build } = benchmark.preparePrompts(items, setup);
  const prompts = [];
  for (const item of items) prompts.push({ item, prompt: await build(item) });
  return { items, build, prompts };
}

/** Per task, the JSON decisions of its built prompts (each distinct value once); `skipErrors` passes over items whose prompt cannot be built. */
function decisions(built: Built, skipErrors = false): Record<string, boolean[]> {
  const byTask: Record<string, Set<boolean>> = {};
  for (const { item, prompt } of built.prompts) {
    if (skipErrors && "error" in prompt) continue;
    assert.ok(!("error" in prompt), `${item.id}: ${"error" in prompt ? prompt.error : ""}`);
    // JSON mode only where the prompt itself says "JSON" (OpenAI rejects json_object otherwise).
    if (prompt.json) assert.ok(messagesMentionJson(prompt.messages), item.id);
    (byTask[item.task] ??= new Set()).add(prompt.json === true);
  }
  return Object.fromEntries(Object.entries(byTask).map(([task, set]) => [task, [...set]]));
}

test("EgoPathBench: release prompts ask for a JSON object (and say so); our templates ask for a bare array, so plain text", async () => {
  const data = path.join(ROOT, "examples/egopath-mini");
  const release = await buildAll("egopath", data, "release");
  assert.deepEqual(decisions(release), { a1: [true], a2: [true], b1: [true], b2: [true], c: [true] });
  const templates = await buildAll("egopath", data, "templates");
  assert.deepEqual(decisions(templates), { a1: [false], a2: [false], b1: [false], b2: [false], c: [false] });
});

test("PathEval: every variant and probe is plain text (Answer: ... Explanation: ...)", async () => {
  for (const source of ["plain", "with-descriptors", "descriptors-only", "random-ids", "flipped", "attribute-abstraction", "fine-grained"]) {
    const built = await buildAll("patheval", PATHEVAL, source);
    const got = decisions(built);
    assert.ok(Object.keys(got).length > 0, source);
    for (const [task, values] of Object.entries(got)) assert.deepEqual(values, [false], `${source} ${task}`);
  }
});

test("EgoTL-Bench: only planning (a JSON object of scores and the best option) asks for JSON", async () => {
  const built = await buildAll("egotl", path.join(ROOT, "test/fixtures/egotl-legacy-mini"), "templates");
  assert.deepEqual(decisions(built), {
    planning: [true],
    scene_action: [false],
    next_action: [false],
    action_recognition: [false],
    direction: [false],
    distance: [false],
  });
});

test("EPIC-Bench: every sub-task's reply is a JSON object, in every overlay variant", async () => {
  const data = path.join(ROOT, "test/fixtures/epic/conformance");
  for (const source of ["mask-overlay", "box-overlay", "no-overlay"]) {
    // Some conformance rows lack the text a prompt needs (a prompt error, tested elsewhere); the rest decide.
    const got = decisions(await buildAll("epic", data, source), true);
    assert.ok(Object.keys(got).length > 0, source);
    for (const [task, values] of Object.entries(got)) assert.deepEqual(values, [true], `${source} ${task}`);
  }
});

test("VCN-Bench: every task asks for {\"frame\": n}, in every variant", async () => {
  for (const source of ["plain", "shuffled-frames", "counterfactual"]) {
    const got = decisions(await buildAll("vcn", path.join(ROOT, "test/fixtures/vcn-legacy-mini"), source));
    assert.deepEqual(Object.keys(got).sort(), ["count", "distance", "instance", "order", "orientation"], source);
    for (const values of Object.values(got)) assert.deepEqual(values, [true], source);
  }
});

test("withJsonMode: the override wins; JSON mode on messages without the word is a prompt error", () => {
  const says = { messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "Reply in Json." }] }], info: {}, json: true };
  const plain = { messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "Answer: Path 1 or Path 2." }] }], info: {}, json: false };
  assert.equal((withJsonMode(says, undefined) as { json: boolean }).json, true);
  assert.equal((withJsonMode(says, false) as { json: boolean }).json, false);
  assert.equal((withJsonMode(plain, undefined) as { json: boolean }).json, false);
  assert.equal((withJsonMode(plain, false) as { json: boolean }).json, false);
  const forced = withJsonMode(plain, true);
  assert.ok("error" in forced);
  assert.match(forced.error, /^--json-output \(or json_output: true in the config\) forces JSON output mode, but this item's messages never contain the word "JSON", and OpenAI rejects response_format json_object/);
  // A builder that claims JSON without saying it is caught the same way.
  const claims = withJsonMode({ ...plain, json: true }, undefined);
  assert.ok("error" in claims && claims.error.startsWith("the prompt asks for JSON output mode, but"));
  assert.deepEqual(withJsonMode({ error: "no partner" }, true), { error: "no partner" });
});

/** A model that records every request and answers "{}". */
function recorder(): { model: Model; seen: ModelRequest[] } {
  const seen: ModelRequest[] = [];
  const model: Model = {
    spec: "openai:recorder",
    identity: { provider: "openai", endpoint: "http://127.0.0.1:1", model: "recorder" },
    local: false,
    async generate(request) {
      seen.push(request);
      return { outcome: "ok", text: "{}", latencyMs: 1, attempts: 1 };
    },
  };
  return { model, seen };
}

async function runWith(id: string, data: string, source: string, jsonOverride: boolean | undefined, store?: ResponseStore) {
  const benchmark = getBenchmark(id);
  const built = await buildAll(id, data, source);
  const { model, seen } = recorder();
  const results = await runItems({
    benchmark,
    items: built.items,
    responder: { kind: "model", model },
    build: built.build,
    settings: DEFAULT_SETTINGS,
    ...(jsonOverride !== undefined ? { jsonOverride } : {}),
    ...(store ? { store } : {}),
    concurrency: 3,
    retryErrors: false,
    signal: new AbortController().signal,
  });
  return { built, model, seen, results };
}

const sentByTask = (seen: ModelRequest[], taskOf: Map<string, string>) => {
  const byTask: Record<string, boolean[]> = {};
  for (const request of seen) {
    const list = (byTask[taskOf.get(request.itemId)!] ??= []);
    if (!list.includes(request.settings.jsonOutput)) list.push(request.settings.jsonOutput);
  }
  return byTask;
};

test("what each request carries: per task by default, every item with --json-output, none with --no-json-output", async () => {
  const data = path.join(ROOT, "test/fixtures/egotl-legacy-mini");
  const storeFile = path.join(tmp, "egotl.sqlite");
  const store = new ResponseStore(storeFile);
  try {
    const perTask = await runWith("egotl", data, "templates", undefined, store);
    const taskOf = new Map(perTask.built.items.map((item) => [item.id, item.task]));
    assert.equal(perTask.seen.length, perTask.built.items.length);
    assert.deepEqual(sentByTask(perTask.seen, taskOf), { planning: [true], scene_action: [false], next_action: [false], action_recognition: [false], direction: [false], distance: [false] });
    assert.deepEqual(jsonModeByTask(perTask.results), { planning: true, scene_action: false, next_action: false, action_recognition: false, direction: false, distance: false });
    for (const result of perTask.results) assert.equal(result.response?.json_output, result.task === "planning");
    // The store key covers the settings actually sent: each reply is stored under the per-item setting.
    for (const { item, prompt } of perTask.built.prompts) {
      if ("error" in prompt) assert.fail(prompt.error);
      const sent = { ...DEFAULT_SETTINGS, jsonOutput: item.task === "planning" };
      assert.ok(store.get(requestKey(perTask.model, sent, prompt.messages)), item.id);
      assert.equal(store.get(requestKey(perTask.model, { ...sent, jsonOutput: !sent.jsonOutput }, prompt.messages)), undefined, item.id);
    }
  } finally {
    store.close();
  }

  // --json-output: planning goes with JSON mode; the other tasks never say "JSON", so they are prompt errors, never sent.
  const forcedOn = await runWith("egotl", data, "templates", true);
  const taskOf = new Map(forcedOn.built.items.map((item) => [item.id, item.task]));
  assert.deepEqual(sentByTask(forcedOn.seen, taskOf), { planning: [true] });
  for (const result of forcedOn.results) {
    if (result.task === "planning") {
      assert.equal(result.status, "scored");
      assert.equal(result.response?.json_output, true);
    } else {
      assert.equal(result.status, "error", result.id);
      assert.equal(result.response?.error?.kind, "prompt");
      assert.match(result.response!.error!.message, /never contain the word "JSON"/);
    }
  }

  // --no-json-output: nothing asks for JSON mode, planning included.
  const forcedOff = await runWith("egotl", data, "templates", false);
  assert.equal(forcedOff.seen.length, forcedOff.built.items.length);
  assert.ok(forcedOff.seen.every((request) => request.settings.jsonOutput === false));
  assert.deepEqual(jsonModeByTask(forcedOff.results), { planning: false, scene_action: false, next_action: false, action_recognition: false, direction: false, distance: false });
});

test("forced JSON mode on PathEval: every item is a prompt error and nothing is sent; the default sends plain text", async () => {
  const forced = await runWith("patheval", PATHEVAL, "plain", true);
  assert.equal(forced.seen.length, 0);
  assert.equal(forced.results.length, forced.built.items.length);
  for (const result of forced.results) {
    assert.equal(result.status, "error");
    assert.equal(result.response?.error?.kind, "prompt");
    assert.match(result.response!.error!.message, /OpenAI rejects response_format json_object without it/);
  }
  const plain = await runWith("patheval", PATHEVAL, "plain", undefined);
  assert.equal(plain.seen.length, plain.built.items.length);
  assert.ok(plain.seen.every((request) => request.settings.jsonOutput === false));
});

test("EgoPath release run: every request goes with JSON mode, and says JSON", async () => {
  const run = await runWith("egopath", path.join(ROOT, "examples/egopath-mini"), "release", undefined);
  assert.equal(run.seen.length, run.built.items.length);
  for (const request of run.seen) {
    assert.equal(request.settings.jsonOutput, true);
    assert.ok(messagesMentionJson(request.messages));
  }
});
