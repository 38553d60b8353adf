import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { loadPathEval } from "../../../src/benchmarks/patheval/load.js";
import { DESCRIPTORS } from "../../../src/benchmarks/patheval/scenarios.js";
import { TINY_PNG } from "../../helpers/media.js";

test("every variant and probe shows the scenario question: a blank one is a problem for requests, not for scoring", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-patheval-check-"));
  mkdirSync(path.join(root, "2D"));
  writeFileSync(path.join(root, "2D", "pair.png"), TINY_PNG);
  const metrics = Object.fromEntries(["Path 1", "Path 2"].map((p, k) => [p, Object.fromEntries(DESCRIPTORS.map((d) => [d, k + 1]))]));
  const record = (id: number, question: string) => ({ id, image: "pair.png", conversations: [{ from: "human", value: question }, { from: "gpt", value: "Path 1" }], metrics });
  writeFileSync(path.join(root, "2D", "test_dataset_2D.json"), JSON.stringify([record(1, "A drone must fly low. Which path is better?"), record(2, " \n\t")]));
  const file = path.join("2D", "test_dataset_2D.json");
  for (const source of ["plain", "with-descriptors", "descriptors-only", "random-ids", "flipped", "attribute-abstraction", "fine-grained"]) {
    assert.deepEqual(loadPathEval(root, { requests: { source } }).problems, [
      { file, field: "[1].conversations[0].value", message: "is blank; the prompt asks it (the scenario question)" },
    ], source);
  }
  assert.deepEqual(loadPathEval(root).problems, []);
});
