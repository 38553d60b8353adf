/**
 * Fuzz suite over every benchmark's row schema (issue 25, item 6). Each case takes a valid seed
 * dataset (lib/seeds.ts: one question of each benchmark's shipped example set or test fixture) and
 * changes one thing (lib/dataset-cases.ts): one field of the row, or of a JSON file the row points
 * at, set to an extreme of its kind (0, -1, 1.5, 1e16, +-1e300, 2^53 + 1, NaN, 5e-324, wrong types,
 * "", NUL, 1 MiB, odd Unicode; for file names also ../ out of the root, absolute paths to a canary
 * outside the root, /etc/passwd, /dev/zero, a FIFO, links out of the root, a folder; for lists
 * empty, 200,000 entries, 150,000 out-of-range numbers, 100,000 levels deep), a whole document
 * made malformed, or a whole file (document or media) replaced by a link out of the root, a link to
 * /dev/zero, a FIFO, a folder, an empty or garbage or truncated file, a PNG header claiming
 * 1e9 x 1e9 pixels, or a sparse file over the size limits. Then, in a worker process under a hard
 * time limit (lib/pool.ts), `validate`'s load, `run` with a built-in model and `score` of the
 * run's predictions (lib/dataset-case.ts).
 *
 * A case passes when, within the limit: it ends in data problems (each with its file and message,
 * and the line when about the fuzzed JSONL row), a DataError / UsageError, or a result; it opened,
 * read or listed nothing outside the root (lib/guard.ts, and an inotify watch on the canary); and no
 * message or output file holds the canary's content. Besides, across cases: an out-of-bounds number
 * (1e16, +-1e300, 2^53 + 1; -1 where the field's name says it cannot be negative) in a field whose
 * wrong type validate refuses must be refused too (the numbers a loader reads are bounded), and a
 * media file that a run could not use must be refused by validate.
 *
 * SPATIALPROBE_FUZZ_SEED changes the seed (default in lib/random.ts), SPATIALPROBE_FUZZ_ONLY runs the
 * cases whose id contains a text, SPATIALPROBE_FUZZ_LIMIT_MS and SPATIALPROBE_FUZZ_WORKERS the limit
 * and the pool (10 s, 2), SPATIALPROBE_FUZZ_KEEP keeps the scratch folder.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";
import { datasetCases } from "./lib/dataset-cases.js";
import { NON_NEGATIVE_FIELD, READ_UNCHECKED, UNBOUNDED_NUMBERS } from "./lib/extremes.js";
import { fieldKey, fieldName } from "./lib/json-tree.js";
import { MEDIA_VALIDATE_MUST_REFUSE } from "./lib/mutations.js";
import { runCases } from "./lib/pool.js";
import { makeSeeds, type Seed } from "./lib/seeds.js";
import { canaryEvents, LIMIT_MS, logResult, prepareSuite, recordSummary, selected, summaryLine, WORKERS, type Suite } from "./lib/suite.js";
import type { CaseResult, DatasetCase, ThrownError } from "./lib/types.js";
import { commonFailures } from "./lib/verdicts.js";

let suite: Suite;
let seeds: Seed[];
let cases: DatasetCase[];
let results: CaseResult[];
let wallMs = 0;
/** The control's result: it reads the canary on purpose, so the checks must see it. */
let control: CaseResult;

/** The control case: a row naming the canary, loaded as --allow-outside-root loads it. */
const CONTROL: DatasetCase = {
  family: "dataset",
  id: "control: egopath-a1 image_path=absolute-canary with --allow-outside-root",
  seed: "egopath-a1",
  benchmark: "egopath",
  mutation: { kind: "field", doc: 0, path: ["image_path"], extreme: "absolute-canary" },
  allowOutsideRoot: true,
};

before(async () => {
  suite = await prepareSuite("datasets");
  seeds = makeSeeds(path.join(suite.dir, "seeds"));
  cases = selected(datasetCases(seeds, suite.seed));
  const began = performance.now();
  // The control runs last (its reads of the canary are its own).
  results = await runCases([...cases, CONTROL], {
    size: WORKERS,
    limitMs: LIMIT_MS,
    onResult: logResult,
    init: { role: "cases", canary: suite.canary, scratch: path.join(suite.dir, "scratch"), seeds },
  });
  control = results.pop()!;
  wallMs = performance.now() - began;
});

after(() => suite?.close());

const accepted = (error: ThrownError) => error.name === "DataError" || error.name === "UsageError";

/** Failures of one case against the rules every case follows. */
function caseFailures(result: CaseResult): string[] {
  const out = commonFailures(result, accepted);
  if (result.status === "done" && result.report.stages["validate"] === "clean" && result.report.stages["run"] === "refused") {
    out.push("validate found no problem, but run refused the data");
  }
  return out;
}

/** The failures, one line per case, with how to run a case again. */
function listing(failures: Array<[string, string[]]>, max = 400): string {
  const lines = failures.slice(0, max).map(([id, why]) => `- ${id}\n    ${why.join("\n    ")}`);
  const more = failures.length > max ? `\n... and ${failures.length - max} more` : "";
  return `${failures.length} failing case(s) (seed ${suite.seed}; run one again with SPATIALPROBE_FUZZ_ONLY='<id>'):\n${lines.join("\n")}${more}`;
}

const BENCHMARKS = ["egopath", "patheval", "epic", "vcn", "egotl"];

test("every seed, unchanged, validates clean, runs and scores (else its cases would prove little)", () => {
  const broken = cases.flatMap((fuzzCase, i) => {
    if (fuzzCase.mutation.kind !== "none") return [];
    const result = results[i]!;
    const stages = result.status === "done" ? result.report.stages : {};
    const ok = stages["validate"] === "clean" && stages["run"] === "result" && stages["score"] === "result" && result.status === "done" && result.report.itemErrors.length === 0;
    return ok ? [] : [`${fuzzCase.seed}: ${result.status} ${JSON.stringify(stages)} ${result.status === "done" ? JSON.stringify(result.report.problems.concat(result.report.errors as never[])).slice(0, 600) + result.report.itemErrors.join("; ") : ""}`];
  });
  assert.deepEqual(broken, []);
});

for (const benchmark of BENCHMARKS) {
  test(`${benchmark}: every case ends within the limit in problems, a refusal or a result; nothing outside the root is read; no canary content shows`, () => {
    const failures: Array<[string, string[]]> = [];
    cases.forEach((fuzzCase, i) => {
      if (fuzzCase.benchmark !== benchmark) return;
      const why = caseFailures(results[i]!);
      if (why.length > 0) failures.push([fuzzCase.id, why]);
    });
    assert.equal(failures.length, 0, listing(failures));
  });
}

test("numbers a loader reads are bounded: where validate refuses a wrong type (or the field is listed as read), it refuses 1e16, +-1e300, 2^53 + 1 (and -1 for sizes, rates, counts, indices, radii) too", () => {
  const byId = new Map(cases.map((c, i) => [c.id, results[i]!]));
  const validateOf = (id: string) => {
    const result = byId.get(id);
    return result?.status === "done" ? result.report.stages["validate"] : undefined;
  };
  const failures: Array<[string, string[]]> = [];
  for (const fuzzCase of cases) {
    const m = fuzzCase.mutation;
    if (m.kind !== "field") continue;
    const negative = m.extreme === "-1" && NON_NEGATIVE_FIELD.test(fieldName(m.path));
    if (!UNBOUNDED_NUMBERS.has(m.extreme) && !negative) continue;
    const typeCase = fuzzCase.id.replace(/=[^=]*$/, "=string");
    const readUnchecked = (READ_UNCHECKED[fuzzCase.benchmark] ?? []).includes(fieldKey(m.path));
    // A field whose wrong type validate accepts is not read (unless listed as read all the same).
    if (validateOf(typeCase) !== "problems" && !readUnchecked) continue;
    if (validateOf(fuzzCase.id) === "clean") failures.push([fuzzCase.id, [`validate accepts ${m.extreme} in a field whose wrong type it refuses`]]);
  }
  assert.equal(failures.length, 0, listing(failures));
});

test("a media file a run could not use (a link out, /dev/zero, a FIFO, a folder, empty, garbage, a 1e9 x 1e9 header, over the size limit) is refused by validate", () => {
  const failures: Array<[string, string[]]> = [];
  cases.forEach((fuzzCase, i) => {
    const m = fuzzCase.mutation;
    const result = results[i]!;
    if (m.kind !== "file" || m.role !== "media" || !MEDIA_VALIDATE_MUST_REFUSE.has(m.variant) || result.status !== "done") return;
    if (result.report.stages["validate"] === "clean") failures.push([fuzzCase.id, [`validate passes; run then gives: ${result.report.itemErrors[0] ?? result.report.stages["run"]}`]]);
  });
  assert.equal(failures.length, 0, listing(failures));
});

test("the checks see a read outside the root when there is one (control: --allow-outside-root and a row naming the canary)", (t) => {
  assert.equal(control.status, "done", JSON.stringify(control));
  if (control.status !== "done") return;
  assert.ok(control.report.violations.length > 0, "the read guard saw no read of the canary");
  if (suite.watch.unavailable) return t.skip(`no inotify watch: ${suite.watch.unavailable}`);
  assert.ok(suite.watch.events.some((e) => e.at >= control.span[0]), "the inotify watch saw no read of the canary");
});

test("the canary folder outside the roots was never opened (inotify, which also sees native code and child processes)", (t) => {
  if (suite.watch.unavailable) return t.skip(`no inotify watch: ${suite.watch.unavailable}`);
  const inFlight = (at: number) => results.filter((r) => r.span[0] - 50 <= at && at <= r.span[1] + 50).map((r) => r.id);
  // Events of the control case (which runs after every other case) are its own.
  const events = canaryEvents(suite.watch)
    .map((line, i) => ({ line, at: suite.watch.events[i]!.at }))
    .filter((e) => e.at < control.span[0])
    .map((e) => `${e.line}; cases running then: ${inFlight(e.at).join(", ") || "none"}`);
  assert.deepEqual(events, []);
});

test("summary", (t) => {
  const failing = results.filter((r) => caseFailures(r).length > 0).length;
  const perBenchmark = BENCHMARKS.map((b) => `${b} ${cases.filter((c) => c.benchmark === b).length}`).join(", ");
  t.diagnostic(summaryLine("datasets", results, wallMs));
  t.diagnostic(`cases per benchmark: ${perBenchmark}; seed ${suite.seed}; limit ${LIMIT_MS} ms; ${WORKERS} workers`);
  t.diagnostic(recordSummary("datasets", results, wallMs, failing));
});
