/**
 * Pictures a dataset names must have a header sharp can decode (src/media/image-check.ts, issue
 * 25): a header claiming more than sharp's 268,402,689 pixels, or none readable, is a problem
 * naming the file.
 */
import assert from "node:assert/strict";
import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { MAX_IMAGE_PIXELS, pictureSizeProblem } from "../../src/core/limits.js";
import { ImageHeaderChecker, imageHeaderProblem } from "../../src/media/image-check.js";
import { pngClaiming, TINY_PNG } from "../helpers/media.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-image-check-"));
const file = (name: string, bytes: Buffer) => {
  writeFileSync(path.join(dir, name), bytes);
  return path.join(dir, name);
};

test("a header claiming 1e9 x 1e9 pixels is a problem naming the file; sharp's own limit (0x3FFF squared) is the bound", () => {
  assert.equal(MAX_IMAGE_PIXELS, 268_402_689);
  assert.equal(imageHeaderProblem(file("big.png", pngClaiming(1e9, 1e9)), "views/big.png"), "image views/big.png: its header claims 1000000000x1000000000 pixels, more than the 268402689 sharp decodes");
  assert.equal(imageHeaderProblem(file("edge.png", pngClaiming(0x3fff, 0x3fff)), "edge.png"), null, "exactly sharp's limit decodes");
  assert.equal(imageHeaderProblem(file("over.png", pngClaiming(0x3fff + 1, 0x3fff)), "over.png"), "image over.png: its header claims 16384x16383 pixels, more than the 268402689 sharp decodes");
  assert.equal(imageHeaderProblem(file("zero.png", pngClaiming(0, 5)), "zero.png"), "image zero.png: its header gives a size of 0x5 pixels");
  assert.equal(imageHeaderProblem(file("tiny.png", TINY_PNG), "tiny.png"), null);
});

test("a header cut short, or a file that cannot be read, is a problem too", () => {
  assert.equal(imageHeaderProblem(file("cut.png", TINY_PNG.subarray(0, 20)), "cut.png"), "image cut.png: its size cannot be read from its header");
  assert.equal(imageHeaderProblem(path.join(dir, "missing.png"), "missing.png"), "image missing.png was not found");
  // The header is read as a dataset file (core/file-read.ts): never through a link.
  symlinkSync(file("target.png", TINY_PNG), path.join(dir, "linked.png"));
  assert.equal(imageHeaderProblem(path.join(dir, "linked.png"), "linked.png"), "image linked.png is a symbolic link; links in a dataset are not followed");
});

test("the checker reads each file once per load", () => {
  const big = file("shared.png", pngClaiming(1e9, 2));
  const checker = new ImageHeaderChecker();
  assert.match(checker.problem(big, "a/shared.png")!, /^image a\/shared\.png: /);
  writeFileSync(big, TINY_PNG);
  assert.match(checker.problem(big, "b/shared.png")!, /^image a\/shared\.png: /, "the first verdict is kept");
  assert.equal(pictureSizeProblem(100, 100), null);
});
