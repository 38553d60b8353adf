/**
 * Fuzz suite over the frame spec (issue 25, item 6; media/frames.ts): uniformIndices, fpsIndices,
 * planFrameIndices and planSpanIndices on the timestamps of a small real clip, and sampleFrames on
 * that clip, a list of images and a folder of images, each call with one extreme in the spec
 * (count, fps, index lists of 200,000 valid or 150,000 out-of-range entries, negative, NaN,
 * 2^53 + 1, 1e300, 1e-300), the span or an option (maxPixels, sourceFps). The cases are listed in
 * lib/frame-cases.ts and run in worker processes under a hard time limit (lib/pool.ts).
 *
 * A case passes when, within the limit (3 s for a planner, 10 s for sampleFrames), the call
 * returns, or throws a MediaError or the sampler's own argument error (a RangeError / TypeError
 * with its message, not an engine failure such as a stack overflow or an array too long), and
 * opens nothing forbidden (lib/guard.ts: the canary, /etc/passwd, /dev/zero, a FIFO).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";
import { frameCases } from "./lib/frame-cases.js";
import { runCases } from "./lib/pool.js";
import { LIMIT_MS, logResult, prepareSuite, recordSummary, selected, summaryLine, WORKERS, type Suite } from "./lib/suite.js";
import type { CaseResult, FrameCase, ThrownError } from "./lib/types.js";
import { commonFailures, isEngineMessage } from "./lib/verdicts.js";

let suite: Suite;
let cases: FrameCase[];
let results: CaseResult[];
let wallMs = 0;

before(async () => {
  suite = await prepareSuite("frames");
  cases = selected(frameCases());
  const began = performance.now();
  results = await runCases(cases, { size: WORKERS, limitMs: LIMIT_MS, onResult: logResult, init: { role: "cases", canary: suite.canary, scratch: path.join(suite.dir, "scratch"), media: { dir: suite.media } } });
  wallMs = performance.now() - began;
});

after(() => suite?.close());

/** MediaError, or an argument check of the sampler (a RangeError or TypeError that is not the engine's own). */
const accepted = (error: ThrownError) => error.name === "MediaError" || ((error.name === "RangeError" || error.name === "TypeError") && !isEngineMessage(error.message) && !/stack|allocation|Invalid array length/i.test(error.message));

test("every frame-spec case returns or throws a MediaError / argument error within the limit", () => {
  const failures = cases.flatMap((fuzzCase, i) => {
    const why = commonFailures(results[i]!, accepted);
    return why.length > 0 ? [`- ${fuzzCase.id}\n    ${why.join("\n    ")}`] : [];
  });
  assert.equal(failures.length, 0, `${failures.length} failing case(s) (run one again with SPATIALPROBE_FUZZ_ONLY='<id>'):\n${failures.join("\n")}`);
});

test("summary", (t) => {
  const failing = results.filter((r) => commonFailures(r, accepted).length > 0).length;
  t.diagnostic(summaryLine("frame-spec", results, wallMs));
  t.diagnostic(recordSummary("frame-spec", results, wallMs, failing));
});
