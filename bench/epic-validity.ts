/**
 * Can a generated EPIC-Bench set be answered without looking? Issue 29's gate: for each task type
 * the constant reply (a menu entry of `audit`: no target, a half, a third, a quadrant, the centre,
 * the whole picture with count 1 or 2, feasible or not, or one of ten fixed routes) that scores
 * best on one set, scored on a second set made with another seed: at most 0.35 per task type and
 * 0.20 Overall (the official Overall: the mean over samples).
 *
 *   node --import tsx bench/epic-validity.ts [--keep DIR]              (generates both sets)
 *   node --import tsx bench/epic-validity.ts --choose SET_A --score SET_B
 *
 * Environment (optional): EPIC_VALIDITY_HOUSES (houses per set, default 40), EPIC_VALIDITY_SEEDS
 * (default "51,52"). Exit status 1 when a gate fails.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AuditUnit } from "../src/audit/types.js";
import { choiceCandidates } from "../src/audit/units.js";
import { bestConstantPerTask, epicAudit } from "../src/benchmarks/epic/audit.js";
import { generateEpicRelease } from "../src/benchmarks/epic/construct/index.js";
import { loadEpic } from "../src/benchmarks/epic/load.js";
import { LEAF_TASKS } from "../src/benchmarks/epic/taxonomy.js";
import { table } from "./lib/common.js";

const TASK_GATE = 0.35;
const OVERALL_GATE = 0.2;

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? path.resolve(process.argv[at + 1]!) : null;
};

async function unitsOf(root: string): Promise<AuditUnit[]> {
  const { items, problems } = loadEpic(root);
  if (problems.length > 0) throw new Error(`${root}: ${problems.length} problems, first: ${JSON.stringify(problems[0])}`);
  return epicAudit.units(items, { root, cues: false });
}

const houses = Number(process.env["EPIC_VALIDITY_HOUSES"] ?? 40);
const seeds = (process.env["EPIC_VALIDITY_SEEDS"] ?? "51,52").split(",").map(Number);
const keep = arg("--keep");
let [chooseRoot, scoreRoot] = [arg("--choose"), arg("--score")];
const work = !chooseRoot || !scoreRoot ? keep ?? mkdtempSync(path.join(os.tmpdir(), "epic-validity-")) : null;
try {
  if (work) {
    chooseRoot = path.join(work, `seed-${seeds[0]}`);
    scoreRoot = path.join(work, `seed-${seeds[1]}`);
    for (const [k, seed] of seeds.slice(0, 2).entries()) {
      const t0 = performance.now();
      const result = await generateEpicRelease({ outDir: k === 0 ? chooseRoot! : scoreRoot!, seed, houses, command: `bench/epic-validity.ts (seed ${seed}, ${houses} houses)` });
      console.log(`seed ${seed}: ${houses} houses, ${result.samples} samples in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
  }
  const [a, b] = await Promise.all([unitsOf(chooseRoot!), unitsOf(scoreRoot!)]);
  // The audit's own rule: per task, the menu entry with the best mean credit on the first set.
  const constant = bestConstantPerTask.fit(a);
  const stats = JSON.parse(readFileSync(path.join(scoreRoot!, "stats.json"), "utf8")) as { tasks?: Record<string, { zero_target_share?: number }> };
  const rows: string[][] = [];
  let sum = 0, n = 0, failed = 0;
  for (const task of LEAF_TASKS.map((t) => t.byType)) {
    const mine = b.filter((u) => u.task === task);
    if (mine.length === 0 || !a.some((u) => u.task === task)) continue;
    const picked = mine.map((u) => choiceCandidates(u).find((c) => c.reply === constant(u))!);
    const score = picked.reduce((s, c) => s + c.label, 0) / mine.length;
    sum += score * mine.length;
    n += mine.length;
    const pass = score <= TASK_GATE;
    if (!pass) failed++;
    const zero = stats.tasks?.[task]?.zero_target_share;
    rows.push([task, String(a.filter((u) => u.task === task).length), String(mine.length), picked[0]!.text ?? "", (100 * score).toFixed(1), zero === undefined ? "—" : (100 * zero).toFixed(1), pass ? "pass" : "FAIL"]);
  }
  console.log(table(["task", "n chosen on", "n scored on", "best constant (first set)", "score on second set", "no-target %", `<= ${100 * TASK_GATE}`], rows));
  const overall = n > 0 ? sum / n : 0;
  const overallPass = overall <= OVERALL_GATE;
  console.log(`\nOverall (mean over ${n} samples): ${(100 * overall).toFixed(1)} against <= ${100 * OVERALL_GATE}: ${overallPass ? "pass" : "FAIL"}; task types over ${100 * TASK_GATE}: ${failed}`);
  process.exitCode = failed > 0 || !overallPass ? 1 : 0;
} finally {
  if (work && !keep) rmSync(work, { recursive: true, force: true });
}
