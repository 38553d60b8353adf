import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { test } from "node:test";
import { generateQueuedAndLocally } from "./generate-helpers.js";

/**
 * `generate vcn --queue` with worker processes: one job per house (the house and its rendered
 * tours); the coordinator draws the episodes in house order (a house's quotas are what the houses
 * before it left, episode ids run on) and writes byte for byte the set a local generate writes
 * with the same command.
 */

const ARGS = ["generate", "vcn", "--count", "5", "--seed", "5", "--set", "houses=2", "rooms=7-10", "size=64", "fps=2", "frames=60", "area=1", "speed=0.8", "turn=90"];

test("generate vcn --queue with 2 workers writes the same bytes as a local generate; a killed worker's house is made again; houses are assembled as their jobs are done", { timeout: 300_000 }, async () => {
  // The coordinator assembles house_001 while house_002's job is held back: the assembly streams.
  await generateQueuedAndLocally(ARGS, { benchmark: "vcn", jobs: 2, unit: "houses", assembledBeforeLastJob: /^house_001: /m }, ({ local, run, reference }) => {
    // Both houses have episodes, so the second house's quota came from what the first left.
    const { episodes } = JSON.parse(gunzipSync(readFileSync(path.join(reference, "episodes.json.gz"))).toString("utf8")) as { episodes: Array<{ scene_id: string }> };
    assert.deepEqual([...new Set(episodes.map((e) => e.scene_id))].sort(), ["house_001", "house_002"]);
    assert.equal(run.stdout, local.stdout);
    // The coordinator prints the local generate's house lines (rooms, tour frames, plans, episodes).
    const houseLines = (stderr: string) => stderr.split("\n").filter((l) => /^house_\d+: /.test(l));
    assert.equal(houseLines(local.stderr).length, 2);
    assert.deepEqual(houseLines(run.stderr), houseLines(local.stderr));
  });
});
