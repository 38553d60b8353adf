/**
 * The read guard of a fuzz worker: every way this process opens, reads or lists a file, and every
 * child process it starts, is wrapped so that each file actually reached is recorded, and any that
 * is forbidden is a violation.
 *
 * The rule ("never read outside the root"): OPENING, READING or LISTING a forbidden file or folder
 * is a violation; looking at a reference without opening it (realpath, lstat, stat, access,
 * existsSync) is not, since that is how a loader checks a reference before refusing it. A file is
 * judged by where it really is: the path an open descriptor names (/proc/self/fd/N), or the real
 * path of a path read whole, so a link inside the root that leads outside counts as outside.
 * Forbidden: the canary folder outside the root (and everything in it), /etc/passwd, /dev/zero, and
 * any FIFO (a special file a dataset may put where a picture belongs; opening one without
 * O_NONBLOCK hangs, which the time limit catches). The places a run legitimately reads outside the
 * root (node_modules, the frame cache, fonts, furniture) are none of these, so the rule needs no
 * allow-list. A child process (ffprobe, ffmpeg) is judged by its arguments: each one naming a path
 * (or `file:` URL, or this process's /proc/<pid>/fd/N) is resolved the same way.
 *
 * Install it before the code under test is imported (installGuard), then wrap each case in
 * startRecording / stopRecording. Native code reading by path (sharp, canvas) is not seen here; the
 * canary watcher (canary.ts) covers that from outside the process.
 */
import childProcess from "node:child_process";
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import path from "node:path";

export interface Violation {
  op: string;
  /** The path as the code gave it (clipped). */
  given: string;
  /** Where it really is. */
  real: string;
  why: string;
}

interface GuardState {
  forbiddenDirs: string[];
  forbiddenFiles: string[];
  recording: boolean;
  violations: Violation[];
  /** Files opened while recording (real paths; counted, for the report). */
  opened: number;
}

const state: GuardState = { forbiddenDirs: [], forbiddenFiles: ["/etc/passwd", "/dev/zero"], recording: false, violations: [], opened: 0 };

// The originals, kept before wrapping, so the guard's own checks are never recorded.
const original = {
  readlinkSync: fs.readlinkSync,
  realpathSync: fs.realpathSync,
  statSync: fs.statSync,
  fstatSync: fs.fstatSync,
};

const clip = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}... (${text.length} chars)` : text);

function realOf(given: string): string | null {
  try {
    return original.realpathSync.native(given);
  } catch {
    return null;
  }
}

function descriptorTarget(fd: number): string | null {
  try {
    return original.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

function isFifo(real: string): boolean {
  try {
    return original.statSync(real).isFIFO();
  } catch {
    return false;
  }
}

/** Why reaching `real` breaks the rule, or null when it does not. */
export function forbiddenReason(real: string): string | null {
  for (const dir of state.forbiddenDirs) {
    if (real === dir || real.startsWith(`${dir}${path.sep}`)) return "inside the canary folder outside the root";
  }
  if (state.forbiddenFiles.includes(real)) return `the forbidden file ${real}`;
  if (isFifo(real)) return "a FIFO";
  return null;
}

function judge(op: string, given: unknown, real: string | null): void {
  if (!state.recording || real === null) return;
  state.opened += 1;
  const why = forbiddenReason(real);
  if (why && state.violations.length < 100) state.violations.push({ op, given: clip(String(given)), real, why });
}

const asPath = (value: unknown): string | null => {
  if (typeof value === "string") return value;
  if (Buffer.isBuffer(value)) return value.toString("utf8");
  if (value instanceof URL && value.protocol === "file:") return value.pathname;
  return null;
};

/** The file an argument of a child process names, if it names one. */
function argumentTarget(arg: string): string | null {
  const bare = arg.startsWith("file:") ? arg.slice(5) : arg;
  if (!bare.startsWith("/")) return null;
  const proc = /^\/proc\/(\d+|self)\/fd\/(\d+)$/.exec(bare);
  if (proc && (proc[1] === "self" || Number(proc[1]) === process.pid)) return descriptorTarget(Number(proc[2]));
  return realOf(bare);
}

function judgeSpawn(op: string, args: unknown): void {
  if (!state.recording || !Array.isArray(args)) return;
  for (const arg of args) {
    if (typeof arg !== "string") continue;
    const target = argumentTarget(arg);
    if (target) judge(`${op} argument`, arg, target);
  }
}

type AnyFn = (...args: any[]) => any;

/** Replace `object[name]` by a wrapper that calls `after(args, result)` once the call returns. */
function wrapSync(object: any, name: string, after: (args: unknown[], result: unknown) => void): void {
  const fn = object[name] as AnyFn;
  object[name] = function (this: unknown, ...args: unknown[]) {
    const result = fn.apply(this, args);
    after(args, result);
    return result;
  };
}

/** The same for a function whose last argument is a node-style callback. */
function wrapCallback(object: any, name: string, after: (args: unknown[], result: unknown) => void): void {
  const fn = object[name] as AnyFn;
  object[name] = function (this: unknown, ...args: unknown[]) {
    const last = args[args.length - 1];
    if (typeof last === "function") {
      args[args.length - 1] = (error: unknown, result: unknown, ...rest: unknown[]) => {
        if (!error) after(args, result);
        (last as AnyFn)(error, result, ...rest);
      };
    }
    return fn.apply(this, args);
  };
}

/** The same for a function returning a promise. */
function wrapPromise(object: any, name: string, after: (args: unknown[], result: unknown) => void): void {
  const fn = object[name] as AnyFn;
  object[name] = async function (this: unknown, ...args: unknown[]) {
    const result = await fn.apply(this, args);
    after(args, result);
    return result;
  };
}

const byDescriptor = (op: string) => (args: unknown[], fd: unknown) => {
  if (typeof fd === "number") judge(op, args[0], descriptorTarget(fd));
};
const byHandle = (op: string) => (args: unknown[], handle: unknown) => {
  const fd = (handle as { fd?: unknown } | null)?.fd;
  if (typeof fd === "number") judge(op, args[0], descriptorTarget(fd));
};
/** A call reading a path whole (or listing it): judged by the path's real place; a descriptor argument was judged when opened. */
const byPath = (op: string) => (args: unknown[]) => {
  const given = asPath(args[0]);
  if (given !== null) judge(op, given, realOf(given));
};

let installed = false;

/** Wrap node:fs, node:fs/promises and node:child_process (once per process), then refresh their ESM exports. */
export function installGuard(forbiddenDirs: string[]): void {
  state.forbiddenDirs = forbiddenDirs.map((dir) => realOf(dir) ?? path.resolve(dir));
  if (installed) return;
  installed = true;
  const promises = fs.promises as any;
  wrapSync(fs, "openSync", byDescriptor("openSync"));
  wrapCallback(fs, "open", byDescriptor("open"));
  wrapPromise(promises, "open", byHandle("fs/promises open"));
  for (const name of ["readFileSync", "readdirSync", "opendirSync", "copyFileSync", "cpSync"]) wrapSync(fs, name, byPath(name));
  for (const name of ["readFile", "readdir", "opendir", "copyFile", "cp"]) wrapCallback(fs, name, byPath(name));
  for (const name of ["readFile", "readdir", "opendir", "copyFile", "cp"]) wrapPromise(promises, name, byPath(`fs/promises ${name}`));
  const createReadStream = fs.createReadStream;
  (fs as any).createReadStream = function (file: unknown, options?: unknown) {
    const stream = createReadStream.call(fs, file as string, options as undefined);
    stream.once("open", (fd: number) => judge("createReadStream", file, descriptorTarget(fd)));
    return stream;
  };
  for (const name of ["spawn", "spawnSync", "execFile", "execFileSync", "fork"]) {
    const fn = (childProcess as any)[name] as AnyFn;
    (childProcess as any)[name] = function (this: unknown, ...args: unknown[]) {
      judgeSpawn(name, args[1]);
      return fn.apply(this, args);
    };
  }
  syncBuiltinESMExports();
}

/** Start a case: forget what earlier cases did. */
export function startRecording(): void {
  state.violations = [];
  state.opened = 0;
  state.recording = true;
}

/** End a case: what it reached that it must not have, and how many files it opened. */
export function stopRecording(): { violations: Violation[]; opened: number } {
  state.recording = false;
  return { violations: state.violations, opened: state.opened };
}
