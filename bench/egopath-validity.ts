/**
 * Does a generated EgoPathBench set measure route reasoning? Generates a benchmark-split set of
 * at least EGOPATH_VALIDITY_QUESTIONS questions (default 1,000) at the official settings, audits
 * it with picture cues, and prints issue 27's gates (gates.ts) and the set's Table S10 statistics
 * beside the paper's (stats.json), each against its limit:
 *
 *   node --import tsx bench/egopath-validity.ts [--keep DIR]
 *   node --import tsx bench/egopath-validity.ts --data SET   (a set made already, e.g. by
 *       `generate egopath --queue URL` with workers; only the audit and the checks run)
 *
 * Environment (optional): EGOPATH_VALIDITY_QUESTIONS, EGOPATH_VALIDITY_SEED (default 42),
 * EGOPATH_VALIDITY_HOUSES (skip the sizing and use this many houses).
 * Exit status 1 when a gate fails.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { auditFolder } from "../src/audit/run-audit.js";
import { DEFAULT_AUDIT_OPTIONS } from "../src/audit/audit.js";
import { generateEgoPathRelease } from "../src/benchmarks/egopath/construct/index.js";
import { gatesMarkdown } from "../src/audit/gates.js";
import { egopathGates } from "../src/benchmarks/egopath/gates.js";
import { egopath } from "../src/benchmarks/egopath/index.js";

const pct = (v: number | null | undefined) => (typeof v === "number" ? (100 * v).toFixed(1) : "—");

const wanted = Number(process.env["EGOPATH_VALIDITY_QUESTIONS"] ?? 1000);
const seed = Number(process.env["EGOPATH_VALIDITY_SEED"] ?? 42);
const keepAt = process.argv.indexOf("--keep");
const dataAt = process.argv.indexOf("--data");
const given = dataAt > 0 ? path.resolve(process.argv[dataAt + 1]!) : null;
const root = keepAt > 0 ? path.resolve(process.argv[keepAt + 1]!) : mkdtempSync(path.join(os.tmpdir(), "egopath-validity-"));
const data = given ?? path.join(root, "set");
try {
  let houses = Number(process.env["EGOPATH_VALIDITY_HOUSES"] ?? 0) || 12;
  const sized = Boolean(process.env["EGOPATH_VALIDITY_HOUSES"]);
  let total = 0;
  let seconds = 0;
  for (;;) {
    if (given) break;
    const t0 = process.hrtime.bigint();
    const result = await generateEgoPathRelease({ outDir: data, seed, scenes: houses, splits: { train: 0, val: 0, benchmark: 1 }, command: `bench/egopath-validity.ts (seed ${seed}, ${houses} houses)` });
    seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    total = Object.values(result.questions.benchmark).reduce((a, b) => a + b, 0);
    console.log(`${houses} houses: ${total} benchmark questions (${Object.entries(result.questions.benchmark).map(([t, n]) => `${t} ${n}`).join(", ")}) in ${seconds.toFixed(0)} s`);
    if (sized || total >= wanted) break;
    houses = Math.ceil((houses * wanted * 1.1) / Math.max(total, 1));
  }
  const t1 = process.hrtime.bigint();
  const audit = await auditFolder(egopath, data, path.join(root, "audit"), { ...DEFAULT_AUDIT_OPTIONS, cues: true });
  console.log(`audit: ${(Number(process.hrtime.bigint() - t1) / 1e9).toFixed(0)} s\n`);
  const gates = egopathGates(audit.document);
  console.log(gatesMarkdown(gates));
  const overall = audit.document.overall;
  console.log(`\nEgoPath Score without a model: ${pct(overall.blind_selected?.score)} with each task's rule chosen on the other folds (the gate); ${pct(overall.blind_best?.score)} with the best rule picked on these very questions; chance ${pct(overall.chance)}.`);
  const stats = JSON.parse(readFileSync(path.join(data, "stats.json"), "utf8")) as { checks?: Array<{ signal: string; ours: number | null; paper: number; rule: string; pass: boolean }> };
  if (stats.checks) {
    console.log("\nTable S10 statistics of the benchmark split (stats.json):");
    for (const c of stats.checks) console.log(`- ${c.signal}: ${c.ours ?? "—"} (paper ${c.paper}; ${c.rule}) ${c.pass ? "pass" : "FAIL"}`);
  }
  const failed = gates.filter((g) => !g.pass).length + (stats.checks ?? []).filter((c) => !c.pass).length;
  console.log(`\n${failed === 0 ? "every gate passes" : `${failed} gate(s) fail`}; audit in ${path.join(root, "audit")}`);
  process.exitCode = failed === 0 ? 0 : 1;
} finally {
  if (keepAt < 0) rmSync(root, { recursive: true, force: true });
}
