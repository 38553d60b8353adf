/**
 * The canary outside every fuzzed dataset root: a folder of files a mutated row points at (by a
 * relative climb, an absolute path, or a link inside the root), each holding SECRET, so that a read
 * of one shows up twice: in the worker's read guard (guard.ts) and, for reads no wrapper sees
 * (native code, child processes), in an inotify watch on the folder kept by a small python3
 * process. Any open or read event on the folder while cases run is a violation.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { TINY_PNG } from "../../helpers/media.js";

/** Text that must never appear in any message, result or output file. */
export const SECRET = "FUZZ-CANARY-7f3a9c-root:x:0:0:TOPSECRET";

/** Canary files by extension: each is valid-looking for its kind, with SECRET inside. */
export function writeCanary(dir: string, video: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "secret.png"), Buffer.concat([TINY_PNG, Buffer.from(SECRET)]));
  writeFileSync(path.join(dir, "secret.jpg"), Buffer.concat([TINY_PNG, Buffer.from(SECRET)]));
  copyFileSync(video, path.join(dir, "secret.mp4"));
  writeFileSync(path.join(dir, "secret.json"), JSON.stringify({ secret: SECRET, visible_waypoints: [], direct_neighbors: {} }));
  writeFileSync(path.join(dir, "secret.jsonl"), `${JSON.stringify({ id: SECRET, secret: SECRET })}\n`);
  writeFileSync(path.join(dir, "secret.txt"), SECRET);
  writeFileSync(path.join(dir, "0.png"), TINY_PNG);
  // A house a scene id climbing out of a data root could reach (houses/<scene_id>/scene.json).
  mkdirSync(path.join(dir, "house"));
  writeFileSync(path.join(dir, "house", "scene.json"), JSON.stringify({ secret: SECRET }));
}

/** The canary file a reference with this extension is pointed at. */
export function canaryFile(dir: string, ext: string): string {
  const known = [".png", ".jpg", ".mp4", ".json", ".jsonl", ".txt"];
  return path.join(dir, `secret${known.includes(ext) ? ext : ".txt"}`);
}

export interface CanaryEvent {
  at: number;
  name: string;
  mask: number;
}

export interface CanaryWatch {
  /** Events seen so far (open or read of the folder or a file in it). */
  events: CanaryEvent[];
  /** Why there is no watch (no python3, no inotify), or null. */
  unavailable: string | null;
  stop(): void;
}

const WATCHER = String.raw`
import ctypes, os, struct, sys, json
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.inotify_init1(0)
if fd < 0:
    print("error inotify_init1", flush=True); sys.exit(1)
IN_ACCESS, IN_OPEN = 0x1, 0x20
if libc.inotify_add_watch(fd, sys.argv[1].encode(), IN_ACCESS | IN_OPEN) < 0:
    print("error inotify_add_watch", flush=True); sys.exit(1)
print("ready", flush=True)
while True:
    buf = os.read(fd, 65536)
    i = 0
    while i < len(buf):
        wd, mask, cookie, size = struct.unpack_from("iIII", buf, i)
        name = buf[i + 16:i + 16 + size].rstrip(b"\0").decode("utf-8", "replace")
        i += 16 + size
        print(json.dumps({"mask": mask, "name": name}), flush=True)
`;

/** Watch `dir` for opens and reads (inotify through python3); resolves once the watch is set. */
export function watchCanary(dir: string): Promise<CanaryWatch> {
  return new Promise((resolve) => {
    const events: CanaryEvent[] = [];
    let child: ChildProcess;
    try {
      child = spawn("python3", ["-c", WATCHER, dir], { stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      resolve({ events, unavailable: `python3: ${(error as Error).message}`, stop() {} });
      return;
    }
    const stop = () => {
      if (child.exitCode === null && child.pid !== undefined) child.kill("SIGKILL");
    };
    let ready = false;
    child.once("error", (error) => {
      if (!ready) resolve({ events, unavailable: `python3: ${error.message}`, stop });
    });
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (!ready) {
        ready = true;
        resolve({ events, unavailable: line === "ready" ? null : line, stop });
        return;
      }
      const event = JSON.parse(line) as { mask: number; name: string };
      events.push({ at: Date.now(), ...event });
    });
    child.once("exit", () => {
      if (!ready) resolve({ events, unavailable: "the inotify watcher ended before it was ready", stop });
    });
  });
}
