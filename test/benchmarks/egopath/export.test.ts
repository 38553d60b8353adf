import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { answerText, checkAnswer, exportEgoPath, planExport } from "../../../src/benchmarks/egopath/export.js";
import { exportLines, imageReference, type ExportFormat } from "../../../src/core/training-export.js";
import { availableTasks, loadRelease, loadReleaseOrThrow, splitLayout } from "../../../src/benchmarks/egopath/load.js";
import { releasePaths, TASK_CODES } from "../../../src/benchmarks/egopath/tasks.js";
import type { EgoPathItem } from "../../../src/benchmarks/egopath/types.js";
import { runCli } from "../../helpers/cli.js";

// Fixture rows and sidecars: test/fixtures/egopath/export/README.md. CLI tests need dist/ (npx tsc -p tsconfig.json).
const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/egopath/export");
const EXAMPLE = path.resolve(import.meta.dirname, "../../../examples/egopath-mini");
const SYS = "You see a robot's view. Numbered markers are candidate floor spots. Answer only with a JSON array of waypoint ids.";
const A1_USER = "Which waypoints are on free floor? Answer as a JSON array.";
const B1_USER = "A robot 0.6 m wide: on which waypoints can it stand? Answer as a JSON array.";
const C_USER = 'A robot 0.6 m wide stands at waypoint 1. Its user says: "I want to sit down."\nPlan its route as a JSON array of waypoint ids.';
const IMG = (task: string) => `../data/assets/s1/view_0/rgb_overlay_${task}.png`;

const scratch = mkdtempSync(path.join(tmpdir(), "spatialprobe-export-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
let serial = 0;

/** A fresh copy of the fixture at <case>/data, with <case>/out/ for the export (so image paths are "../data/..."). */
function fixtureCopy(): { dir: string; data: string; out: (name: string) => string } {
  const dir = path.join(scratch, `case${serial++}`);
  cpSync(FIXTURE, path.join(dir, "data"), { recursive: true });
  return { dir, data: path.join(dir, "data"), out: (name) => path.join(dir, "out", name) };
}

function editRows(file: string, edit: (row: Record<string, any>) => void): void {
  const rows = readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line));
  rows.forEach(edit);
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
}

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const readJsonl = (file: string) => readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));

test("answers are written as JSON arrays with Python's separators", () => {
  assert.equal(answerText([1n, 4n, 7n]), "[1, 4, 7]");
  assert.equal(answerText([]), "[]");
  assert.equal(answerText([9007199254740993n]), "[9007199254740993]");
});

test("image paths: relative to the output file's folder, or absolute", () => {
  assert.equal(imageReference("/d/assets/s1/a.png", "/d/export/train.json", "relative"), "../assets/s1/a.png");
  assert.equal(imageReference("/d/assets/s1/a.png", "/d/train.json", "relative"), "assets/s1/a.png");
  assert.equal(imageReference("/d/assets/s1/a.png", "/d/export/train.json", "absolute"), "/d/assets/s1/a.png");
});

test("llava: one record per question, the system prompt opening the human turn", () => {
  const { data, out } = fixtureCopy();
  const summary = exportEgoPath({ data, format: "llava", outFile: out("train.json") });
  assert.deepEqual(summary.counts, { a1: 2, b1: 1, a2: 1, b2: 1, c: 1 });
  assert.deepEqual(summary.refused, []);
  assert.equal(summary.datasetInfo, undefined);
  const text = readFileSync(out("train.json"), "utf8");
  assert.equal(text.split("\n").length, 9, "[, six records a line each, ], and the final newline");
  const rows = JSON.parse(text);
  assert.deepEqual(rows.map((r: any) => r.id), ["s1_v0_a1_0", "7", "s1_v0_b1_0", "s1_v0_a2_0", "s1_v0_b2_0", "s1_v0_c_0"]);
  assert.deepEqual(rows[0], {
    id: "s1_v0_a1_0",
    image: IMG("a1"),
    conversations: [
      { from: "human", value: `<image>\n${SYS}\n\n${A1_USER}` },
      { from: "gpt", value: "[4, 1, 3]" },
    ],
  });
  // No system_prompt in the row: the human turn is the image and the user prompt.
  assert.deepEqual(rows[2], {
    id: "s1_v0_b1_0",
    image: IMG("b1"),
    conversations: [
      { from: "human", value: `<image>\n${B1_USER}` },
      { from: "gpt", value: "[3]" },
    ],
  });
  assert.deepEqual(rows[5], {
    id: "s1_v0_c_0",
    image: IMG("c"),
    conversations: [
      { from: "human", value: `<image>\n${SYS}\n\n${C_USER}` },
      { from: "gpt", value: "[1, 3, 4, 5]" },
    ],
  });
  // Fallbacks: walkable_ids when there is no answer; the gt file's reference route for b2.
  assert.deepEqual(rows.map((r: any) => r.conversations[1].value), ["[4, 1, 3]", "[2, 5]", "[3]", "[1, 2, 4]", "[1, 3, 4]", "[1, 3, 4, 5]"]);
});

test("sharegpt: conversations, system and images columns, and the dataset_info.json entry beside the file", () => {
  const { data, out } = fixtureCopy();
  const summary = exportEgoPath({ data, format: "sharegpt", outFile: out("egopath_bench.json") });
  const infoFile = path.join(path.dirname(out("x")), "dataset_info.json");
  assert.deepEqual(summary.datasetInfo, { file: infoFile, name: "egopath_bench" });
  assert.equal(readFileSync(infoFile, "utf8"), [
    "{",
    '  "egopath_bench": {',
    '    "file_name": "egopath_bench.json",',
    '    "formatting": "sharegpt",',
    '    "columns": {',
    '      "messages": "conversations",',
    '      "system": "system",',
    '      "images": "images"',
    "    },",
    '    "tags": {',
    '      "role_tag": "from",',
    '      "content_tag": "value",',
    '      "user_tag": "human",',
    '      "assistant_tag": "gpt"',
    "    }",
    "  }",
    "}",
    "",
  ].join("\n"));
  const rows = readJson(out("egopath_bench.json"));
  assert.equal(rows.length, 6);
  assert.deepEqual(rows[0], {
    conversations: [
      { from: "human", value: `<image>${A1_USER}` },
      { from: "gpt", value: "[4, 1, 3]" },
    ],
    system: SYS,
    images: [IMG("a1")],
  });
  assert.deepEqual(rows[2], {
    conversations: [
      { from: "human", value: `<image>${B1_USER}` },
      { from: "gpt", value: "[3]" },
    ],
    images: [IMG("b1")],
  });
  assert.deepEqual(rows[4], {
    conversations: [
      { from: "human", value: "<image>A robot 0.6 m wide stands at waypoint 1. Plan its route to the sofa as a JSON array of waypoint ids." },
      { from: "gpt", value: "[1, 3, 4]" },
    ],
    system: SYS,
    images: [IMG("b2")],
  });
});

test("swift: JSONL messages with system, user (<image> first) and assistant turns, and images", () => {
  const { data, out } = fixtureCopy();
  exportEgoPath({ data, format: "swift", outFile: out("train.jsonl") });
  const lines = readFileSync(out("train.jsonl"), "utf8").split("\n");
  assert.equal(lines.length, 7, "six lines and the final newline");
  assert.equal(lines[1], JSON.stringify({
    messages: [
      { role: "system", content: SYS },
      { role: "user", content: `<image>${A1_USER}` },
      { role: "assistant", content: "[2, 5]" },
    ],
    images: [IMG("a1")],
  }));
  assert.deepEqual(JSON.parse(lines[2]!), {
    messages: [
      { role: "user", content: `<image>${B1_USER}` },
      { role: "assistant", content: "[3]" },
    ],
    images: [IMG("b1")],
  });
  assert.deepEqual(JSON.parse(lines[3]!), {
    messages: [
      { role: "system", content: SYS },
      { role: "user", content: "<image>Plan a route from waypoint 1 to the sofa. Answer with the route as a JSON array of waypoint ids." },
      { role: "assistant", content: "[1, 2, 4]" },
    ],
    images: [IMG("a2")],
  });
});

test("relative image paths resolve from the output folder, also after the whole folder moves", () => {
  const { dir, data, out } = fixtureCopy();
  exportEgoPath({ data, format: "swift", outFile: out("train.jsonl") });
  const moved = `${dir}-moved`;
  renameSync(dir, moved);
  const file = path.join(moved, "out", "train.jsonl");
  const images = readJsonl(file).map((r) => r.images[0] as string);
  assert.equal(images.length, 6);
  for (const image of images) assert.ok(existsSync(path.resolve(path.dirname(file), image)), image);
});

test("--image-root absolute writes the resolved image paths", () => {
  const { data, out } = fixtureCopy();
  exportEgoPath({ data, format: "llava", outFile: out("abs.json"), imageRoot: "absolute" });
  assert.deepEqual(readJson(out("abs.json")).map((r: any) => r.image), ["a1", "a1", "b1", "a2", "b2", "c"].map((t) => path.join(data, `assets/s1/view_0/rgb_overlay_${t}.png`)));
});

test("the same data gives the same bytes", () => {
  const { data, out } = fixtureCopy();
  for (const format of ["llava", "sharegpt", "swift"] as const) {
    exportEgoPath({ data, format, outFile: out(`${format}-1/x.json`) });
    exportEgoPath({ data, format, outFile: out(`${format}-2/x.json`) });
    assert.equal(readFileSync(out(`${format}-1/x.json`), "utf8"), readFileSync(out(`${format}-2/x.json`), "utf8"), format);
  }
});

test("every question of the bundled example exports, in task order then file order", () => {
  const lines = (task: string) => readFileSync(path.join(EXAMPLE, releasePaths.vqa(task as never)), "utf8").split("\n").filter((l) => l.trim() !== "");
  const expected = Object.fromEntries(TASK_CODES.map((t) => [t, lines(t).length]));
  const expectedIds = TASK_CODES.flatMap((t) => lines(t).map((l) => String(JSON.parse(l).question_id)));
  const { items } = loadReleaseOrThrow(EXAMPLE);
  const outFile = path.join(scratch, "example", "x.json");
  for (const format of ["llava", "sharegpt", "swift"] as ExportFormat[]) {
    const plan = planExport(items, { format, outFile });
    assert.deepEqual(plan.refused, [], format);
    assert.deepEqual(plan.counts, expected, format);
    const images = plan.records.map((r: any) => (format === "llava" ? r.image : r.images[0]) as string);
    for (const image of images) assert.ok(existsSync(path.resolve(path.dirname(outFile), image)), image);
  }
  assert.deepEqual(planExport(items, { format: "llava", outFile }).records.map((r) => r["id"]), expectedIds);
});

/** A loaded fixture item with a changed stored answer or prompt. */
function fixtureItem(id: string, change: Partial<EgoPathItem> & { answer?: unknown } = {}): EgoPathItem {
  const item = loadReleaseOrThrow(FIXTURE).items.find((i) => i.id === id)!;
  const { answer, ...rest } = change;
  const groundTruth = "answer" in change ? { ...item.groundTruth, answer } : item.groundTruth;
  return { ...item, ...rest, groundTruth } as EgoPathItem;
}

test("the check scores each stored answer with our scorer and says why one fails", () => {
  const refused = (item: EgoPathItem) => {
    const checked = checkAnswer(item);
    return checked.ok ? `ok ${answerText(checked.ids)}` : checked.reason;
  };
  // a1, walkable_ids [1, 3, 4] over candidates 1-5.
  assert.equal(refused(fixtureItem("s1_v0_a1_0", { answer: ["1", 3, 4.0] })), "ok [1, 3, 4]", "ids read with Python int()");
  assert.equal(refused(fixtureItem("s1_v0_a1_0", { answer: [1, 3] })), "ground_truth.answer [1, 3] is not the walkable set: missing 4");
  assert.equal(refused(fixtureItem("s1_v0_a1_0", { answer: [1, 2, 3, 4, 9] })), "ground_truth.answer [1, 2, 3, 4, 9] is not the walkable set: extra 2; not displayed 9");
  assert.equal(refused(fixtureItem("s1_v0_a1_0", { answer: [1, "x"] })), 'ground_truth.answer holds "x", not an integer id');
  // a2: start 1, goal 4; legal steps 1-2, 1-3, 2-4, 3-4 (both ways).
  assert.equal(refused(fixtureItem("s1_v0_a2_0", { answer: [1, 3, 4] })), "ok [1, 3, 4]");
  assert.equal(refused(fixtureItem("s1_v0_a2_0", { answer: [] })), "ground_truth.answer [] fails the route check (parse): it is empty");
  assert.equal(refused(fixtureItem("s1_v0_a2_0", { answer: [1, 9, 4] })), "ground_truth.answer [1, 9, 4] fails the route check (invalid_id): ids not displayed: 9");
  assert.equal(refused(fixtureItem("s1_v0_a2_0", { answer: [2, 4] })), "ground_truth.answer [2, 4] fails the route check (wrong_start): a route needs at least 2 ids and must start at start_id 1");
  assert.equal(refused(fixtureItem("s1_v0_a2_0", { answer: [1, 4] })), "ground_truth.answer [1, 4] fails the route check (illegal_edge): step 1 -> 4 is not a listed direct pair");
  assert.equal(refused(fixtureItem("s1_v0_a2_0", { answer: [1, 2, 1] })), "ground_truth.answer [1, 2, 1] fails the route check (wrong_goal): it ends at 1, not at an acceptable goal (4)");
  const b2 = fixtureItem("s1_v0_b2_0");
  assert.equal(refused({ ...b2, groundTruth: { ...b2.groundTruth, reference_path_display_ids: null } }), "no stored answer (neither ground_truth.answer nor ground_truth.reference_path_display_ids is a list)");
  assert.equal(refused(fixtureItem("s1_v0_b1_0", { userPrompt: "<image> Which spots?" })), "user_prompt contains <image>, which the trainers read as a media placeholder");
});

test("a tampered answer is refused and reported; the other questions are exported", () => {
  const { data, out } = fixtureCopy();
  const vqa = (task: string) => path.join(data, `benchmark_evalfix/benchmark/vqa/vqa_next_${task}.jsonl`);
  editRows(vqa("a1"), (row) => { if (row.question_id === "s1_v0_a1_0") row.ground_truth.walkable_ids = [1, 3]; });
  editRows(vqa("a2"), (row) => { row.ground_truth.answer = [1, 3, 5]; });
  editRows(vqa("c"), (row) => { row.ground_truth.answer = [1, 3, 4]; });
  const summary = exportEgoPath({ data, format: "swift", outFile: out("t.jsonl") });
  assert.deepEqual(summary.refused, [
    { id: "s1_v0_a1_0", task: "a1", reason: "ground_truth.answer [4, 1, 3] is not the walkable set: extra 4" },
    { id: "s1_v0_a2_0", task: "a2", reason: "ground_truth.answer [1, 3, 5] fails the route check (illegal_edge): step 3 -> 5 is not a listed direct pair" },
    { id: "s1_v0_c_0", task: "c", reason: "ground_truth.answer [1, 3, 4] fails the route check (wrong_goal): it ends at 4, not at an acceptable goal (5)" },
  ]);
  assert.deepEqual(summary.counts, { a1: 1, b1: 1, a2: 0, b2: 1, c: 0 });
  assert.deepEqual(readJsonl(out("t.jsonl")).map((r) => r.messages.at(-1).content), ["[2, 5]", "[3]", "[1, 3, 4]"]);
});

test("an empty export is still a valid file", () => {
  assert.deepEqual([...exportLines({ format: "llava", records: [] })], ["[]\n"]);
  assert.deepEqual([...exportLines({ format: "swift", records: [] })], []);
  assert.equal([...exportLines({ format: "sharegpt", records: [{ a: 1 }, { b: 2 }] })].join(""), '[\n{"a":1},\n{"b":2}\n]\n');
});

test("splits: benchmark keeps the evaluation package; train and val are read from release/<split>/ or benchmark_evalfix/<split>/", () => {
  assert.equal(splitLayout(FIXTURE), releasePaths);
  assert.equal(splitLayout(FIXTURE, "train").vqa("a1"), "release/train/vqa/vqa_next_a1.jsonl");
  assert.equal(splitLayout(FIXTURE, "train").gt("c"), "release/train/gt/gt_next_c.jsonl");
  assert.deepEqual(availableTasks(FIXTURE, "train"), ["a1"]);
  assert.deepEqual(availableTasks(FIXTURE), ["a1", "b1", "a2", "b2", "c"]);
  assert.deepEqual(loadRelease(FIXTURE).items.map((i) => i.id), loadRelease(FIXTURE, { split: "benchmark" }).items.map((i) => i.id));
  const train = loadRelease(FIXTURE, { split: "train" });
  assert.deepEqual([train.problems, train.items.map((i) => i.id)], [[], ["train_s1_v0_a1_0"]]);
  assert.deepEqual(loadRelease(FIXTURE, { split: "val" }).problems, [{
    file: "release/val/vqa/vqa_next_<task>.jsonl",
    message: "no vqa files found for the val split (looked in release/val/vqa/ and benchmark_evalfix/val/vqa/): --data must point at the release root (the folder holding benchmark_evalfix/ and assets/)",
  }]);
  const { data } = fixtureCopy();
  mkdirSync(path.join(data, "benchmark_evalfix/val/vqa"), { recursive: true });
  cpSync(path.join(data, "release/train/vqa/vqa_next_a1.jsonl"), path.join(data, "benchmark_evalfix/val/vqa/vqa_next_a1.jsonl"));
  assert.equal(splitLayout(data, "val").vqa("a1"), "benchmark_evalfix/val/vqa/vqa_next_a1.jsonl");
  assert.deepEqual(loadRelease(data, { split: "val" }).items.map((i) => i.id), ["train_s1_v0_a1_0"]);
});

// End to end, through the built CLI.

test("cli: export writes the file, names it on stdout, and adds to an existing dataset_info.json", async () => {
  const { data, out } = fixtureCopy();
  const folder = path.dirname(out("x"));
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, "dataset_info.json"), JSON.stringify({ mine: { file_name: "mine.json" } }));
  const result = await runCli(["export", "egopath", "--data", data, "--format", "sharegpt", "--out", out("ego_train.json"), "--split", "train"]);
  assert.equal(result.stderr, "");
  assert.equal(result.code, 0);
  assert.equal(result.stdout, `wrote ${out("ego_train.json")}: 1 conversation (a1 1, b1 0, a2 0, b2 0, c 0), sharegpt format\ndataset "ego_train" described in ${folder}/dataset_info.json\n`);
  assert.deepEqual(readJson(path.join(folder, "dataset_info.json")), {
    mine: { file_name: "mine.json" },
    ego_train: {
      file_name: "ego_train.json",
      formatting: "sharegpt",
      columns: { messages: "conversations", system: "system", images: "images" },
      tags: { role_tag: "from", content_tag: "value", user_tag: "human", assistant_tag: "gpt" },
    },
  });
  assert.deepEqual(Object.keys(readJson(path.join(folder, "dataset_info.json"))), ["mine", "ego_train"]);
  assert.deepEqual(readJson(out("ego_train.json")), [{
    conversations: [{ from: "human", value: `<image>${A1_USER}` }, { from: "gpt", value: "[1, 2]" }],
    system: SYS,
    images: [IMG("a1")],
  }]);

  // Again with the same name: refused before anything is written.
  const again = await runCli(["export", "egopath", "--data", data, "--format", "sharegpt", "--out", path.join(folder, "ego_train.jsonl")]);
  assert.equal(again.code, 2);
  assert.equal(again.stderr, `error: ${folder}/dataset_info.json already describes a dataset "ego_train"; choose another --out name or remove that entry\n`);
  assert.deepEqual(readdirSync(folder).sort(), ["dataset_info.json", "ego_train.json"]);
});

test("cli: refused questions are listed on stderr with exit 1", async () => {
  const { data, out } = fixtureCopy();
  editRows(path.join(data, "benchmark_evalfix/benchmark/vqa/vqa_next_b1.jsonl"), (row) => { row.ground_truth.walkable_ids = [3, 4]; });
  const result = await runCli(["export", "egopath", "--data", data, "--format", "llava", "--out", out("r.json")]);
  assert.equal(result.code, 1);
  assert.equal(result.stdout, `wrote ${out("r.json")}: 5 conversations (a1 2, b1 0, a2 1, b2 1, c 1), llava format\n`);
  assert.equal(result.stderr, [
    "refused 1 question whose stored answer fails the EgoPathBench scorer (not exported):",
    "  - s1_v0_b1_0 (b1): ground_truth.answer [3] is not the walkable set: missing 4",
    "",
  ].join("\n"));
  assert.deepEqual(readJson(out("r.json")).map((r: any) => r.id), ["s1_v0_a1_0", "7", "s1_v0_a2_0", "s1_v0_b2_0", "s1_v0_c_0"]);
});

test("cli: usage errors and data problems are clear, and nothing is written", async () => {
  const { data, out } = fixtureCopy();
  const cases: [string[], number, RegExp | string][] = [
    [["export", "egopath", "--data", data, "--format", "alpaca", "--out", out("a.json")], 2, 'error: unknown --format "alpaca" (choose llava, sharegpt, swift)\n'],
    [["export", "egopath", "--data", data, "--format", "swift", "--split", "tests", "--out", out("a.json")], 2, 'error: unknown --split "tests" (choose benchmark, train, val)\n'],
    [["export", "egopath", "--data", data, "--format", "swift", "--image-root", "cwd", "--out", out("a.json")], 2, 'error: unknown --image-root "cwd" (choose relative, absolute)\n'],
    [["export", "nonesuch", "--data", data, "--format", "swift", "--out", out("a.json")], 2, 'error: export supports egopath, patheval, vcn, egotl, epic (got "nonesuch")\n'],
    [["export", "egopath", "--format", "swift", "--out", out("a.json")], 2, /error: required option '--data <path>' not specified/],
    [["export", "egopath", "--data", data, "--format", "swift", "--split", "val", "--out", out("a.json")], 1, /^error: the data has problems; nothing was run\.\n {2}- release\/val\/vqa\/vqa_next_<task>\.jsonl: no vqa files found for the val split/],
    [["export", "egopath", "--data", path.join(data, "nowhere"), "--format", "swift", "--out", out("a.json")], 1, /dataset root does not exist or is not a folder/],
    [["export", "egopath", "--data", data, "--format", "sharegpt", "--out", out("dataset_info.json")], 2, "error: --out must not be named dataset_info.json: that file holds LLaMA-Factory's dataset descriptions\n"],
    [["export", "egopath", "--data", data, "--format", "llava", "--out", path.join(data, "assets/s1/view_0/visible_waypoints.json")], 2, `error: --out ${path.join(data, "assets/s1/view_0/visible_waypoints.json")} already exists; export writes a new file and overwrites nothing\n`],
  ];
  for (const [args, code, stderr] of cases) {
    const result = await runCli(args);
    assert.equal(result.code, code, args.join(" "));
    if (typeof stderr === "string") assert.equal(result.stderr, stderr, args.join(" "));
    else assert.match(result.stderr, stderr, args.join(" "));
  }
  assert.equal(existsSync(path.dirname(out("a.json"))), false, "no output folder was made");
  assert.equal(readFileSync(path.join(data, "assets/s1/view_0/visible_waypoints.json"), "utf8"), readFileSync(path.join(FIXTURE, "assets/s1/view_0/visible_waypoints.json"), "utf8"));
});

test("cli: --split test (run's name for the benchmark split) writes the same bytes as --split benchmark", async () => {
  const { data, out } = fixtureCopy();
  const named = await runCli(["export", "egopath", "--data", data, "--format", "swift", "--split", "test", "--out", out("test.jsonl")]);
  const plain = await runCli(["export", "egopath", "--data", data, "--format", "swift", "--split", "benchmark", "--out", out("benchmark.jsonl")]);
  assert.equal(named.code, plain.code);
  assert.equal(readFileSync(out("test.jsonl"), "utf8"), readFileSync(out("benchmark.jsonl"), "utf8"));
});
