import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import sharp from "sharp";
import { imagePart, MediaContentError, mediaMismatch, sniffMedia } from "../../src/media/sniff.js";

const tmp = mkdtempSync(path.join(os.tmpdir(), "sniff-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

const picture = () => sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 10, g: 120, b: 200 } } });

test("real pictures are known by their bytes, whatever they are called", async () => {
  const made: Array<[string, Buffer]> = [
    ["image/png", await picture().png().toBuffer()],
    ["image/jpeg", await picture().jpeg().toBuffer()],
    ["image/webp", await picture().webp().toBuffer()],
    ["image/gif", await picture().gif().toBuffer()],
  ];
  for (const [type, bytes] of made) {
    assert.deepEqual(sniffMedia(bytes), { kind: "image", type });
    assert.equal(mediaMismatch(bytes, "image"), undefined);
    assert.equal(mediaMismatch(bytes, "video"), `is ${type}, not a video`);
    const part = imagePart(bytes, "view.png");
    assert.equal(part.mediaType, type);
    assert.equal(part.base64, bytes.toString("base64"));
  }
});

test("real videos from ffmpeg are known by their containers", () => {
  const expected: Array<[string, string, string[]]> = [
    ["clip.mp4", "video/mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p"]],
    ["clip.mov", "video/quicktime", ["-c:v", "libx264", "-pix_fmt", "yuv420p"]],
    ["clip.mkv", "video/x-matroska", ["-c:v", "libx264"]],
    ["clip.webm", "video/webm", ["-c:v", "libvpx", "-b:v", "200k"]],
    ["clip.avi", "video/x-msvideo", ["-c:v", "mpeg4"]],
    ["clip.ts", "video/mp2t", ["-c:v", "mpeg2video"]],
    ["clip.mpg", "video/mpeg", ["-c:v", "mpeg2video", "-f", "vob"]],
  ];
  for (const [name, type, codec] of expected) {
    const file = path.join(tmp, name);
    execFileSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=128x96:rate=5:duration=1", ...codec, file]);
    const bytes = readFileSync(file);
    assert.deepEqual(sniffMedia(bytes), { kind: "video", type }, name);
    assert.equal(mediaMismatch(bytes, "video"), undefined, name);
    assert.equal(mediaMismatch(bytes, "image"), `is ${type}, not a PNG, JPEG, GIF or WebP image`, name);
  }
});

test("text, empty files and truncated signatures are not media", () => {
  assert.equal(sniffMedia(Buffer.from("root:x:0:0:root:/root:/bin/bash\n")), undefined);
  assert.equal(mediaMismatch(Buffer.alloc(0), "image"), "is empty");
  assert.equal(mediaMismatch(Buffer.from("GIF8"), "image"), "is not an image (its bytes are not PNG, JPEG, GIF or WebP)");
  assert.equal(mediaMismatch(Buffer.from([0x89, 0x50, 0x4e, 0x47]), "image"), "is not an image (its bytes are not PNG, JPEG, GIF or WebP)");
  assert.equal(mediaMismatch(Buffer.from("BMW is a car"), "image"), "is not an image (its bytes are not PNG, JPEG, GIF or WebP)");
  assert.equal(mediaMismatch(Buffer.from("RIFF\0\0\0\0WAVEfmt "), "video"), "is not a video (its bytes match no known container: MP4/MOV, Matroska/WebM, AVI, Ogg, FLV, MPEG)");
  assert.throws(() => imagePart(Buffer.from("not a picture"), "frame_007.png"), (e: unknown) => e instanceof MediaContentError && e.message === "frame_007.png is not an image (its bytes are not PNG, JPEG, GIF or WebP)");
});

test("AVIF and HEIF share the MP4 box format but are pictures, which no provider takes inline", () => {
  const box = (brand: string) => Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from(`ftyp${brand}\0\0\0\0${brand}mif1`, "latin1")]);
  assert.deepEqual(sniffMedia(box("avif")), { kind: "image", type: "image/avif" });
  assert.deepEqual(sniffMedia(box("heic")), { kind: "image", type: "image/heif" });
  assert.equal(mediaMismatch(box("avif"), "video"), "is image/avif, not a video");
  assert.equal(mediaMismatch(box("heic"), "image"), "is image/heif, not a PNG, JPEG, GIF or WebP image");
});
