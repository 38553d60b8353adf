/**
 * The frame spec as data files write it (EgoTL-Bench `media.spec`, VCN-Bench `tour.spec`): one zod
 * schema for both, with every number bounded (core/limits.ts): an fps of 1e300 once made the
 * sampler's loop stand still (frames.ts fpsIndices), and an unbounded list of indices lets one row
 * ask for any amount of work. The sampler's rules for each mode are in frames.ts.
 */
import { z } from "zod";
import { boundedArray, fps, frameIndex, MAX_FRAMES_PER_SPEC, wholeNumber } from "../core/limits.js";

export const frameSpecSchema = z.discriminatedUnion("mode", [
  z.strictObject({ mode: z.literal("uniform"), count: wholeNumber(1, MAX_FRAMES_PER_SPEC).describe("frames spread evenly over the whole video") }),
  z.strictObject({ mode: z.literal("fps"), fps: fps().describe("frames per second of video time") }),
  z.strictObject({ mode: z.literal("indices"), indices: boundedArray(frameIndex(), MAX_FRAMES_PER_SPEC).min(1).describe("0-based frame indices") }),
  z.strictObject({ mode: z.literal("all") }),
]);

export type FrameSpecData = z.infer<typeof frameSpecSchema>;
