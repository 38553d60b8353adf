import assert from "node:assert/strict";
import { test } from "node:test";
import type { AuditDocument, TaskAudit } from "../../../src/audit/audit.js";
import { gatesMarkdown } from "../../../src/audit/gates.js";
import { EPISODES_GATE, vcnGates } from "../../../src/benchmarks/vcn/gates.js";

const task = (chance: number | null, blind: Array<[string, number]>, cues: Array<[string, number]>, forest: number | null): TaskAudit => ({
  metric: "Rid-SR", n: 50, chance, answers: {},
  blind: blind.map(([name, score]) => ({ name, describe: "", score })),
  blind_best: null, blind_selected: null, tst: null,
  cues: { rules: cues.map(([name, score]) => ({ name, describe: "", score })), best: null, forest: forest === null ? null : ({ score: forest } as never) },
}) as TaskAudit;

test("VCN gates: enough episodes; every blind and cue rule and the cue forest within 0.05 of the type's category chance", () => {
  const doc = {
    benchmark: "vcn", n: 249, folds: 5, seed: 26,
    tasks: {
      order: task(0.3, [["last-frame", 0.35], ["first-frame", 0.36]], [["last-frame-of-named-category", 0.2]], 0.351),
      instance: task(null, [], [], null),
    },
    overall: { metric: "Rid-SR", chance: null, blind_best: null, tst: null },
  } as unknown as AuditDocument;
  const gates = vcnGates(doc);
  assert.deepEqual(gates.map((g) => [g.name, g.value, g.pass]), [
    [EPISODES_GATE, 249, false],
    ['order blind rule "last-frame"', 0.35, true], // 0.30 + 0.05, the limit itself passes
    ['order blind rule "first-frame"', 0.36, false],
    ['order cue rule "last-frame-of-named-category"', 0.2, true],
    ["order cue forest", 0.351, false],
    ["instance: category chance known", null, false],
  ]);
  assert.ok(Math.abs(gates[1]!.limit - 0.35) < 1e-12);
  assert.equal(vcnGates({ ...doc, n: 250 } as AuditDocument)[0]!.pass, true);
  const table = gatesMarkdown(gates, new Set([EPISODES_GATE]));
  assert.ok(table.includes(`| ${EPISODES_GATE} | 249 | 250 | FAIL |`));
  assert.ok(table.includes('| order blind rule "first-frame" | 36.0 | 35.0 | FAIL |'));
  assert.ok(table.includes("| instance: category chance known | — | 0.0 | FAIL |"));
});
