/**
 * `generate egopath --queue` (docs/queue.md): one work item per house. EgoPathBench's generator
 * makes house s from (seed, s) and the options alone (construct/index.ts generateEgoPathHouse), so
 * a worker builds, renders and labels one house and stores its files and rows on the server,
 * marking the item done in the same transaction; when every house is done the coordinator puts
 * them together with the local generator's own assembly (assembleEgoPathRelease): the same bytes
 * as a local `generate` with the same command.
 */
import path from "node:path";
import type pg from "pg";
import { UsageError } from "../core/problems.js";
import { checkSeedAndSize, generateCommand } from "../benchmarks/generate-settings.js";
import type { GenerateEgoPathOptions, EgoPathHouse, EgoPathShared } from "../benchmarks/egopath/construct/index.js";
import { connectQueue } from "./connect.js";
import { enqueueAndWait } from "./coordinator.js";
import { itemResults, storeItemResult, type ClaimedItem } from "./queue.js";
import type { GenerateSpec } from "./spec.js";

/** The generators whose work splits into independent jobs. */
export const QUEUED_GENERATORS = ["egopath"];

/** A generator run as a worker holds it: the generator's options and the furniture catalogue, models and textures. */
export interface GenerateContext {
  kind: "generate";
  options: GenerateEgoPathOptions;
  shared: EgoPathShared;
  sceneIds: string[];
  close(): void;
}

const construct = () => import("../benchmarks/egopath/construct/index.js");

async function generatorOptions(spec: Pick<GenerateSpec, "seed" | "count" | "extra" | "assetsDir" | "command">, outDir: string): Promise<GenerateEgoPathOptions> {
  const { generateOptions } = await construct();
  checkSeedAndSize(spec.seed, "scenes", spec.count);
  return { outDir, seed: spec.seed, scenes: spec.count, ...(spec.assetsDir ? { assetsDir: spec.assetsDir } : {}), command: spec.command, ...generateOptions(spec.extra) };
}

/** Prepares a queued generator run on this machine; the house ids must be the queued ones. */
export async function rebuildGenerate(spec: GenerateSpec, itemIds: readonly string[]): Promise<GenerateContext> {
  if (spec.version !== 1) throw new UsageError(`queued generator spec version ${String(spec.version)} is not one this spatialprobe reads (1)`);
  if (!QUEUED_GENERATORS.includes(spec.benchmark)) throw new UsageError(`this spatialprobe cannot run ${spec.benchmark} generator jobs from a queue (it can: ${QUEUED_GENERATORS.join(", ")})`);
  const { egoPathSceneId, egoPathShared } = await construct();
  const options = await generatorOptions(spec, "");
  const sceneIds = Array.from({ length: spec.count }, (_, s) => egoPathSceneId(s));
  if (sceneIds.length !== itemIds.length || sceneIds.some((id, i) => id !== itemIds[i])) throw new UsageError(`the queued houses (${itemIds.length}) are not the ${sceneIds.length} this generator makes`);
  const shared = egoPathShared(spec.assetsDir);
  return { kind: "generate", options, shared, sceneIds, close: () => shared.library.close() };
}

/** The JSON of a house without its files (those go to item_files). */
type HouseRecord = Omit<EgoPathHouse, "files">;

/** Makes one claimed house and stores its files and rows with its completion. */
export async function runQueuedHouse(pool: pg.Pool, context: GenerateContext, claim: ClaimedItem): Promise<void> {
  if (context.sceneIds[claim.index] !== claim.itemId) throw new Error(`run ${claim.runId}: house ${claim.index} is ${context.sceneIds[claim.index]} here, ${claim.itemId} in the queue`);
  const { generateEgoPathHouse } = await construct();
  const { files, ...record } = await generateEgoPathHouse(context.options, claim.index, context.shared);
  // Text files as their UTF-8 bytes: what writeFileSet writes for a string.
  const bytes = new Map([...files].map(([rel, content]) => [rel, typeof content === "string" ? Buffer.from(content, "utf8") : content]));
  await storeItemResult(pool, claim.runId, { index: claim.index, itemId: claim.itemId, record: JSON.stringify(record satisfies HouseRecord), files: bytes }, false);
}

export interface QueuedGenerate {
  url: string;
  work: boolean;
  concurrency?: number;
  leaseSeconds?: number;
  signal?: AbortSignal;
}

/**
 * `generate <benchmark> --queue URL`: enqueue one job per house (or attach to the run: its id is a
 * hash of the spec and the house ids), make houses here too unless told not to, wait until every
 * house is done, then assemble and write the set as a local generate does. Returns its summary line.
 */
export async function generateOnQueue(benchmark: string, o: { outDir: string; seed: number; count: number; extra: Record<string, string>; assetsDir?: string; log: (line: string) => void }, queue: QueuedGenerate): Promise<string> {
  if (!QUEUED_GENERATORS.includes(benchmark)) {
    throw new UsageError(`generate --queue supports ${QUEUED_GENERATORS.join(", ")}; the ${benchmark} generator does not split into independent jobs yet (docs/queue.md): run it without --queue`);
  }
  const spec: GenerateSpec = {
    version: 1,
    kind: "generate",
    benchmark,
    model: "-",
    seed: o.seed,
    count: o.count,
    extra: o.extra,
    ...(o.assetsDir ? { assetsDir: path.resolve(o.assetsDir) } : {}),
    command: generateCommand(benchmark, { outDir: o.outDir, seed: o.seed, count: o.count, extra: o.extra }),
  };
  // Bad options are refused before anything is enqueued.
  const options = await generatorOptions(spec, o.outDir);
  const { egoPathSceneId, assembleEgoPathRelease, generateSummary } = await construct();
  const { readLibraries } = await import("../world/assets/catalog.js");
  const catalogue = readLibraries(spec.assetsDir);
  const sceneIds = Array.from({ length: o.count }, (_, s) => egoPathSceneId(s));
  const runId = await enqueueAndWait(spec, sceneIds, {
    url: queue.url,
    work: queue.work,
    concurrency: queue.concurrency ?? 1,
    ...(queue.leaseSeconds ? { leaseSeconds: queue.leaseSeconds } : {}),
    signal: queue.signal ?? new AbortController().signal,
    write: o.log,
  });
  const connection = await connectQueue(queue.url, 1);
  let houses: EgoPathHouse[];
  try {
    houses = (await itemResults(connection.pool, runId)).map((r) => ({ ...(JSON.parse(r.record) as HouseRecord), files: new Map<string, string | Buffer>(r.files) }));
  } finally {
    await connection.close();
  }
  for (const house of houses) o.log(house.line);
  const result = await assembleEgoPathRelease({ ...options, log: o.log }, houses, catalogue);
  return generateSummary(o.count, result);
}
