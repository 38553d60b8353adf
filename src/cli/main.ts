import { Command, InvalidArgumentError } from "commander";
import { formatProblem, DataError, moreProblemsLine, problemCount, UsageError } from "../core/problems.js";
import { RunInterrupted } from "../core/run.js";
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
import { registerWorker } from "./worker.js";
import { registerOverlay } from "./overlay.js";
import { registerValidate } from "./validate.js";
import { AssetsNotFoundError } from "../world/assets/catalog.js";
import { unexpectedErrorLine } from "./errors.js";
import { addExamples } from "./examples.js";

export function integer(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value)) throw new InvalidArgumentError("must be an integer");
  return value;
}

export function positiveInteger(text: string): number {
  const value = integer(text);
  if (value < 1) throw new InvalidArgumentError("must be at least 1");
  return value;
}

export function number(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value)) throw new InvalidArgumentError("must be a number");
  return value;
}

export function list(text: string): string[] {
  return text.split(",").map((s) => s.trim()).filter(Boolean);
}

export function buildProgram(): Command {
  const program = new Command();
  program
    .name("spatialprobe")
    .description("Measure how well vision-language models reason about space, with scores that match each benchmark's official evaluator.")
    .showHelpAfterError();
  for (const register of [registerRun, registerScore, registerReport, registerValidate, registerList, registerGenerate, registerImport, registerExport, registerProbeResults, registerNavigate, registerNavigation, registerSim, registerOverlay, registerServe, registerWorker, registerStatus, registerDemo]) {
    register(program);
  }
  addExamples(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof DataError) {
      const more = moreProblemsLine(error.problems.length, problemCount(error.problems));
      console.error(`error: the data has problems; nothing was run.\n${error.problems.map((p) => `  - ${formatProblem(p)}`).join("\n")}${more ? `\n  ${more}` : ""}`);
      process.exitCode = 1;
    } else if (error instanceof UsageError) {
      console.error(`error: ${error.message}`);
      process.exitCode = 2;
    } else if (error instanceof AssetsNotFoundError) {
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
