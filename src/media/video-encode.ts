/**
 * Writing videos with Debian's ffmpeg: raw RGB frames piped into libx264 (H.264, yuv420p, the
 * moov atom at the front so players and samplers start at once).
 *
 * Determinism: one encoder thread, no metadata, bit-exact flags, and on x86-64 x264's instruction
 * set pinned (X264_X86_ASM); the same frames on the same ffmpeg build give the same bytes on every
 * such machine. The file appears only when the encoder succeeded (written to a temporary name, then
 * renamed).
 */
import { spawn } from "node:child_process";
import { readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { FfmpegNotFoundError, getFfmpegPaths, stderrTail, toolSpawns } from "./ffmpeg.js";

export interface Mp4Options {
  width: number;
  height: number;
  fps: number;
  /** x264 constant rate factor (lower = better); default 23, the encoder's own default. */
  crf?: number;
}

/** x264 and yuv420p need even sides. */
function checkSize(width: number, height: number): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 2 || height < 2 || width % 2 || height % 2) {
    throw new Error(`video frames must have even integer sides of at least 2 px (got ${width}x${height})`);
  }
}

/**
 * x264 chooses its routines by the CPU it runs on, and they do not all round alike: the same 17
 * frames gave one mp4 with its SSSE3-AVX2 routines, another with AVX-512 (an AVX-512 Xeon) and a
 * third with plain SSE2 or C. Pinned to the SSSE3 set, which every x86-64 machine of the last
 * fifteen years has, it writes the first on all of them (same speed within 5% on 1280x720 frames).
 */
const X264_X86_ASM = "MMX2,SSE,SSE2,SSE3,SSSE3";

export function mp4Arguments(outFile: string, { width, height, fps, crf = 23 }: Mp4Options): string[] {
  return [
    "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
    "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", `${width}x${height}`, "-framerate", String(fps), "-i", "pipe:0",
    "-an", "-c:v", "libx264", "-preset", "medium", "-crf", String(crf), "-pix_fmt", "yuv420p", "-threads", "1",
    ...(process.arch === "x64" ? ["-x264-params", `asm=${X264_X86_ASM}`] : []),
    "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", "-movflags", "+faststart",
    "-f", "mp4", outFile,
  ];
}

/** Encode RGB24 frames (row-major, width*height*3 bytes each) into an mp4 file. */
export async function encodeMp4(frames: Iterable<Uint8Array> | AsyncIterable<Uint8Array>, outFile: string, options: Mp4Options): Promise<void> {
  checkSize(options.width, options.height);
  const frameBytes = options.width * options.height * 3;
  const partial = path.join(path.dirname(outFile), `.${path.basename(outFile)}.partial.mp4`);
  const executable = getFfmpegPaths().ffmpeg;
  toolSpawns.ffmpeg += 1;
  const child = spawn(executable, mp4Arguments(partial, options), { stdio: ["pipe", "ignore", "pipe"], windowsHide: true });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    if (stderr.length < 64_000) stderr += chunk;
  });
  const exited = new Promise<number>((resolve, reject) => {
    child.on("error", (error: NodeJS.ErrnoException) => reject(error.code === "ENOENT" || error.code === "EACCES" ? new FfmpegNotFoundError("ffmpeg", executable) : error));
    child.on("close", (code, signal) => resolve(code ?? (signal ? -1 : 0)));
  });
  // A failed spawn or an encoder that exits early ends the writes instead of hanging on a full pipe.
  const stdinClosed = new Promise<void>((resolve) => child.stdin.on("close", () => resolve()));
  child.stdin.on("error", () => {});
  let count = 0;
  try {
    for await (const frame of frames) {
      if (frame.length !== frameBytes) throw new Error(`frame ${count} has ${frame.length} bytes, expected ${frameBytes} (${options.width}x${options.height} RGB)`);
      count += 1;
      if (!child.stdin.write(frame)) {
        await Promise.race([new Promise<void>((resolve) => child.stdin.once("drain", () => resolve())), stdinClosed, exited.then(() => undefined, () => undefined)]);
      }
      if (child.stdin.destroyed) break;
    }
    if (count === 0) throw new Error("no frames to encode");
  } catch (error) {
    child.kill("SIGKILL");
    await exited.catch(() => undefined);
    rmSync(partial, { force: true });
    throw error;
  }
  child.stdin.end();
  const code = await exited.catch((error: unknown) => {
    rmSync(partial, { force: true });
    throw error;
  });
  if (code !== 0) {
    rmSync(partial, { force: true });
    throw new Error(`ffmpeg could not encode ${outFile} (exit ${code}): ${stderrTail(stderr)}`);
  }
  renameSync(partial, outFile);
}

/** Encode image files (any format sharp reads, all of one size) into an mp4 file, in the given order. */
export async function encodeMp4FromFiles(files: readonly string[], outFile: string, { fps, crf }: { fps: number; crf?: number }): Promise<void> {
  if (files.length === 0) throw new Error("no frames to encode");
  const first = await sharp(readFileSync(files[0]!)).metadata();
  const width = first.width ?? 0;
  const height = first.height ?? 0;
  async function* decoded(): AsyncGenerator<Uint8Array> {
    for (const file of files) {
      const { data, info } = await sharp(readFileSync(file)).removeAlpha().toColourspace("srgb").raw().toBuffer({ resolveWithObject: true });
      if (info.width !== width || info.height !== height) throw new Error(`${file} is ${info.width}x${info.height}, the first frame is ${width}x${height}`);
      yield data;
    }
  }
  await encodeMp4(decoded(), outFile, { width, height, fps, crf });
}
