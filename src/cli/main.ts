import { createRequire } from "node:module";
import { Command, CommanderError, InvalidArgumentError } from "commander";
import { formatProblem, DataError, moreProblemsLine, problemCount, UsageError } from "../core/problems.js";
import { RunInterrupted } from "../core/run.js";
import { registerAudit } from "./audit.js";
import { registerDemo } from "./demo.js";
import { registerExport } from "./export.js";
import { registerGenerate } from "./generate.js";
import { registerImport } from "./import.js";
import { registerProbeResults } from "./probe-results.js";
import { registerList } from "./list.js";
import { registerNavigate, registerSim } from "./navigate.js";
import { registerNavigation } from "./navigation.js";
import { registerReport } from "./report.js";
import { registerRun } from "./run.js";
import { registerScore } from "./score.js";
import { registerServe } from "./serve.js";
import { registerStatus } from "./status.js";
import { registerSuite } from "./suite.js";
import { registerWorker } from "./worker.js";
import { registerOverlay } from "./overlay.js";
import { registerValidate } from "./validate.js";
import { AssetsNotFoundError } from "../world/assets/catalog.js";
import { ZipLimitError } from "../world/assets/zip.js";
import { unexpectedErrorLine } from "./errors.js";
import { addExamples } from "./examples.js";

/**
 * A whole number from `lo` to `hi` (core/limits.ts gives each flag's bound and why): every numeric
 * flag has a range, and a value outside it is a usage error naming the range, never a loop that
 * does not end or a timer that fires at once. Written digits only (an optional sign), so "12abc",
 * "1e300" and "0x10" are refused rather than read as something else.
 */
export function wholeIn(lo: number, hi: number): (text: string) => number {
  return (text) => {
    const value = /^\s*[+-]?\d+\s*$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < lo || value > hi) throw new InvalidArgumentError(`must be a whole number from ${lo} to ${hi}`);
    return value;
  };
}

/** A number in [lo, hi], or (lo, hi] with `above`; `unit` is added to the message. */
export function numberIn(lo: number, hi: number, options: { above?: boolean; unit?: string } = {}): (text: string) => number {
  const unit = options.unit ? ` ${options.unit}` : "";
  return (text) => {
    const value = text.trim() === "" ? Number.NaN : Number(text);
    const inRange = Number.isFinite(value) && (options.above ? value > lo : value >= lo) && value <= hi;
    if (!inRange) throw new InvalidArgumentError(options.above ? `must be a number above ${lo} and at most ${hi}${unit}` : `must be a number from ${lo} to ${hi}${unit}`);
    return value;
  };
}

/** Any seed: a whole number within ±(2^53 - 1). */
export const seed = wholeIn(-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
/** A count that only limits (`--limit`): 1 or more. */
export const positiveCount = wholeIn(1, Number.MAX_SAFE_INTEGER);

export function list(text: string): string[] {
  return text.split(",").map((s) => s.trim()).filter(Boolean);
}

/** The package's version (package.json is two folders up from src/cli and from dist/cli). */
export function packageVersion(): string {
  return (createRequire(import.meta.url)("../../package.json") as { version: string }).version;
}

/**
 * `--model` given twice: commander keeps the last value and drops the first without a word
 * (`--model a --model b` ran b alone, where a user meant both); here it is a usage error naming
 * both. Other options keep commander's rule, the last one given wins, so a flag in a script or an
 * alias can be overridden by a later one.
 */
const ONE_VALUE_ONLY = new Set(["model"]);

function refuseRepeatedModels(command: Command): void {
  for (const option of command.options) {
    if (!ONE_VALUE_ONLY.has(option.name()) || !(option.required || option.optional) || option.variadic) continue;
    const given: string[] = [];
    command.on(`option:${option.name()}`, (value: string) => {
      given.push(value);
      if (given.length === 2) command.error(`error: option '${option.flags}' given twice (${given.map((v) => JSON.stringify(v)).join(" and ")}); a run has one model: one command per model`, { exitCode: 2, code: "spatialprobe.repeatedOption" });
    });
  }
  for (const sub of command.commands) refuseRepeatedModels(sub);
}

export function buildProgram(): Command {
  const program = new Command();
  program
    .name("spatialprobe")
    .description("Measure how well vision-language models reason about space, with scores that match each benchmark's official evaluator.")
    .version(packageVersion(), "-V, --version", "print the version")
    // The error stays on screen: one line of hint, not the command's whole help.
    .showHelpAfterError("(add --help for the command's options)")
    // A usage error ends in main with exit status 2 (README, "Run names and exit status"), not commander's 1.
    .exitOverride();
  for (const register of [registerRun, registerSuite, registerScore, registerReport, registerValidate, registerAudit, registerList, registerGenerate, registerImport, registerExport, registerProbeResults, registerNavigate, registerNavigation, registerSim, registerOverlay, registerServe, registerWorker, registerStatus, registerDemo]) {
    register(program);
  }
  addExamples(program);
  refuseRepeatedModels(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has printed the message (or the help, or the version): 0 for those, 2 for a usage error.
      process.exitCode = error.code === "commander.helpDisplayed" || error.code === "commander.version" ? 0 : 2;
    } else if (error instanceof DataError) {
      const more = moreProblemsLine(error.problems.length, problemCount(error.problems));
      console.error(`error: the data has problems; nothing was run.\n${error.problems.map((p) => `  - ${formatProblem(p)}`).join("\n")}${more ? `\n  ${more}` : ""}`);
      process.exitCode = 1;
    } else if (error instanceof UsageError) {
      console.error(`error: ${error.message}`);
      process.exitCode = 2;
    } else if (error instanceof AssetsNotFoundError || error instanceof ZipLimitError) {
      console.error(`error: ${error.message}`);
      process.exitCode = 1;
    } else if (error instanceof RunInterrupted) {
      console.error(`\n${error.message}`);
      process.exitCode = 130;
    } else {
      console.error(unexpectedErrorLine(error, process.env["SPATIALPROBE_DEBUG"] === "1"));
      process.exitCode = 1;
    }
  }
}
