/**
 * Confinement of dataset paths, tried the way an attacker would: every path field of every
 * benchmark's loader gets a reference that climbs out of the root (../, absolute, /etc/passwd),
 * leaves through a symbolic link (a file, or a folder), is percent-encoded, or names a file whose
 * bytes are not the media it claims. Each is a problem on its own file, line and field, with a
 * message that names the reference and never the content of any file.
 */
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import type { DataProblem } from "../../src/core/problems.js";
import { DESCRIPTORS } from "../../src/benchmarks/patheval/scenarios.js";
import { getBenchmark } from "../../src/registry.js";
import { MP4_HEAD, TINY_PNG } from "../helpers/media.js";

const EXAMPLES = path.resolve(import.meta.dirname, "../../examples");
const top = mkdtempSync(path.join(os.tmpdir(), "confine-"));
after(() => rmSync(top, { recursive: true, force: true }));

/** Text no message may ever show: it is the content of the files the attacks point at. */
const SECRET = "root:x:0:0:TOPSECRET:/root:/bin/bash";
const HINT = "pass --allow-outside-root to read media kept elsewhere on purpose";

const outside = path.join(top, "outside");
mkdirSync(outside);
writeFileSync(path.join(outside, "secret.png"), Buffer.concat([TINY_PNG, Buffer.from(SECRET)]));
writeFileSync(path.join(outside, "secret.mp4"), Buffer.concat([MP4_HEAD, Buffer.from(SECRET)]));
writeFileSync(path.join(outside, "secret.json"), SECRET);
writeFileSync(path.join(outside, "0.png"), TINY_PNG);

/** A dataset root with the attack files every benchmark's rows point at. */
function attackRoot(name: string, example?: string): string {
  const root = path.join(top, name);
  if (example) cpSync(path.join(EXAMPLES, example), root, { recursive: true });
  mkdirSync(root, { recursive: true });
  for (const ext of ["png", "mp4", "json"]) symlinkSync(path.join(outside, `secret.${ext}`), path.join(root, `link.${ext}`));
  symlinkSync(outside, path.join(root, "linkdir"));
  writeFileSync(path.join(root, "fake.png"), SECRET);
  writeFileSync(path.join(root, "fake.mp4"), SECRET);
  writeFileSync(path.join(root, "empty.png"), "");
  writeFileSync(path.join(root, "notjson.json"), SECRET);
  writeFileSync(path.join(root, "clip.png"), TINY_PNG); // a real PNG is not a video
  mkdirSync(path.join(root, "leaky"));
  writeFileSync(path.join(root, "leaky", "0.png"), TINY_PNG);
  symlinkSync(path.join(outside, "secret.png"), path.join(root, "leaky", "1.png"));
  mkdirSync(path.join(root, "fakeframes"));
  writeFileSync(path.join(root, "fakeframes", "0.png"), TINY_PNG);
  writeFileSync(path.join(root, "fakeframes", "1.png"), SECRET);
  return root;
}

interface Attack {
  ref: string;
  /** The expected message, from what the field's file is called and how a missing one is shown. */
  message: (what: string, notFound: string) => string;
}

const outsideMessage = (ref: string) => (what: string) => `${what} ${ref} is outside the dataset root; refused (${HINT})`;
const linkMessage = (ref: string) => (what: string) => `${what} ${ref} is a link to a file outside the dataset root; refused (${HINT})`;

/** Attacks on a field that names a file with extension `ext`. */
function fileAttacks(ext: "png" | "mp4" | "json"): Attack[] {
  const absolute = path.join(outside, `secret.${ext}`);
  return [
    { ref: `../outside/secret.${ext}`, message: outsideMessage(`../outside/secret.${ext}`) },
    { ref: absolute, message: outsideMessage(absolute) },
    { ref: "/etc/passwd", message: outsideMessage("/etc/passwd") },
    { ref: "../../../../../../../../../etc/passwd", message: outsideMessage("../../../../../../../../../etc/passwd") },
    { ref: `link.${ext}`, message: linkMessage(`link.${ext}`) },
    { ref: `linkdir/secret.${ext}`, message: linkMessage(`linkdir/secret.${ext}`) },
    { ref: `%2e%2e/outside/secret.${ext}`, message: (_what, notFound) => notFound },
    { ref: `..%2Foutside%2Fsecret.${ext}`, message: (_what, notFound) => notFound },
  ];
}

const IMAGE_CONTENT: Attack[] = [
  { ref: "fake.png", message: (what) => `${what} fake.png is not an image (its bytes are not PNG, JPEG, GIF or WebP)` },
  { ref: "empty.png", message: (what) => `${what} empty.png is empty` },
  { ref: "fake.mp4", message: (what) => `${what} fake.mp4 is not an image (its bytes are not PNG, JPEG, GIF or WebP)` },
];
const VIDEO_CONTENT: Attack[] = [
  { ref: "fake.mp4", message: (what) => `${what} fake.mp4 is not a video (its bytes match no known container: MP4/MOV, Matroska/WebM, AVI, Ogg, FLV, MPEG)` },
  { ref: "clip.png", message: (what) => `${what} clip.png is image/png, not a video` },
];

function assertNoSecret(problems: DataProblem[]): void {
  for (const p of problems) assert.ok(!p.message.includes("TOPSECRET"), `a message quotes a file's content: ${p.message}`);
}

/** The problems of one line and field, as [field, message] pairs. */
const on = (problems: DataProblem[], line: number, field: string) => problems.filter((p) => p.line === line && p.field === field).map((p) => p.message);

test("EgoPathBench: image_path, visible_waypoints_path and direct_pairs_ref are confined and checked", () => {
  const root = attackRoot("egopath", "egopath-mini");
  const vqa = path.join(root, "benchmark_evalfix/benchmark/vqa/vqa_next_c.jsonl");
  const base = JSON.parse(readFileSync(vqa, "utf8").split("\n")[0]!) as Record<string, unknown> & { ground_truth: Record<string, unknown> };
  const cases: Array<{ field: string; what: string; attack: Attack }> = [
    ...[...fileAttacks("png"), ...IMAGE_CONTENT].map((attack) => ({ field: "image_path", what: "image file", attack })),
    ...[...fileAttacks("json")].map((attack) => ({ field: "visible_waypoints_path", what: "visible-waypoints file", attack })),
    ...fileAttacks("json").map((attack) => ({ field: "ground_truth.direct_pairs_ref", what: "direct-pairs sidecar", attack })),
  ];
  const rows = cases.map(({ field, attack }, i) => {
    const row = { ...base, question_id: `attack_${i}`, ground_truth: { ...base.ground_truth } };
    if (field === "ground_truth.direct_pairs_ref") row.ground_truth["direct_pairs_ref"] = attack.ref;
    else row[field] = attack.ref;
    return JSON.stringify(row);
  });
  rows.push(JSON.stringify({ ...base, question_id: "not_json", visible_waypoints_path: "notjson.json" }));
  writeFileSync(vqa, `${rows.join("\n")}\n`);
  const { items, problems } = getBenchmark("egopath").load(root, ["c"]);
  assert.deepEqual(items, []);
  assertNoSecret(problems);
  cases.forEach(({ field, what, attack }, i) => {
    const notFound = field === "ground_truth.direct_pairs_ref" ? `cannot resolve sidecar ${attack.ref}` : `${what} not found: ${attack.ref}`;
    assert.deepEqual(on(problems, i + 1, field), [attack.message(what, notFound)], `${field} = ${attack.ref}`);
  });
  assert.deepEqual(problems.filter((p) => p.file === "notjson.json").map((p) => p.message), ["invalid JSON: Expecting value at line 1, column 1"]);
});

test("PathEval: the image of every record is confined and must be an image", () => {
  const root = attackRoot("patheval");
  const attacks = [...fileAttacks("png"), ...IMAGE_CONTENT];
  mkdirSync(path.join(root, "2D"));
  const metrics = Object.fromEntries(["Path 1", "Path 2"].map((p) => [p, Object.fromEntries(DESCRIPTORS.map((d) => [d, 1]))]));
  const records = attacks.map((a, i) => ({ id: i, image: a.ref, conversations: [{ from: "human", value: "A drone must fly. Which path?" }, { from: "gpt", value: "Path 1" }], metrics }));
  writeFileSync(path.join(root, "2D", "test_dataset_2D.json"), JSON.stringify(records));
  const { items, problems } = getBenchmark("patheval").load(root);
  assert.deepEqual(items, []);
  assertNoSecret(problems);
  assert.deepEqual(
    problems.map((p) => [p.file, p.field, p.message]),
    attacks.map((a, i) => [path.join("2D", "test_dataset_2D.json"), `[${i}].image`, a.message("image", `image not found: ${a.ref}`)]),
  );
});

test("EPIC-Bench: images found by name that link out of the root or are not images are refused", () => {
  const root = attackRoot("epic");
  const rel = "EPIC_Bench/Navigation/GroundDetection";
  const dir = path.join(root, rel);
  mkdirSync(dir, { recursive: true });
  const gt = JSON.stringify({ mask_annotation: { masklet_ground: [{ size: [1, 1], counts: [0, 1] }] }, text_annotation: { scene_description_en: "ground" } });
  for (const name of ["a", "b", "c"]) writeFileSync(path.join(dir, `${name}_mask_rle.json`), gt);
  symlinkSync(path.join(outside, "secret.png"), path.join(dir, "a_image.png"));
  writeFileSync(path.join(dir, "b_image.png"), SECRET);
  writeFileSync(path.join(dir, "c_image.jpg"), TINY_PNG); // a PNG named .jpg is still an image: accepted
  const { items, problems } = getBenchmark("epic").load(root);
  assertNoSecret(problems);
  assert.deepEqual(problems.map((p) => [p.file, p.field, p.message]), [
    [`${rel}/a_mask_rle.json`, "images", linkMessage(`${rel}/a_image.png`)("image")],
    [`${rel}/b_mask_rle.json`, "images", `image ${rel}/b_image.png is not an image (its bytes are not PNG, JPEG, GIF or WebP)`],
  ]);
  assert.deepEqual(items.map((i) => i.id), [`${rel}/c_mask_rle.json`]);
});

/** Folder attacks: out of the root, through a link, and folders inside whose frames leak or lie. */
function folderAttacks(root: string, notFound: (ref: string) => string): Array<{ ref: string; messages: (what: string) => string[] }> {
  return [
    { ref: "../outside", messages: (what) => [outsideMessage("../outside")(what)] },
    { ref: outside, messages: (what) => [outsideMessage(outside)(what)] },
    { ref: "/etc", messages: (what) => [outsideMessage("/etc")(what)] },
    { ref: "linkdir", messages: (what) => [linkMessage("linkdir")(what)] },
    { ref: "%2e%2e/outside", messages: () => [notFound("%2e%2e/outside")] },
    { ref: "leaky", messages: () => [linkMessage(path.join(root, "leaky", "1.png"))("frame")] },
    { ref: "fakeframes", messages: () => [`frame ${path.join(root, "fakeframes", "1.png")} is not an image (its bytes are not PNG, JPEG, GIF or WebP)`] },
  ];
}

test("VCN-Bench: tour video, frames, frame folder and initial views are confined and checked", () => {
  const root = attackRoot("vcn", "../test/fixtures/vcn-legacy-mini");
  const base = JSON.parse(readFileSync(path.join(root, "items.jsonl"), "utf8").split("\n")[0]!) as Record<string, unknown> & { tour: { dir: string } };
  const frames = readdirSync(path.join(root, base.tour.dir)).sort().map((f) => `${base.tour.dir}/${f}`);
  const n = frames.length;
  type Case = { field: string; row: Record<string, unknown>; messages: string[] };
  const cases: Case[] = [];
  for (const a of [...fileAttacks("mp4"), ...VIDEO_CONTENT]) {
    cases.push({ field: "tour.video", row: { tour: { video: a.ref, spec: { mode: "uniform", count: n } } }, messages: [a.message("video", `video not found: ${a.ref}`)] });
  }
  for (const a of [...fileAttacks("png"), ...IMAGE_CONTENT]) {
    const list = frames.map((f, i) => (i === 1 ? a.ref : f));
    cases.push({ field: "tour.frames[1]", row: { tour: { frames: list } }, messages: [a.message("frame", `frame not found: ${a.ref}`)] });
    const views = { ...(base["initial_views"] as Record<string, string>), left: a.ref };
    cases.push({ field: "initial_views.left", row: { initial_views: views }, messages: [a.message("image", `image not found: ${a.ref}`)] });
  }
  for (const a of folderAttacks(root, (ref) => `frame folder not found: ${ref}`)) {
    cases.push({ field: "tour.dir", row: { tour: { dir: a.ref, spec: { mode: "uniform", count: n } } }, messages: a.messages("frame folder") });
  }
  const lines = cases.map((c, i) => JSON.stringify({ ...base, id: `attack-${i}`, episode_id: `attack-${i}`, ...c.row }));
  writeFileSync(path.join(root, "items.jsonl"), `${lines.join("\n")}\n`);
  const { items, problems } = getBenchmark("vcn").load(root);
  assertNoSecret(problems);
  // The refusal comes first; a 2-frame folder against 24 annotated frames is a problem of its own after it.
  cases.forEach((c, i) => assert.deepEqual(on(problems, i + 1, c.field).slice(0, c.messages.length), c.messages, `${c.field} ${JSON.stringify(c.row).slice(0, 120)}`));
  assert.deepEqual(items, []);
});

test("EgoTL-Bench: media.video, media.frames, media.dir and current_frame are confined and checked", () => {
  const root = attackRoot("egotl", "../test/fixtures/egotl-legacy-mini");
  const abs = (ref: string) => path.resolve(root, ref);
  const cases: Array<{ field: string; row: Record<string, unknown>; messages: string[] }> = [];
  const direction = { task: "direction", answer: "Turn left" };
  for (const a of [...fileAttacks("mp4"), ...VIDEO_CONTENT]) {
    cases.push({ field: "media.video", row: { ...direction, media: { video: a.ref } }, messages: [a.message("file", `file not found: ${abs(a.ref)}`)] });
  }
  for (const a of [...fileAttacks("png"), ...IMAGE_CONTENT]) {
    cases.push({ field: "media.frames[1]", row: { ...direction, media: { frames: ["frames/w01/frame_000.png", a.ref] } }, messages: [a.message("file", `file not found: ${abs(a.ref)}`)] });
    const options = ["turn left", "turn right", "walk ahead", "climb the stairs"];
    cases.push({ field: "current_frame", row: { task: "scene_action", current_frame: a.ref, abstract_task: "go", options, answer: "A" }, messages: [a.message("file", `file not found: ${abs(a.ref)}`)] });
  }
  for (const a of folderAttacks(root, (ref) => `folder not found: ${abs(ref)}`)) {
    cases.push({ field: "media.dir", row: { ...direction, media: { dir: a.ref, fps: 4 } }, messages: a.messages("folder") });
  }
  const lines = cases.map((c, i) => JSON.stringify({ id: `attack-${i}`, ...c.row }));
  writeFileSync(path.join(root, "test.jsonl"), `${lines.join("\n")}\n`);
  const { items, problems } = getBenchmark("egotl").load(root);
  assertNoSecret(problems);
  cases.forEach((c, i) => assert.deepEqual(on(problems, i + 1, c.field), c.messages, `${c.field} ${JSON.stringify(c.row)}`));
  assert.deepEqual(items, []);
});

test("--allow-outside-root reads media kept elsewhere, and still checks what the bytes are", () => {
  const root = attackRoot("allowed", "egopath-mini");
  const vqa = path.join(root, "benchmark_evalfix/benchmark/vqa/vqa_next_a1.jsonl");
  const [first, second] = readFileSync(vqa, "utf8").split("\n") as [string, string];
  const outsideRow = { ...JSON.parse(first), image_path: "../outside/secret.png" };
  const fakeRow = { ...JSON.parse(second), image_path: path.join(outside, "secret.json") };
  writeFileSync(vqa, `${JSON.stringify(outsideRow)}\n${JSON.stringify(fakeRow)}\n`);
  const confined = getBenchmark("egopath").load(root, ["a1"]);
  assert.deepEqual(confined.problems.map((p) => [p.line, p.field]), [[1, "image_path"], [2, "image_path"]]);
  const allowed = getBenchmark("egopath").load(root, ["a1"], { allowOutsideRoot: true });
  assert.deepEqual(allowed.problems.map((p) => [p.line, p.field, p.message]), [[2, "image_path", `image file ${path.join(outside, "secret.json")} is not an image (its bytes are not PNG, JPEG, GIF or WebP)`]]);
  assert.deepEqual(allowed.items.map((i) => (i as { imagePath?: string }).imagePath), [path.join(root, "../outside/secret.png")]);
});
