/**
 * Does a generated VCN-Bench set give its answers away? Audits a set with picture cues and prints
 * issue 28's gates (src/benchmarks/vcn/gates.ts): at least 250 episodes; per instruction type,
 * every frame-position rule, cue rule and the cue forest within 0.05 of the category chance.
 *
 *   node --import tsx bench/vcn-validity.ts --data SET [--keep DIR]
 *
 * SET: e.g. `spatialprobe generate vcn --out SET --seed 28 --count 250 --queue URL` with workers.
 * Exit status 1 when a gate fails.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEFAULT_AUDIT_OPTIONS } from "../src/audit/audit.js";
import { gatesMarkdown } from "../src/audit/gates.js";
import { auditFolder } from "../src/audit/run-audit.js";
import { EPISODES_GATE, vcnGates } from "../src/benchmarks/vcn/gates.js";
import { vcn } from "../src/benchmarks/vcn/index.js";

const dataAt = process.argv.indexOf("--data");
if (dataAt < 0) throw new Error("usage: bench/vcn-validity.ts --data SET [--keep DIR]");
const data = path.resolve(process.argv[dataAt + 1]!);
const keepAt = process.argv.indexOf("--keep");
const root = keepAt > 0 ? path.resolve(process.argv[keepAt + 1]!) : mkdtempSync(path.join(os.tmpdir(), "vcn-validity-"));
try {
  const t0 = process.hrtime.bigint();
  const audit = await auditFolder(vcn, data, path.join(root, "audit"), { ...DEFAULT_AUDIT_OPTIONS, cues: true });
  console.log(`audit: ${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(0)} s\n`);
  const gates = vcnGates(audit.document);
  console.log(gatesMarkdown(gates, new Set([EPISODES_GATE])));
  const stats = JSON.parse(readFileSync(path.join(data, "stats.json"), "utf8")) as { prior_video?: { frames?: { mean: number } }; steps?: { mean: number }; paper?: { prior_video_frames_mean: number; steps_mean: number } };
  if (stats.paper) console.log(`\nApp. B.7 / §3.4: prior video frames ${stats.prior_video?.frames?.mean ?? "—"} (paper ${stats.paper.prior_video_frames_mean}); shortest-path steps ${stats.steps?.mean ?? "—"} (paper ${stats.paper.steps_mean})`);
  const failed = gates.filter((g) => !g.pass).length;
  console.log(`\n${failed === 0 ? "every gate passes" : `${failed} gate(s) fail`}; audit in ${path.join(root, "audit")}`);
  process.exitCode = failed === 0 ? 0 : 1;
} finally {
  if (keepAt < 0) rmSync(root, { recursive: true, force: true });
}
