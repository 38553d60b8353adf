/**
 * Reading untrusted text in linear time: every reader of model replies and of predictions lines
 * (readReply per task and prompt variant, readPrediction on a whole predictions line, and the
 * Python json / literal_eval emulations as the readers call them) on each adversarial shape of
 * test/helpers/adversarial.ts, at 64 KB, 256 KB and 1 MB. The replies are flat two-byte strings,
 * as V8 stores any text with a character beyond Latin-1: the slower case for regular expressions.
 *
 *   node --import tsx bench/replies.ts [--all] [--only <reader or shape name part>]
 *
 * Each time is the best of a few runs. Prints, per shape, the slowest reader, and per reader, its
 * slowest shape: ms at each size and t(1 MB)/t(256 KB), which is about 4 for linear time (ratios
 * of sub-millisecond times are noise). `--all` prints every reader on every shape.
 *
 * Exit code 1 when any read of 1 MB takes more than 100 ms (or a reader throws).
 */
import { performance } from "node:perf_hooks";
import { decodeOutcome, MB, READER_DECODERS, readerCases, SHAPES } from "../test/helpers/adversarial.js";
import { getGc, table } from "./lib/common.js";

const SIZES = [64 * 1024, 256 * 1024, MB] as const;
const LIMIT_MS = 100;
const RUNS = 5;

interface Reader {
  name: string;
  prepare: (text: string) => string;
  read: (input: string) => unknown;
}

interface Timing {
  reader: string;
  shape: string;
  ms: number[];
  error?: string;
}

/** `--only <text>`: readers or shapes whose name contains the text (for working on one reader). */
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] ?? "" : "";

function readers(): Reader[] {
  const decoders = Object.entries(READER_DECODERS).map(([name, decode]): Reader => ({ name, prepare: (t) => t, read: (t) => decodeOutcome(decode, t) }));
  return [...readerCases(), ...decoders];
}

/** Best of RUNS; a first read that is already far over the limit is not repeated. */
function bestTime(read: () => unknown): number {
  let best = Infinity;
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    read();
    best = Math.min(best, performance.now() - start);
    if (best > 10 * LIMIT_MS) break;
  }
  return best;
}

function measure(gc: () => void): Timing[] {
  const timings: Timing[] = [];
  const all = readers();
  for (const [shape, make] of Object.entries(SHAPES)) {
    const texts = SIZES.map((size) => make(size));
    for (const reader of all) {
      if (only && !reader.name.includes(only) && !shape.includes(only)) continue;
      const timing: Timing = { reader: reader.name, shape, ms: [] };
      try {
        for (const text of texts) {
          const input = reader.prepare(text);
          gc();
          timing.ms.push(bestTime(() => reader.read(input)));
          // Too slow already: a bigger input would only take longer.
          if (timing.ms.at(-1)! > 10 * LIMIT_MS) break;
        }
      } catch (error) {
        timing.error = `${(error as Error).name}: ${(error as Error).message}`.slice(0, 80);
      }
      timings.push(timing);
    }
  }
  return timings;
}

const at1MB = (t: Timing) => t.ms[2] ?? Infinity;
const fmt = (ms: number | undefined) => (ms === undefined ? "-" : ms >= 100 ? ms.toFixed(0) : ms.toFixed(2));
const ratio = (t: Timing) => (t.ms[2] !== undefined && t.ms[1]! > 0 ? (t.ms[2] / t.ms[1]!).toFixed(1) : "-");
const row = (first: string, t: Timing) => [first, t.reader === first ? t.shape : t.reader, ...[0, 1, 2].map((k) => fmt(t.ms[k])), ratio(t), t.error ?? (at1MB(t) > LIMIT_MS ? "OVER" : "")];

/** The slowest timing (at 1 MB, errors first) of each group. */
function worstBy(timings: Timing[], key: (t: Timing) => string): Timing[] {
  const worst = new Map<string, Timing>();
  for (const t of timings) {
    const k = key(t);
    const prev = worst.get(k);
    const score = (x: Timing) => (x.error ? Infinity : at1MB(x));
    if (!prev || score(t) > score(prev)) worst.set(k, t);
  }
  return [...worst.values()];
}

function main(): number {
  const gc = getGc();
  const started = performance.now();
  const timings = measure(gc);
  const header = (first: string, second: string) => [first, second, "64 KB ms", "256 KB ms", "1 MB ms", "1M/256K", ""];

  if (process.argv.includes("--all")) {
    console.log(table(header("shape", "reader"), timings.map((t) => row(t.shape, t))));
    console.log("");
  }
  console.log("Slowest reader on each shape:");
  console.log(table(header("shape", "slowest reader"), worstBy(timings, (t) => t.shape).map((t) => row(t.shape, t))));
  console.log("\nSlowest shape for each reader:");
  console.log(table(header("reader", "slowest shape"), worstBy(timings, (t) => t.reader).map((t) => row(t.reader, t))));

  const failures = timings.filter((t) => t.error || at1MB(t) > LIMIT_MS);
  const worst = timings.reduce((a, b) => (at1MB(b) > at1MB(a) ? b : a));
  console.log(`\n${timings.length} reader x shape pairs in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  console.log(`Worst 1 MB read: ${fmt(at1MB(worst))} ms (${worst.reader} on "${worst.shape}"), limit ${LIMIT_MS} ms.`);
  if (failures.length > 0) {
    console.log(`FAILED: ${failures.length} pair(s) over the limit or throwing: ${failures.slice(0, 10).map((t) => `${t.reader} on "${t.shape}"`).join("; ")}`);
    return 1;
  }
  console.log("OK: every 1 MB read is under the limit.");
  return 0;
}

process.exitCode = main();
