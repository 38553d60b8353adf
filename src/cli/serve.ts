import type { Command } from "commander";
import { startViewer } from "../serve/server.js";
import { MAX_PORT } from "../core/limits.js";
import { wholeIn } from "./main.js";

export function registerServe(program: Command): void {
  program
    .command("serve <runs...>")
    .description("a local viewer of run folders: tables, charts, item overlays, two runs compared, navigation episodes step by step (top-down picture, views, replies); follows runs in progress")
    .option("--port <n>", "port (0 picks a free one)", wholeIn(0, MAX_PORT), 8377)
    .option("--host <address>", "address to bind (default 127.0.0.1: this machine only)", "127.0.0.1")
    .action(async (runs: string[], opts) => {
      const viewer = await startViewer({ dirs: runs, host: opts.host, port: opts.port });
      if (!["127.0.0.1", "localhost", "::1"].includes(opts.host)) {
        console.error(`warning: listening on ${opts.host}: anyone who can reach this address can read these runs`);
      }
      console.log(`viewer at ${viewer.url} (Ctrl-C to stop)`);
      await new Promise<void>((resolve) => {
        const stop = () => viewer.close().then(resolve);
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      });
    });
}
