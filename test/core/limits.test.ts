/**
 * The limits module (src/core/limits.ts, issue 25): each zod helper's range and its one wording.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { z } from "zod";
import { boundedArray, coordinate, degrees, fps, frameIndex, MAX_IMAGE_PIXELS, nonNegativeMetres, pictureSizeProblem, positiveMetres, rangeProblem, safeId, wholeNumber } from "../../src/core/limits.js";

/** The first issue's message for `value`, or null when it passes. */
const why = (schema: z.ZodType, value: unknown): string | null => {
  const parsed = schema.safeParse(value);
  return parsed.success ? null : parsed.error.issues[0]!.message;
};

test("each helper accepts its range and names it otherwise", () => {
  assert.equal(why(coordinate(), 9_999.5), null);
  assert.equal(why(coordinate(), 1e16), "must be between -10000 and 10000 (metres)");
  assert.equal(why(coordinate(), -1e16), "must be between -10000 and 10000 (metres)");
  assert.equal(why(fps(), 1000), null);
  assert.equal(why(fps(), 1e300), "must be above 0 and at most 1000 frames per second");
  assert.equal(why(fps(), 0), "must be above 0 and at most 1000 frames per second");
  assert.equal(why(frameIndex(), 10_000_000), null);
  assert.equal(why(frameIndex(), 10_000_001), "must be a whole number from 0 to 10000000");
  assert.equal(why(wholeNumber(1, 5), 2.5), "must be a whole number from 1 to 5");
  assert.equal(why(safeId(), 2 ** 53 - 1), null);
  assert.equal(why(safeId(), 2 ** 53 + 2), "must be a whole number within ±(2^53 - 1) (a safe integer)");
  assert.equal(why(nonNegativeMetres(10), -0.6), "must be between 0 and 10 (metres)");
  assert.equal(why(positiveMetres(10), 0), "must be above 0 and at most 10 (metres)");
  assert.equal(why(degrees(), 36_001), "must be between -36000 and 36000 (degrees)");
  assert.equal(why(boundedArray(z.number(), 3), [1, 2, 3, 4]), "must have at most 3 entries");
  // A number that is not a safe integer is one problem, not also "too big".
  assert.equal(wholeNumber(0, 10).safeParse(2 ** 60).error!.issues.length, 1);
});

test("plain checks for hand-written loaders: NaN and Infinity are out of every range; pictures beyond sharp's pixels", () => {
  assert.equal(rangeProblem(5, 0, 10), null);
  assert.equal(rangeProblem(Number.NaN, 0, 10, " (metres)"), "must be between 0 and 10 (metres), found NaN");
  assert.equal(rangeProblem(Infinity, 0, 10), "must be between 0 and 10, found Infinity");
  assert.equal(MAX_IMAGE_PIXELS, 268_402_689);
  assert.equal(pictureSizeProblem(16_383, 16_383), null);
  assert.equal(pictureSizeProblem(1e9, 1e9), "its header claims 1000000000x1000000000 pixels, more than the 268402689 sharp decodes");
});
