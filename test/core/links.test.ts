/**
 * Links are never followed from a dataset, and a checked file is the file that is read (issue 25):
 * a link inside the root is refused like one that leaves it, a FIFO or device where a file belongs
 * is refused without blocking, the bytes read are those of the descriptor that was checked, and a
 * picture swapped for a link after `validate` (during a run) is refused when the request is built,
 * so the outside file is never sent.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { DataRoot } from "../../src/core/dataroot.js";
import { openRegularFile, readRegularFile, readRegularFileAsync } from "../../src/core/file-read.js";
import { executeRun } from "../../src/core/session.js";
import { frameFolderNames, MediaError, sampleFrames } from "../../src/media/frames.js";
import { getBenchmark } from "../../src/registry.js";
import { TINY_PNG } from "../helpers/media.js";
import { startMockServer, type MockRequest } from "../helpers/mock-server.js";

const EXAMPLES = path.resolve(import.meta.dirname, "../../examples");
const HINT = "pass --allow-outside-root to read media kept elsewhere on purpose";
const top = mkdtempSync(path.join(os.tmpdir(), "links-"));
after(() => rmSync(top, { recursive: true, force: true }));

/** The outside file every attack points at: a real PNG followed by text no request may carry. */
const SECRET = "TOPSECRET-outside-the-root";
const outside = path.join(top, "outside");
mkdirSync(outside);
const secretPng = Buffer.concat([TINY_PNG, Buffer.from(SECRET)]);
writeFileSync(path.join(outside, "secret.png"), secretPng);

function freshRoot(name: string): string {
  const root = path.join(top, name);
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, "real.png"), TINY_PNG);
  mkdirSync(path.join(root, "frames"));
  writeFileSync(path.join(root, "frames", "0.png"), TINY_PNG);
  return root;
}

test("a link that stays inside the root is refused too, by file and by folder; the root itself may be a link", () => {
  const root = freshRoot("inside-links");
  symlinkSync(path.join(root, "real.png"), path.join(root, "alias.png"));
  symlinkSync(path.join(root, "frames"), path.join(root, "alias-frames"));
  const data = new DataRoot(root);
  assert.deepEqual(data.resolve("real.png", "image"), { ok: true, path: path.join(root, "real.png") });
  assert.deepEqual(data.resolve("alias.png", "image", { what: "image file" }), {
    ok: false,
    missing: false,
    message: `image file alias.png is reached through a symbolic link; links in a dataset are not followed (${HINT})`,
  });
  assert.deepEqual(data.resolve("alias-frames/0.png", "image"), {
    ok: false,
    missing: false,
    message: `image alias-frames/0.png is reached through a symbolic link; links in a dataset are not followed (${HINT})`,
  });
  // The user's own link to the whole root is their choice: references below it resolve to real paths.
  const linkedRoot = path.join(top, "root-link");
  symlinkSync(root, linkedRoot);
  assert.deepEqual(new DataRoot(linkedRoot).resolve("real.png", "image"), { ok: true, path: path.join(root, "real.png") });
  // --allow-outside-root follows links, and still hands out the real path.
  assert.deepEqual(new DataRoot(root, { allowOutsideRoot: true }).resolve("alias.png", "image"), { ok: true, path: path.join(root, "real.png") });
});

test("a FIFO or a device where a file belongs is refused at once, never opened for reading", { timeout: 10_000 }, () => {
  const root = freshRoot("special");
  execFileSync("mkfifo", [path.join(root, "pipe.png")]);
  const data = new DataRoot(root);
  assert.deepEqual(data.resolve("pipe.png", "image"), { ok: false, missing: false, message: "image pipe.png is not a regular file" });
  assert.deepEqual(data.readText("pipe.png"), { ok: false, missing: false, message: "file pipe.png is not a regular file" });
  // Read directly (a library caller), the FIFO and /dev/zero are refused without blocking or reading forever.
  assert.throws(() => readRegularFile(path.join(root, "pipe.png")), { name: "FileRefusedError", message: `${path.join(root, "pipe.png")} is not a regular file` });
  assert.throws(() => readRegularFile("/dev/zero", { followLinks: true }), { message: "/dev/zero is not a regular file" });
  assert.deepEqual(new DataRoot("/dev").resolve("zero", "file"), { ok: false, missing: false, message: "file zero is not a regular file" });
});

test("a frame folder lists a FIFO or a link named like a frame, so it is refused by name instead of silently dropped", { timeout: 10_000 }, () => {
  const root = freshRoot("frame-folder");
  execFileSync("mkfifo", [path.join(root, "frames", "1.png")]);
  symlinkSync("/dev/zero", path.join(root, "frames", "2.png"));
  mkdirSync(path.join(root, "frames", "3.png")); // a folder is not a frame
  const folder = new DataRoot(root).frameFolder("frames", frameFolderNames);
  assert.deepEqual(folder.names, ["0.png", "1.png", "2.png"]);
  assert.deepEqual(folder.problems, [
    `frame ${path.join(root, "frames", "1.png")} is not a regular file`,
    `frame ${path.join(root, "frames", "2.png")} is a link to a file outside the dataset root; refused (${HINT})`,
  ]);
});

test("the read is refused when the path no longer leads, link-free, to the file checked", async () => {
  const root = freshRoot("swapped");
  const checked = new DataRoot(root).resolve("real.png", "image");
  assert.ok(checked.ok);
  assert.deepEqual(readRegularFile(checked.path), TINY_PNG);
  // The checked file swapped for a link: O_NOFOLLOW refuses the last component.
  renameSync(path.join(root, "real.png"), path.join(root, "moved.png"));
  symlinkSync(path.join(outside, "secret.png"), path.join(root, "real.png"));
  const refused = { name: "FileRefusedError", message: `${checked.path} is a symbolic link; links in a dataset are not followed` };
  assert.throws(() => readRegularFile(checked.path), refused);
  await assert.rejects(readRegularFileAsync(checked.path), refused);
  // A folder on the way swapped for a link: the descriptor's real path is not the one checked.
  const frame = new DataRoot(root).resolve("frames/0.png", "image");
  assert.ok(frame.ok);
  renameSync(path.join(root, "frames"), path.join(root, "frames-old"));
  mkdirSync(path.join(outside, "frames"));
  writeFileSync(path.join(outside, "frames", "0.png"), secretPng);
  symlinkSync(path.join(outside, "frames"), path.join(root, "frames"));
  assert.throws(() => readRegularFile(frame.path), { message: `${frame.path} is reached through a symbolic link (or changed since it was checked); refused` });
  // Size limits are the descriptor's, not the name's.
  writeFileSync(path.join(root, "big.bin"), Buffer.alloc(1000));
  assert.throws(() => readRegularFile(path.join(root, "big.bin"), { maxBytes: 999 }), { message: `${path.join(root, "big.bin")} is 1000 bytes, over the 999-byte limit for this file` });
  const opened = openRegularFile(path.join(root, "big.bin"));
  assert.equal(opened.size, 1000);
  assert.match(opened.procPath, /^\/proc\/\d+\/fd\/\d+$/);
  opened.close();
});

test("a video swapped for a link is not sampled; an image list with a link in it is not either", async () => {
  const root = freshRoot("video");
  const video = path.join(root, "clip.mp4");
  symlinkSync(path.join(outside, "secret.png"), video);
  await assert.rejects(sampleFrames({ video }, { mode: "all" }, { cacheDir: path.join(top, "cache") }), (error: unknown) => {
    assert.ok(error instanceof MediaError);
    assert.equal(error.message, `unreadable video: ${video} is a symbolic link; links in a dataset are not followed`);
    return true;
  });
  symlinkSync(path.join(outside, "secret.png"), path.join(root, "frames", "1.png"));
  await assert.rejects(sampleFrames({ dir: path.join(root, "frames") }, { mode: "all" }, { cacheDir: path.join(top, "cache") }), {
    name: "MediaError",
    message: `unreadable file: ${path.join(root, "frames", "1.png")} is a symbolic link; links in a dataset are not followed`,
  });
});

test("every loader refuses a link inside its root where it reads a file", () => {
  const message = (what: string, ref: string) => `${what} ${ref} is reached through a symbolic link; links in a dataset are not followed (${HINT})`;
  // EgoPathBench: a vqa file that is a link to another one in the same root.
  const egopath = path.join(top, "egopath-vqa-link");
  cpSync(path.join(EXAMPLES, "egopath-mini"), egopath, { recursive: true });
  const vqaDir = path.join(egopath, "benchmark_evalfix/benchmark/vqa");
  renameSync(path.join(vqaDir, "vqa_next_a1.jsonl"), path.join(egopath, "a1.jsonl"));
  symlinkSync(path.join(egopath, "a1.jsonl"), path.join(vqaDir, "vqa_next_a1.jsonl"));
  const ego = getBenchmark("egopath").load(egopath, ["a1"]);
  assert.deepEqual(ego.items, []);
  assert.deepEqual(ego.problems.map((p) => [p.file, p.message]), [["benchmark_evalfix/benchmark/vqa/vqa_next_a1.jsonl", message("vqa file", "benchmark_evalfix/benchmark/vqa/vqa_next_a1.jsonl")]]);
  // EPIC-Bench: a ground-truth file reached through a linked task folder is not listed; a linked EPIC_Bench folder is refused.
  const epic = path.join(top, "epic-linked-bench");
  mkdirSync(path.join(epic, "elsewhere"), { recursive: true });
  symlinkSync(path.join(epic, "elsewhere"), path.join(epic, "EPIC_Bench"));
  assert.deepEqual(getBenchmark("epic").load(epic).problems.map((p) => p.message), [message("folder", "EPIC_Bench")]);
});

test("a picture swapped for a link during a run is refused when its request is built; the outside file is never sent", async () => {
  const data = path.join(top, "egopath-run");
  cpSync(path.join(EXAMPLES, "egopath-mini"), data, { recursive: true });
  const pictures = readdirSync(path.join(data, "assets"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".png")).map((f) => path.join(data, "assets", f));
  let swapped = false;
  const bodies: string[] = [];
  const mock = await startMockServer({
    reply: (req: MockRequest) => {
      bodies.push(JSON.stringify(req.body));
      // The first request arrives after every item was loaded and checked: now swap every picture.
      if (!swapped) {
        for (const file of pictures) {
          rmSync(file);
          symlinkSync(path.join(outside, "secret.png"), file);
        }
        swapped = true;
      }
      return '{"display_ids":[1]}';
    },
  });
  try {
    const summary = await executeRun({
      benchmark: "egopath", data, out: path.join(top, "egopath-run-out"), model: "openai:mock-vlm", tasks: ["a1"], concurrency: 1,
      flags: { base_url: `${mock.url}/v1`, max_attempts: 1 }, env: { OPENAI_API_KEY: "sk-links-test" },
      bootstrapResamples: 0, bootstrapSeed: 1, quiet: true, promptSource: "release", control: "none", seed: 1, retryErrors: false,
    });
    assert.equal(bodies.length, 1, "only the request built before the swap was sent");
    const secretBase64 = secretPng.toString("base64").slice(-24);
    for (const body of bodies) assert.ok(!body.includes(secretBase64), "the outside file's bytes were sent");
    const refused = summary.results.filter((r) => r.status === "error");
    assert.equal(refused.length, summary.results.length - 1);
    for (const result of refused) {
      assert.equal(result.response?.error?.kind, "prompt");
      assert.match(result.response?.error?.message ?? "", /\.png is a symbolic link; links in a dataset are not followed$/);
    }
    assert.equal(summary.scores.complete, false);
  } finally {
    await mock.close();
  }
});
