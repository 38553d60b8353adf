import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { UsageError } from "../core/problems.js";
import { overlayRenderer } from "../report/gallery.js";
import { assertIntact, readRunFolder } from "../report/run-folder.js";
import { MAX_IMAGE_SIDE_PX } from "../core/limits.js";
import { list, wholeIn } from "./main.js";

/** A file name for an item id (ids hold slashes and other characters); the index keeps it unique. */
export function overlayFileName(index: number, id: string): string {
  return `${String(index).padStart(5, "0")}_${id.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 120)}`;
}

export function registerOverlay(program: Command): void {
  program
    .command("overlay <run>")
    .description("draw the overlay picture of each item of a run folder (PNG, and the caption as text)")
    .option("--items <ids>", "only these item ids (comma-separated)", list)
    .option("--out <dir>", "output folder (default: <run>/overlays)")
    .option("--max-side <px>", "longest side of each picture", wholeIn(1, MAX_IMAGE_SIDE_PX), 1024)
    .action(async (input: string, opts) => {
      const run = readRunFolder(input);
      assertIntact([run]);
      const wanted = opts.items ? new Set<string>(opts.items) : undefined;
      const chosen = run.results.map((result, index) => ({ result, index })).filter(({ result }) => !wanted || wanted.has(String(result.id)));
      if (wanted) {
        const found = new Set(chosen.map(({ result }) => String(result.id)));
        const unknown = [...wanted].filter((id) => !found.has(id));
        if (unknown.length > 0) throw new UsageError(`no result for item${unknown.length === 1 ? "" : "s"} ${unknown.join(", ")} in ${run.dir}`);
      }
      const out = opts.out ?? path.join(run.dir, "overlays");
      mkdirSync(out, { recursive: true });
      const renderer = overlayRenderer();
      let written = 0;
      const failures: string[] = [];
      for (const { result, index } of chosen) {
        const drawn = await renderer.render(run, result, opts.maxSide);
        if ("error" in drawn) {
          failures.push(`${result.id}: ${drawn.error}`);
          continue;
        }
        const base = path.join(out, overlayFileName(index, String(result.id)));
        writeFileSync(`${base}.png`, drawn.png);
        writeFileSync(`${base}.txt`, `${drawn.caption.join("\n")}\n`);
        written++;
      }
      console.log(`wrote ${written} picture${written === 1 ? "" : "s"} to ${out}`);
      if (failures.length > 0) {
        console.error(`${failures.length} without a picture:\n${failures.slice(0, 20).map((f) => `  - ${f}`).join("\n")}${failures.length > 20 ? "\n  ..." : ""}`);
        process.exitCode = 1;
      }
    });
}
