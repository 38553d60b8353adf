/**
 * `worker --path-map FROM=TO`: a worker whose machine keeps the data elsewhere reads it there. The
 * mapping is a pure rewrite of the spec's paths (checked field by field), and a queued run with the
 * data at another path on the worker's side gives the scores of a local run.
 */
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { mapPath, mapSpecPaths, parsePathMapping, type GenerateSpec, type NavigationSpec, type RunSpec } from "../../src/queue/spec.js";
import { startMockServer, type MockServer } from "../helpers/mock-server.js";
import { EXAMPLE, exampleItems, replyTable, requestSignature } from "../helpers/egopath-replies.js";
import { cli, exited, freshSchema } from "./helpers.js";

const maps = [parsePathMapping("/srv/data=/mnt/shared/data"), parsePathMapping("/srv=/home/me/srv/")];

test("mapPath: the folder itself and what is inside it move, the first mapping that applies wins; other paths and look-alike prefixes stay", () => {
  assert.equal(mapPath("/srv/data", maps), "/mnt/shared/data");
  assert.equal(mapPath("/srv/data/egopath/a1.json", maps), "/mnt/shared/data/egopath/a1.json");
  assert.equal(mapPath("/srv/templates/t.txt", maps), "/home/me/srv/templates/t.txt");
  assert.equal(mapPath("/srv-old/data", maps), "/srv-old/data");
  assert.equal(mapPath("/srv/database", maps), "/home/me/srv/database");
  assert.equal(mapPath("/opt/x", maps), "/opt/x");
});

test("parsePathMapping refuses anything but two absolute paths", () => {
  for (const bad of ["data=/x", "/x=data", "/x", "=/x", "/x="]) assert.throws(() => parsePathMapping(bad), /--path-map expects FROM=TO with two absolute paths/);
});

test("mapSpecPaths moves every path a worker reads, in each kind of spec, and nothing else", () => {
  const run: RunSpec = { version: 1, benchmark: "egotl", benchmarkOptions: { train: "/srv/data/egotl/train.jsonl" }, data: "/srv/data/egotl", model: "openai:m", settings: {}, promptSource: "release", control: "none", templateFile: "/srv/t.txt", seed: 1, retryErrors: false };
  assert.deepEqual(mapSpecPaths(run, maps), { ...run, benchmarkOptions: { train: "/mnt/shared/data/egotl/train.jsonl" }, data: "/mnt/shared/data/egotl", templateFile: "/home/me/srv/t.txt" });
  const nav = { version: 1, kind: "navigation", benchmark: "vcn", model: "m", data: "/srv/data/vcn", assetsDir: "/usr/share/sweethome3d/furniture" } as unknown as NavigationSpec;
  assert.deepEqual(mapSpecPaths(nav, maps), { ...nav, data: "/mnt/shared/data/vcn" });
  const gen: GenerateSpec = { version: 1, kind: "generate", benchmark: "patheval", model: "-", seed: 1, count: 2, extra: { environments: "/srv/data/envs", runs: "3", scenarios: "rel/s.txt" }, assetsDir: "/srv/furniture", command: "spatialprobe generate patheval --out /srv/out" };
  assert.deepEqual(mapSpecPaths(gen, maps), { ...gen, extra: { environments: "/mnt/shared/data/envs", runs: "3", scenarios: "rel/s.txt" }, assetsDir: "/home/me/srv/furniture" });
  assert.equal(mapSpecPaths(run, []), run);
});

const items = exampleItems();
const table = replyTable(items);
const ENV = { OPENAI_API_KEY: "sk-queue-path-map" };
let server: MockServer;
before(async () => {
  server = await startMockServer({ latencyMs: 10, reply: (req) => table.get(requestSignature(req)) ?? "no match" });
});
after(() => server.close());

test("a worker with the data at another path: refused without --path-map, answers the run with it, the same scores as a local run", async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-queue-path-map-"));
  const coordinatorData = path.join(tmp, "coordinator", "egopath");
  const workerData = path.join(tmp, "worker", "copy");
  mkdirSync(path.dirname(coordinatorData), { recursive: true });
  cpSync(EXAMPLE, coordinatorData, { recursive: true });
  cpSync(EXAMPLE, workerData, { recursive: true });
  const args = (data: string, out: string) => ["run", "egopath", "--data", data, "--model", "openai:mock-vlm", "--base-url", `${server.url}/v1`, "--concurrency", "4", "--bootstrap", "0", "--quiet", "--out", out];
  const local = await exited(cli(args(coordinatorData, path.join(tmp, "local")), ENV));
  assert.equal(local.code, 0, local.stderr);
  const db = await freshSchema();
  try {
    const coordinator = exited(cli([...args(coordinatorData, path.join(tmp, "queued")), "--queue", db.url, "--no-work"], ENV));
    for (let i = 0; i < 2400; i++) {
      const ready = await db.pool.query("SELECT 1 FROM work_items LIMIT 1").then((r) => r.rowCount! > 0, () => false);
      if (ready) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    // Mapped to a folder without the data: the worker reads there (not at the coordinator's path) and refuses.
    const empty = path.join(tmp, "empty");
    mkdirSync(empty);
    const refused = await exited(cli(["worker", "--queue", db.url, "--exit-when-idle", "--path-map", `${path.join(tmp, "coordinator")}=${empty}`], ENV));
    assert.equal(refused.code, 0, refused.stderr);
    assert.match(refused.stderr, new RegExp(`cannot work on run [0-9a-f]{16}: .*${empty.replace(/[/.]/g, "\\$&")}/egopath`));
    assert.match(refused.stderr, /0 items answered/);
    // Mapped to the copy: the worker answers every item.
    const mapped = await exited(cli(["worker", "--queue", db.url, "--exit-when-idle", "--path-map", `${path.join(tmp, "coordinator", "egopath")}=${workerData}`], ENV));
    assert.equal(mapped.code, 0, mapped.stderr);
    assert.match(mapped.stderr, new RegExp(`${items.length} items answered \\(0 errors\\)`));
    assert.equal((await coordinator).code, 0);
    const scores = (dir: string) => JSON.parse(readFileSync(path.join(tmp, dir, "scores.json"), "utf8")).tasks;
    assert.deepEqual(scores("queued"), scores("local"));
  } finally {
    await db.drop();
  }
});
