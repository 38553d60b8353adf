/** The built CLI as a child process, for end-to-end tests (npm test builds dist/ first). */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const BIN = path.join(ROOT, "bin/spatialprobe.js");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Run `spatialprobe <args>` asynchronously (a mock server in the test's own process keeps
 * answering meanwhile), with `env` added to this process's environment.
 */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, onSpawn?: (child: ChildProcess) => void): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
    onSpawn?.(child);
  });
}
