/**
 * One writer per run folder: `<dir>/.lock` holds the owner's pid, host and start time. It is
 * created with O_EXCL ("wx"), so of two processes starting at once exactly one gets it. A lock
 * whose process is gone (same host, kill(pid, 0) says ESRCH) is taken over with a note on stderr.
 * Held locks are released on normal end and error (the caller's finally), at process exit, and on
 * SIGINT/SIGTERM when nobody else handles the signal (then the signal is raised again).
 */
import { closeSync, existsSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { UsageError } from "./problems.js";

export const LOCK_FILE = ".lock";

export interface LockOwner {
  pid: number;
  host: string;
  started_at: string;
  command?: string;
}

export interface FolderLock {
  dir: string;
  file: string;
  owner: LockOwner;
  /** Remove the lock if it is still ours (idempotent). */
  release(): void;
}

/** The folder is being written by another process. */
export class FolderLockedError extends UsageError {}

/** The lock's owner as recorded, or undefined when there is no lock or it is unreadable. */
export function readLock(dir: string, name = LOCK_FILE): LockOwner | undefined {
  try {
    const value = JSON.parse(readFileSync(path.join(dir, name), "utf8")) as Partial<LockOwner>;
    return typeof value.pid === "number" && typeof value.host === "string" ? (value as LockOwner) : undefined;
  } catch {
    return undefined;
  }
}

/** "alive", "dead", or "unknown" (another host: its processes cannot be asked). */
export function ownerState(owner: LockOwner): "alive" | "dead" | "unknown" {
  if (owner.host !== os.hostname()) return "unknown";
  try {
    process.kill(owner.pid, 0);
    return "alive";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH" ? "dead" : "alive"; // EPERM: alive, not ours
  }
}

/** A lock held by a live process (or one on another host): the folder is being written now. */
export function activeWriter(dir: string): LockOwner | undefined {
  const owner = readLock(dir);
  return owner && ownerState(owner) !== "dead" ? owner : undefined;
}

const describe = (owner: LockOwner) => `pid ${owner.pid} on ${owner.host}, since ${owner.started_at}`;

const held = new Set<FolderLock>();
const SIGNALS = ["SIGINT", "SIGTERM"] as const;

function releaseAll(): void {
  for (const lock of [...held]) lock.release();
}

/**
 * On a signal: if another listener (e.g. `run`'s graceful stop) handles it, that path releases
 * the lock in its finally. Otherwise release now and let the signal end the process as usual.
 * Ours is prepended, so a `once` listener added before still counts here.
 */
function onSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  releaseAll();
  unwatchSignals();
  process.kill(process.pid, signal);
}

function watchSignals(): void {
  if (held.size > 0) return;
  for (const signal of SIGNALS) process.prependListener(signal, onSignal);
  process.on("exit", releaseAll);
}

function unwatchSignals(): void {
  for (const signal of SIGNALS) process.off(signal, onSignal);
  process.off("exit", releaseAll);
}

/** Create the lock file with O_EXCL; false when it exists. The content goes in one write. */
function tryCreate(file: string, owner: LockOwner): boolean {
  let fd: number;
  try {
    fd = openSync(file, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, `${JSON.stringify(owner)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** A just-created lock may be empty for an instant: read it again briefly before judging it. */
function readSettled(dir: string): LockOwner | undefined {
  for (let i = 0; i < 20; i++) {
    const owner = readLock(dir);
    if (owner || !existsSync(path.join(dir, LOCK_FILE))) return owner;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
  }
  return undefined;
}

/**
 * Move a dead owner's lock aside. Renaming is atomic, so of two processes taking over at once
 * only one moves it; if what was moved is not the stale lock we read (someone replaced it in
 * between), it is put back.
 */
function removeStale(file: string, stale: LockOwner): void {
  const aside = `${file}.stale-${process.pid}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  const moved = readLock(path.dirname(aside), path.basename(aside));
  if (!moved || moved.pid !== stale.pid || moved.host !== stale.host || moved.started_at !== stale.started_at) {
    try {
      linkSync(aside, file);
    } catch {
      // a third process holds a fresh lock now: the one moved aside was stale as well
    }
  }
  rmSync(aside, { force: true });
}

/** Temporary files a dead writer left (their names carry its pid, see outputs.ts). */
function removeOrphanTemps(dir: string, pid: number): void {
  for (const name of readdirSync(dir)) if (name.endsWith(`.${pid}.tmp`)) rmSync(path.join(dir, name), { force: true });
}

/**
 * Take the lock of a run folder (created if missing), or throw FolderLockedError naming the
 * folder and the owner's pid.
 */
export function acquireFolderLock(dir: string, log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): FolderLock {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  const owner: LockOwner = { pid: process.pid, host: os.hostname(), started_at: new Date().toISOString(), command: process.argv.slice(2).join(" ").slice(0, 200) };
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(file, owner)) return hold(dir, file, owner);
    const other = readSettled(dir);
    if (!other) throw new FolderLockedError(`${dir} is locked (${file} exists but cannot be read); if no spatialprobe process is writing this folder, delete that file`);
    const state = ownerState(other);
    if (state === "dead") {
      log(`note: taking over the lock of ${dir}: its owner (${describe(other)}) is no longer running`);
      removeStale(file, other);
      removeOrphanTemps(dir, other.pid);
      continue;
    }
    const where = state === "unknown" ? " (another host: it cannot be checked from here)" : "";
    throw new FolderLockedError(`${dir} is in use by another spatialprobe process (${describe(other)})${where}; wait for it to finish, or delete ${file} if that process is not writing this folder`);
  }
  throw new FolderLockedError(`${dir}: could not take the lock (${file} keeps changing)`);
}

function hold(dir: string, file: string, owner: LockOwner): FolderLock {
  watchSignals();
  const lock: FolderLock = {
    dir,
    file,
    owner,
    release() {
      if (!held.delete(lock)) return;
      const current = readLock(dir);
      if (current && current.pid === owner.pid && current.started_at === owner.started_at) rmSync(file, { force: true });
      if (held.size === 0) unwatchSignals();
    },
  };
  held.add(lock);
  return lock;
}

/** Run `work` holding the folder's lock; released however it ends. */
export async function withFolderLock<T>(dir: string, work: () => Promise<T> | T): Promise<T> {
  const lock = acquireFolderLock(dir);
  try {
    return await work();
  } finally {
    lock.release();
  }
}
