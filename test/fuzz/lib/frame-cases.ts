/**
 * Frame-spec fuzz cases (media/frames.ts): the index planners (uniformIndices, fpsIndices,
 * planFrameIndices, planSpanIndices) on the timestamps of a small real clip (50 frames at 10 fps:
 * long enough for fps 1e300 to stall, as issue 25 found), and sampleFrames on that clip, on a list
 * of images and on a folder of images, each with one extreme in the spec (a count, an fps, an index
 * list), the span or the options. The planners take specs of their type (extreme numbers);
 * sampleFrames, the public entry, also specs outside it (null, an unknown mode, strings). A case passes when it returns, or throws
 * a MediaError or the sampler's own argument error (a RangeError or TypeError that says what is
 * wrong), within the time limit; a hang, a crash or an engine error (a stack overflow, an array too
 * long) fails it.
 */
import type { FrameCase } from "./types.js";

/** Numbers a spec, span or option field gets (2^53 + 1 is 2^53 once a double: the point is its size). */
export const FRAME_NUMBERS: Array<[string, number]> = [
  ["0", 0],
  ["-1", -1],
  ["1.5", 1.5],
  ["1e16", 1e16],
  ["-1e16", -1e16],
  ["1e300", 1e300],
  ["1e-300", 1e-300],
  ["5e-324", 5e-324],
  ["2^53+1", 2 ** 53 + 1],
  ["NaN", Number.NaN],
  ["Infinity", Number.POSITIVE_INFINITY],
];

/** Extreme index lists: 200,000 valid indices, 150,000 out of range, negative, not integers, empty. */
function indexLists(): Array<[string, number[]]> {
  return [
    ["200k-valid", Array.from({ length: 200_000 }, (_, i) => i % 50)],
    ["150k-out-of-range", new Array(150_000).fill(1_000_000_000)],
    ["negative", [-1]],
    ["1e16", [1e16]],
    ["2^53+1", [2 ** 53 + 1]],
    ["NaN", [Number.NaN]],
    ["1.5", [1.5]],
    ["empty", []],
    ["valid", [0, 49, 3, 3]],
  ];
}

/** Every extreme spec of the FrameSpec type, named (the planners take these). */
export function extremeSpecs(): Array<[string, unknown]> {
  return [
    ...FRAME_NUMBERS.map(([name, count]): [string, unknown] => [`uniform count=${name}`, { mode: "uniform", count }]),
    ...FRAME_NUMBERS.map(([name, fps]): [string, unknown] => [`fps fps=${name}`, { mode: "fps", fps }]),
    ...indexLists().map(([name, indices]): [string, unknown] => [`indices ${name}`, { mode: "indices", indices }]),
    ["all", { mode: "all" }],
  ];
}

/** Specs outside the type too: sampleFrames, the public entry, checks what it is given. */
export function illTypedSpecs(): Array<[string, unknown]> {
  return [
    ["unknown mode", { mode: "every" }],
    ["null spec", null],
    ["fps as a string", { mode: "fps", fps: "30" }],
    ["count as a string", { mode: "uniform", count: "4" }],
    ["indices not a list", { mode: "indices", indices: 3 }],
  ];
}

const VALID_SPEC = { mode: "uniform", count: 4 };

/** The time limit of a planner call (sampleFrames has the suite's). */
export const PLANNER_LIMIT_MS = 3000;

/** Every frame case, in a fixed order. */
export function frameCases(): FrameCase[] {
  const cases: FrameCase[] = [];
  // A planner on 50 frames answers in microseconds: 3 s is plenty even on a loaded machine.
  const add = (id: string, call: string, args: unknown[]) => cases.push({ family: "frame-spec", id, call, args, ...(call === "sampleFrames" ? {} : { limitMs: PLANNER_LIMIT_MS }) });
  for (const [name, n] of FRAME_NUMBERS) add(`uniformIndices(50, ${name})`, "uniformIndices", [50, n]);
  for (const [name, n] of FRAME_NUMBERS) add(`uniformIndices(${name}, 4)`, "uniformIndices", [n, 4]);
  for (const [name, n] of FRAME_NUMBERS) add(`fpsIndices(clip, ${name})`, "fpsIndices", [n]);
  for (const [name, spec] of extremeSpecs()) add(`planFrameIndices(${name})`, "planFrameIndices", [spec]);
  for (const [name, spec] of extremeSpecs()) add(`planSpanIndices(${name}, span 2..47)`, "planSpanIndices", [spec, { first: 2, last: 47 }]);
  for (const [name, n] of FRAME_NUMBERS) {
    add(`planSpanIndices(uniform 4, span first=${name})`, "planSpanIndices", [VALID_SPEC, { first: n, last: 47 }]);
    add(`planSpanIndices(uniform 4, span last=${name})`, "planSpanIndices", [VALID_SPEC, { first: 2, last: n }]);
  }
  for (const source of ["video", "frames", "dir"]) {
    for (const [name, spec] of [...extremeSpecs(), ...illTypedSpecs()]) add(`sampleFrames(${source}, ${name})`, "sampleFrames", [source, spec, {}]);
  }
  for (const [name, n] of FRAME_NUMBERS) {
    add(`sampleFrames(video, uniform 4, maxPixels=${name})`, "sampleFrames", ["video", VALID_SPEC, { maxPixels: n }]);
    add(`sampleFrames(frames, fps 2, sourceFps=${name})`, "sampleFrames", ["frames", { mode: "fps", fps: 2 }, { sourceFps: n }]);
    add(`sampleFrames(video, uniform 4, span first=${name})`, "sampleFrames", ["video", VALID_SPEC, { span: { first: n, last: 47 } }]);
    add(`sampleFrames(video, uniform 4, span last=${name})`, "sampleFrames", ["video", VALID_SPEC, { span: { first: 2, last: n } }]);
  }
  return cases;
}
