/**
 * A fuzz worker process (started by pool.ts with `--import tsx`). It installs the read guard
 * before the project's modules are loaded, then serves one of two roles, chosen by its init message:
 *
 * - cases: runs dataset and frame-spec cases one at a time ({type: "case"} -> {type: "report"});
 * - bridge: serves the built-in simulator over the bridge protocol on a copy of a small house, with
 *   the guard recording all along; {type: "drain"} answers what it has reached since the last drain.
 *
 * The frame cache is the suite's own folder, so no case reads or writes the user's cache.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { installGuard, startRecording, stopRecording } from "./guard.js";
import type { Seed } from "./seeds.js";
import type { FuzzCase } from "./types.js";
import { describeThrown } from "./verdicts.js";

interface CasesInit {
  type: "init";
  role: "cases";
  canary: string;
  scratch: string;
  seeds?: Seed[];
  media?: { dir: string };
}

interface BridgeInit {
  type: "init";
  role: "bridge";
  canary: string;
  dataRoot: string;
  scratch: string;
}

const send = (message: unknown) => process.send!(message);

async function serveCases(init: CasesInit): Promise<void> {
  const scratch = path.join(init.scratch, `worker-${process.pid}`);
  // One frame cache for the suite's workers (entries are written atomically): a seed's frames are sampled once.
  const cacheDir = path.join(init.scratch, "frame-cache");
  mkdirSync(cacheDir, { recursive: true });
  process.env["SPATIALPROBE_FRAME_CACHE"] = cacheDir;
  const { runDatasetCase } = await import("./dataset-case.js");
  const { runFrameCase } = await import("./frame-case.js");
  const setup = { seeds: init.seeds ?? [], canary: init.canary, scratch };
  const media = { dir: init.media?.dir ?? "", cacheDir };
  let counter = 0;
  process.on("message", (message: { type: string; case?: FuzzCase }) => {
    if (message.type !== "case" || !message.case) return;
    const fuzzCase = message.case;
    const work = fuzzCase.family === "dataset" ? runDatasetCase(fuzzCase, setup, ++counter) : runFrameCase(fuzzCase, media);
    work.then(
      (report) => send({ type: "report", report }),
      (error: unknown) => send({ type: "failed", message: `${describeThrown("harness", error).message} ${(error as Error)?.stack ?? ""}` }),
    );
  });
  send({ type: "ready" });
}

async function serveBridge(init: BridgeInit): Promise<void> {
  process.env["SPATIALPROBE_FRAME_CACHE"] = path.join(init.scratch, `bridge-${process.pid}`);
  const { startBridgeServer } = await import("../../../src/sim/bridge/server.js");
  const { createWorldSimulator } = await import("../../../src/sim/world-sim.js");
  const { readEpisodeFileJson } = await import("../../../src/benchmarks/vcn/episodes.js");
  const environment = createWorldSimulator({ dataRoot: init.dataRoot, width: 32, height: 32, maxActions: 20 });
  const server = await startBridgeServer({ environment });
  // Warm up (the house loads once): a valid reset and step, before the clock starts.
  const episode = (readEpisodeFileJson(path.join(init.dataRoot, "episodes.json.gz")) as { episodes: Array<Record<string, unknown>> }).episodes[0]!;
  const start = { episode_id: episode["episode_id"], scene_id: episode["scene_id"], start_position: episode["start_position"], start_rotation: episode["start_rotation"] };
  await environment.reset(start as never, { render: true });
  startRecording();
  process.on("message", (message: { type: string }) => {
    if (message.type !== "drain") return;
    const seen = stopRecording();
    startRecording();
    send({ type: "reply", value: seen });
  });
  send({ type: "ready", info: { url: server.url, episode: start } });
}

process.once("message", (init: CasesInit | BridgeInit) => {
  installGuard([init.canary]);
  const role = init.role === "bridge" ? serveBridge(init) : serveCases(init);
  role.catch((error: unknown) => {
    send({ type: "failed", message: `worker failed to start: ${(error as Error)?.stack ?? String(error)}` });
    process.exit(1);
  });
});
