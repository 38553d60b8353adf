/**
 * `validate` checks everything a request needs, and `run` refuses the same data (issue 10): for
 * each gap a small broken copy of an example set or fixture, the exact problem line from
 * `validate` (exit 1), and `run --model oracle` on it stopping before anything is asked (exit 1,
 * "the data has problems; nothing was run", no scores.json). Built-in models must not score data
 * a real model's run could not start on. Spawns the built CLI (`npx tsc -p tsconfig.json` first).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import sharp from "sharp";
import { DESCRIPTORS } from "../../src/benchmarks/patheval/scenarios.js";
import { ROOT, runCli } from "../helpers/cli.js";
import { TINY_PNG } from "../helpers/media.js";

const top = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-validate-complete-"));
let counter = 0;
const fresh = (name: string) => path.join(top, `${name}-${++counter}`);
const EPIC = path.join(ROOT, "test/fixtures/epic/conformance/EPIC_Bench");

/** validate lists exactly `lines` (exit 1); run --model oracle refuses the data the same way and writes nothing. */
async function refused(benchmark: string, data: string, lines: string[], args: string[] = []): Promise<void> {
  const validate = await runCli(["validate", benchmark, "--data", data, ...args]);
  assert.equal(validate.code, 1, validate.stdout + validate.stderr);
  assert.deepEqual(validate.stdout.trim().split("\n"), [...lines, `${lines.length} problem${lines.length === 1 ? "" : "s"} found`]);
  const out = fresh("run");
  const run = await runCli(["run", benchmark, "--data", data, "--model", "oracle", "--out", out, "--bootstrap", "0", "--quiet", ...args]);
  assert.equal(run.code, 1, run.stderr);
  assert.ok(run.stderr.startsWith("error: the data has problems; nothing was run.\n"), run.stderr);
  for (const line of lines) assert.ok(run.stderr.includes(`  - ${line}\n`), `${line}\nnot in\n${run.stderr}`);
  assert.equal(existsSync(path.join(out, "scores.json")), false);
}

/** validate is clean (exit 0, the ok line) and an oracle run completes. */
async function clean(benchmark: string, data: string, okLine: string, args: string[] = []): Promise<void> {
  const validate = await runCli(["validate", benchmark, "--data", data, ...args]);
  assert.equal(validate.code, 0, validate.stdout + validate.stderr);
  assert.equal(validate.stdout.trim(), okLine);
  const out = fresh("run");
  const run = await runCli(["run", benchmark, "--data", data, "--model", "oracle", "--out", out, "--bootstrap", "0", "--quiet", ...args]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(JSON.parse(readFileSync(path.join(out, "scores.json"), "utf8")).counts.errors, 0);
}

function editJson(file: string, edit: (json: Record<string, any>) => void): void {
  const json = JSON.parse(readFileSync(file, "utf8"));
  edit(json);
  writeFileSync(file, JSON.stringify(json));
}

// ---------------------------------------------------------------- EPIC-Bench

const CATEGORY = "TargetLocalization/BasicAttributes/Category";
const AFFORDANCE = "Manipulation/AffordanceRegion";

/** A data root with a copy of one task folder of the conformance set. */
function epicCopy(folder: string): string {
  const root = fresh("epic");
  cpSync(path.join(EPIC, folder), path.join(root, "EPIC_Bench", folder), { recursive: true });
  return root;
}
const sample = (root: string, folder: string, name: string) => path.join(root, "EPIC_Bench", folder, name);

/** The Category samples with text_label given the way `how` says (0001) and in text_annotation (0002, 0003). */
function categorySet(how: "none" | "text_annotation" | "top-level"): string {
  const root = epicCopy(CATEGORY);
  for (const id of ["0002", "0003"]) editJson(sample(root, CATEGORY, `${id}_mask_rle.json`), (j) => (j.text_annotation.text_label = [`the target of ${id}`]));
  editJson(sample(root, CATEGORY, "0001_mask_rle.json"), (j) => {
    delete j.text_annotation.text_label;
    delete j.text_label;
    if (how === "text_annotation") j.text_annotation.text_label = ["the red mug"];
    if (how === "top-level") j.text_label = ["the red mug"];
  });
  return root;
}

test("EPIC-Bench: a row without text_label, in text_annotation or at the top level, is refused", async () => {
  await refused("epic", categorySet("none"), [
    `EPIC_Bench/${CATEGORY}/0001_mask_rle.json, field text_annotation.text_label: missing, and so is the top-level text_label; the prompt needs it (${CATEGORY})`,
  ]);
});

test("EPIC-Bench: text_label in text_annotation only, or at the top level only, is clean (the official converters' reading)", async () => {
  const ok = `ok: 3 questions (${CATEGORY} 3); no problems found`;
  await clean("epic", categorySet("text_annotation"), ok);
  await clean("epic", categorySet("top-level"), ok);
});

test("EPIC-Bench: a missing overlay image (mask-overlay) and a missing reference mask (box-overlay) are refused", async () => {
  const noOverlay = epicCopy(AFFORDANCE);
  rmSync(sample(noOverlay, AFFORDANCE, "0701_reference_area_overlay.png"));
  await refused("epic", noOverlay, [`EPIC_Bench/${AFFORDANCE}/0701_mask_rle.json, field images: missing 0701_reference_area_overlay.png next to the ground truth`]);

  // Reference masks covering the whole image for 0702 and 0703; none for 0701.
  const noMask = epicCopy(AFFORDANCE);
  editJson(sample(noMask, AFFORDANCE, "0701_mask_rle.json"), (j) => delete j.mask_annotation.masklet_reference_area);
  for (const id of ["0702", "0703"]) {
    const { width, height } = await sharp(sample(noMask, AFFORDANCE, `${id}_image.jpg`)).metadata();
    editJson(sample(noMask, AFFORDANCE, `${id}_mask_rle.json`), (j) => (j.mask_annotation.masklet_reference_area = [{ size: [height, width], counts: [0, height! * width!] }]));
  }
  await refused("epic", noMask, [
    `EPIC_Bench/${AFFORDANCE}/0701_mask_rle.json, field mask_annotation.masklet_reference_area: box-overlay for ${AFFORDANCE}: the reference mask masklet_reference_area is not in mask_annotation, so no box can be drawn (use mask-overlay or no-overlay)`,
  ], ["--prompt", "box-overlay"]);
  // The release's overlay images are all there: the default variant runs.
  await clean("epic", noMask, `ok: 3 questions (${AFFORDANCE} 3); no problems found`);
});

// ---------------------------------------------------------------- EgoTL-Bench (videos)

/** A folder with a real 2 s clip at 10 fps (20 frames), and the given rows as test.jsonl. */
function egotlSet(rows: unknown[], extra: (dir: string) => void = () => {}): string {
  const dir = fresh("egotl");
  mkdirSync(dir);
  execFileSync("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10", "-t", "2", "-pix_fmt", "yuv420p", path.join(dir, "clip.mp4")]);
  extra(dir);
  writeFileSync(path.join(dir, "test.jsonl"), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return dir;
}
const fine = { id: "fine", task: "direction", media: { video: "clip.mp4", spec: { mode: "indices", indices: [0, 19] } }, answer: "Turn left" };

test("EgoTL-Bench: a frame index past the clip's end is refused; frames in range are clean", async () => {
  await refused("egotl", egotlSet([{ ...fine, id: "past", media: { video: "clip.mp4", spec: { mode: "indices", indices: [0, 25] } } }, fine]), [
    "test.jsonl, line 1, field media.spec.indices[1]: frame 25 is beyond the 20 frames of clip.mp4",
  ]);
  await clean("egotl", egotlSet([fine]), "ok: 1 questions (direction 1); no problems found");
});

test("EgoTL-Bench: a text file named .mp4 and a truncated mp4 are refused", async () => {
  const text = egotlSet([{ ...fine, media: { video: "text.mp4" } }], (dir) => writeFileSync(path.join(dir, "text.mp4"), "these are not the frames you are looking for\n"));
  await refused("egotl", text, ["test.jsonl, line 1, field media.video: file text.mp4 is not a video (its bytes match no known container: MP4/MOV, Matroska/WebM, AVI, Ogg, FLV, MPEG)"]);
  // The default MP4 layout keeps its index (moov) at the end: half the file does not open.
  const cut = egotlSet([{ ...fine, media: { video: "cut.mp4" } }], (dir) => {
    const bytes = readFileSync(path.join(dir, "clip.mp4"));
    writeFileSync(path.join(dir, "cut.mp4"), bytes.subarray(0, bytes.length >> 1));
  });
  await refused("egotl", cut, ["test.jsonl, line 1, field media.video: video cut.mp4 does not open (ffprobe: moov atom not found; Invalid data found when processing input)"]);
});

// ---------------------------------------------------------------- the field each benchmark's prompt reads

test("EgoTL-Bench: a blank chain of thought (the next-action prompt shows it) is refused", async () => {
  const row = { id: "cot", task: "next_action", media: { video: "clip.mp4" }, chain_of_thought: "  ", options: ["turn left", "turn right", "walk ahead", "stop"], answer: "A" };
  await refused("egotl", egotlSet([row]), ["test.jsonl, line 1, field chain_of_thought: is blank; the next_action prompt shows it ({chain_of_thought})"]);
});

test("EgoPathBench: a blank user_prompt (the release prompt's question) is refused", async () => {
  const root = fresh("egopath");
  cpSync(path.join(ROOT, "examples/egopath-mini"), root, { recursive: true });
  const vqa = "benchmark_evalfix/benchmark/vqa/vqa_next_a1.jsonl";
  const rows = readFileSync(path.join(root, vqa), "utf8").split("\n");
  rows[2] = JSON.stringify({ ...JSON.parse(rows[2]!), user_prompt: "" });
  writeFileSync(path.join(root, vqa), rows.join("\n"));
  await refused("egopath", root, [`${vqa}, line 3, field user_prompt: is blank; the release prompt sends it as the question`]);
});

test("PathEval: a blank scenario question is refused", async () => {
  const root = fresh("patheval");
  mkdirSync(path.join(root, "2D"), { recursive: true });
  writeFileSync(path.join(root, "2D", "pair.png"), TINY_PNG);
  const metrics = Object.fromEntries(["Path 1", "Path 2"].map((p, k) => [p, Object.fromEntries(DESCRIPTORS.map((d) => [d, k + 1]))]));
  const record = (id: number, question: string) => ({ id, image: "pair.png", conversations: [{ from: "human", value: question }, { from: "gpt", value: "Path 2" }], metrics });
  writeFileSync(path.join(root, "2D", "test_dataset_2D.json"), JSON.stringify([record(1, "A large truck must pass. Which path is better?"), record(2, "")]));
  await refused("patheval", root, ["2D/test_dataset_2D.json, field [1].conversations[0].value: is blank; the prompt asks it (the scenario question)"]);
});

test("VCN-Bench: a blank instruction is refused", async () => {
  const root = fresh("vcn");
  cpSync(path.join(ROOT, "test/fixtures/vcn-legacy-mini"), root, { recursive: true });
  const file = path.join(root, "items.jsonl");
  const rows = readFileSync(file, "utf8").trim().split("\n");
  // A line without a query template (the template must fill to the instruction, a scoring check).
  const index = rows.findIndex((r) => JSON.parse(r).query?.template === undefined);
  assert.ok(index >= 0);
  rows[index] = JSON.stringify({ ...JSON.parse(rows[index]!), instruction: " " });
  writeFileSync(file, rows.join("\n") + "\n");
  await refused("vcn", root, [`items.jsonl, line ${index + 1}, field instruction: is blank; the prompt asks it`]);
});

test("the shipped example sets validate clean for every prompt variant", async () => {
  const sets: Array<[string, string]> = [["egopath", "examples/egopath-mini"], ["vcn", "test/fixtures/vcn-legacy-mini"], ["egotl", "test/fixtures/egotl-legacy-mini"]];
  for (const [benchmark, data] of sets) {
    const sources = benchmark === "egopath" ? ["release", "templates"] : benchmark === "vcn" ? ["plain", "shuffled-frames", "counterfactual"] : ["templates"];
    for (const source of sources) {
      const result = await runCli(["validate", benchmark, "--data", data, "--prompt", source]);
      assert.equal(result.code, 0, `${benchmark} ${source}: ${result.stdout}`);
      assert.match(result.stdout, /no problems found/);
    }
  }
  const unknown = await runCli(["validate", "vcn", "--data", "test/fixtures/vcn-legacy-mini", "--prompt", "nope"]);
  assert.equal(unknown.code, 2);
  assert.equal(unknown.stderr.trim(), 'error: unknown VCN-Bench prompt "nope" (choose plain, shuffled-frames, counterfactual)');
});
