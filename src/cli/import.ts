import type { Command } from "commander";
import { formatProblem, UsageError } from "../core/problems.js";
import { importRelease, PRIOR_SAMPLINGS, VIEW_LAYOUTS, type ImportSummary, type PriorSampling, type ViewLayout } from "../benchmarks/vcn/index.js";
import { MAX_FRAMES_PER_SPEC } from "../core/limits.js";
import { wholeIn } from "./main.js";

/** `import <benchmark>`: turn a benchmark's released files into the layout `run --data` reads. */
export function registerImport(program: Command): void {
  const group = program.command("import").description("turn a benchmark's released files into the data layout `run`, `score` and `validate` read");
  group
    .command("vcn")
    .description("VCN-Bench: released episodes + tour frame folders -> goal-identification items (items.jsonl, tours/, views/)")
    .requiredOption("--episodes <file|dir>", "the released episode file (gzip JSON or JSON {\"episodes\": [...]} with hkey, start_idx, end_idx), or a folder of them")
    .requiredOption("--tours <dir>", "the released tour frames (video_root): <dir>/<scene>/<hkey>/<frames>")
    .requiredOption("--out <dir>", "a new folder for items.jsonl, tours/, views/ and import-summary.json")
    .option("--annotations <dir>", "where <scene>/<hkey>.frames.json (what each tour frame shows) lives; default: the --tours folder")
    .option("--views <dir>", "the four start views: <dir>/<scene>_ep_<episode_id>/front|left|back|right.png, or the released evaluation's snapshot/0-view_<k>.png")
    .option("--view-layout <name>", `which 0-view_<k>.png is which view: ${VIEW_LAYOUTS.join(" | ")}`, "mvdualvln")
    .option("--video-max-frame <n>", "the release's frame cap (its configs: 50)", wholeIn(1, MAX_FRAMES_PER_SPEC), 50)
    .option("--sampling <rule>", "release (the official code's stride) | uniform (the paper's \"downsampled to 50 frames\")", "release")
    .option("--copy", "copy tour frames instead of hard-linking them")
    .action((opts) => {
      if (!VIEW_LAYOUTS.includes(opts.viewLayout)) throw new UsageError(`--view-layout must be ${VIEW_LAYOUTS.join(" or ")}, got "${opts.viewLayout}"`);
      if (!PRIOR_SAMPLINGS.includes(opts.sampling)) throw new UsageError(`--sampling must be ${PRIOR_SAMPLINGS.join(" or ")}, got "${opts.sampling}"`);
      const summary = importRelease({
        episodes: opts.episodes,
        tours: opts.tours,
        out: opts.out,
        ...(opts.annotations ? { annotations: opts.annotations as string } : {}),
        ...(opts.views ? { views: opts.views as string } : {}),
        viewLayout: opts.viewLayout as ViewLayout,
        videoMaxFrame: opts.videoMaxFrame as number,
        sampling: opts.sampling as PriorSampling,
        copy: Boolean(opts.copy),
      });
      console.log(importSummaryText(summary, opts.out));
      if (summary.load_problems.length > 0) process.exitCode = 1;
    });
}

/** The terminal summary of an import. */
export function importSummaryText(s: ImportSummary, out: string): string {
  const tasks = Object.entries(s.by_task).map(([t, n]) => `${t} ${n}`).join(", ");
  const lines = [`imported ${s.items} of ${s.episodes} episodes into ${out}${tasks ? ` (${tasks})` : ""}`];
  if (s.frames_shown) lines.push(`prior videos: ${s.frames_shown.min}-${s.frames_shown.max} frames shown (mean ${s.frames_shown.mean.toFixed(1)}), ${s.options.sampling} sampling, video_max_frame ${s.options.video_max_frame}`);
  lines.push(`tours: ${s.tours} folders, ${s.tour_entries} entries; files ${s.linked} hard-linked, ${s.copied} copied (start views are always copied)`);
  const skipped = Object.entries(s.skipped);
  if (skipped.length > 0) {
    lines.push(`skipped ${s.skipped_episodes.length}:`);
    for (const [reason, n] of skipped) lines.push(`  ${n}  ${reason}`);
  }
  if (s.load_problems.length > 0) {
    lines.push(`the imported items have ${s.load_problems.length} problem(s) (validate vcn --data ${out} lists them):`);
    for (const p of s.load_problems.slice(0, 10)) lines.push(`  - ${formatProblem(p)}`);
  }
  lines.push("details: import-summary.json");
  return lines.join("\n");
}
