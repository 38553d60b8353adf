import type { Command } from "commander";

/**
 * One or two example command lines per command, printed at the end of its --help. They use the
 * example sets shipped in examples/ or the demo's output, so each can be pasted as it is.
 */
export const COMMAND_EXAMPLES: Record<string, string[]> = {
  run: [
    "spatialprobe run egopath --data examples/egopath-mini --model oracle --out runs/egopath-oracle",
    "OPENAI_API_KEY=... spatialprobe run epic --data examples/epic-mini --model openai:gpt-4o --repeats 2 --out runs/epic-gpt-4o",
  ],
  score: ["spatialprobe score egopath --data ~/EgoPathBench --predictions a1=preds_a1.jsonl --restrict-to-predictions --out runs/mine-a1"],
  report: ["spatialprobe report runs/demo --format md", "spatialprobe report runs/demo --format html --out report.html"],
  validate: ["spatialprobe validate vcn --data examples/vcn-mini"],
  audit: ["spatialprobe audit egotl --data examples/egotl-mini", "spatialprobe audit epic --data my-epic --prune 0.05 --out my-epic-debiased"],
  list: ["spatialprobe list"],
  generate: ["spatialprobe generate egopath --out my-egopath --seed 3 --count 10", "spatialprobe generate patheval --out my-patheval --count 40"],
  import: ["spatialprobe import vcn --episodes val_unseen.json.gz --tours tour_frames --views eval_snapshots --out my-vcn-import"],
  export: ["spatialprobe export egopath --data examples/egopath-mini --format llava --out train-llava.json"],
  "probe-results": ["spatialprobe probe-results patheval test/fixtures/patheval-probing/results.jsonl"],
  navigate: ["spatialprobe navigate vcn --data examples/vcn-mini --model oracle --out runs/nav-oracle"],
  navigation: ["spatialprobe navigation --episodes examples/vcn-mini/episodes.json.gz --trajectories examples/vcn-mini/trajectories.jsonl --out runs/nav-logs"],
  sim: ["spatialprobe sim serve --data examples/vcn-mini --port 8390"],
  overlay: ["spatialprobe overlay runs/demo/oracle --out pictures"],
  serve: ["spatialprobe serve runs/demo", "spatialprobe serve runs/epic-gpt-4o runs/epic-claude --port 0"],
  demo: ["spatialprobe demo", "spatialprobe demo --out runs/my-demo"],
  worker: ["spatialprobe worker --queue postgres://spatialprobe:spatialprobe@127.0.0.1:5432/spatialprobe --concurrency 16"],
  status: ["spatialprobe status --queue postgres://spatialprobe:spatialprobe@127.0.0.1:5432/spatialprobe"],
};

/** Add "Example(s):" to the help of every command that has examples. */
export function addExamples(program: Command): void {
  for (const command of program.commands) {
    const lines = COMMAND_EXAMPLES[command.name()];
    if (!lines) continue;
    command.addHelpText("after", `\n${lines.length === 1 ? "Example" : "Examples"}:\n${lines.map((line) => `  $ ${line}`).join("\n")}\n`);
  }
}
