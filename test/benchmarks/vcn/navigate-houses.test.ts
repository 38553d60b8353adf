import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { HousePlans } from "../../../src/benchmarks/vcn/navigate/houses.js";
import { loadNavTasks } from "../../../src/benchmarks/vcn/navigate/tasks.js";

const DATA = path.resolve(import.meta.dirname, "../../../examples/vcn-mini");

test("the region of a position: every episode's start lies in the item's initial room", () => {
  const plans = new HousePlans(DATA);
  const initialRoom = new Map(readFileSync(path.join(DATA, "items.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l)).map((i) => [i.episode_id, i.meta.initial_room]));
  for (const t of loadNavTasks(DATA).tasks) assert.equal(plans.regionAt(t.env.scene_id, t.env.start_position), initialRoom.get(t.id), t.id);
  assert.equal(plans.regionAt("house_001", [-50, 0, 50]), null, "outside every room");
  assert.equal(plans.regionAt("no_such_house", [0, 0, 0]), undefined, "no plan: no room information");
});

test("a house plan reached through a link out of the data folder is not read", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-plans-"));
  const outside = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-outside-"));
  copyFileSync(path.join(DATA, "houses/house_001/scene.json"), path.join(outside, "scene.json"));
  mkdirSync(path.join(root, "houses/inside"), { recursive: true });
  copyFileSync(path.join(DATA, "houses/house_001/scene.json"), path.join(root, "houses/inside/scene.json"));
  mkdirSync(path.join(root, "houses/linked"), { recursive: true });
  symlinkSync(path.join(outside, "scene.json"), path.join(root, "houses/linked/scene.json"));
  const plans = new HousePlans(root);
  assert.notEqual(plans.scene("inside"), null);
  assert.equal(plans.scene("linked"), null);
  assert.notEqual(new HousePlans(root, { allowOutsideRoot: true }).scene("linked"), null);
});
