/**
 * VCN-Bench on the queue: one job per house. A house and its tours (the renders, the expensive
 * part) come from (seed, h) and the options alone (construct/index.ts vcnHouseJob: house stream
 * deriveSeed(seed, 1000 + h), tour streams deriveSeed(seed, 2000 + h)), so a worker builds the
 * house, renders its tours and stores scene.json and the tours' files. The episode draw cannot be
 * a job: a house's quota per instruction type is what the houses before it left unfilled and the
 * episode ids run on across houses. The coordinator runs it in house order (VcnAssembly, the
 * local generator's own assembly), rebuilding each house's geometry from (seed, h) for the draw
 * and the four initial views of its episodes.
 */
import type { VcnHouseRecord, VcnRun } from "../../benchmarks/vcn/construct/index.js";
import type { GenerateSpec } from "../spec.js";
import type { QueuedGenerator } from "./types.js";

const construct = () => import("../../benchmarks/vcn/construct/index.js");

async function runOf(spec: GenerateSpec, outDir: string, log?: (line: string) => void): Promise<VcnRun> {
  const { vcnRun } = await construct();
  return vcnRun({ outDir, seed: spec.seed, count: spec.count, extra: spec.extra, ...(spec.assetsDir ? { assetsDir: spec.assetsDir } : {}), command: spec.command, ...(log ? { log } : {}) });
}

export const vcnGenerator: QueuedGenerator = {
  benchmark: "vcn",
  unit: "houses",
  async plan(request, spec) {
    const run = await runOf(spec, request.outDir);
    const { vcnSceneId } = await construct();
    return { jobIds: Array.from({ length: run.houseCount }, (_, h) => vcnSceneId(h)) };
  },
  async open(spec) {
    const { vcnHouseJob, vcnShared } = await construct();
    const run = await runOf(spec, "");
    const shared = vcnShared(spec.assetsDir);
    return {
      async run(index) {
        const { record, files } = await vcnHouseJob(run, index, shared);
        return { record: JSON.stringify(record satisfies VcnHouseRecord), files };
      },
      close: () => shared.library.close(),
    };
  },
  async assemble(request, spec, jobs) {
    const { VcnAssembly, vcnShared } = await construct();
    const run = await runOf(spec, request.outDir, request.log);
    const shared = vcnShared(spec.assetsDir);
    try {
      const assembly = await VcnAssembly.begin(run, shared, request.log);
      // One house's files in memory at a time, in house order, each house as soon as its job is
      // done: the assembly overlaps the workers' later houses.
      for await (const job of jobs.inOrder()) {
        await assembly.addHouse(job.index, { record: JSON.parse(job.record) as VcnHouseRecord, files: await jobs.files(job.index) });
      }
      return await assembly.finish();
    } finally {
      shared.library.close();
    }
  },
};
