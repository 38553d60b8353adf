/**
 * Reading a checked dataset file so that the bytes read are the bytes of the file that was checked.
 *
 * A path checked once and opened again later can name another file by then (an in-root picture
 * swapped for a link to /etc/shadow between `validate` and the request). So a dataset file is read
 * through one open file descriptor: opened without following a final link (O_NOFOLLOW) and without
 * blocking on a FIFO (O_NONBLOCK); then the descriptor itself is asked what it is (fstat: a regular
 * file) and where it is (Linux's /proc/self/fd/N names the file actually open). Only when that is
 * the real path the caller checked are its bytes read, from that descriptor, and nothing is read
 * past a stated size. Paths given here are real paths (DataRoot.resolve returns them), so a link
 * anywhere along the path makes the two differ and the read is refused.
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readlinkSync, readSync, realpathSync, statSync, writeSync } from "node:fs";
import { open as openAsync, type FileHandle } from "node:fs/promises";
import path from "node:path";

/** The most a dataset file read whole may hold (1 GiB): JSONL releases and pictures are far smaller. */
export const MAX_FILE_BYTES = 1024 * 1024 * 1024;

/** The most a picture named by a row may hold (256 MiB): providers accept 5-20 MB, and we resize. */
export const MAX_IMAGE_FILE_BYTES = 256 * 1024 * 1024;

/** Why a file was not read: it names the file and the reason, never the content. */
export class FileRefusedError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file} ${reason}`);
    this.name = "FileRefusedError";
  }
}

export interface OpenOptions {
  /** Follow links (the user's own choice, e.g. --allow-outside-root); default false. */
  followLinks?: boolean;
}

/** An open regular file: read from `fd` only, then `close()`. */
export interface OpenedFile {
  readonly fd: number;
  /** The real path of what is open. */
  readonly path: string;
  readonly size: number;
  /** A path another process can open to reach this same open file (ffmpeg, ffprobe). */
  readonly procPath: string;
  close(): void;
}

/** Where the open descriptor really is, or null where the system cannot tell (no /proc). */
function descriptorPath(fd: number): string | null {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

/** Same device and inode: the descriptor is the file at `file` (the fallback without /proc). */
function sameFile(fd: number, file: string): boolean {
  try {
    const open = fstatSync(fd);
    const named = statSync(file);
    return open.dev === named.dev && open.ino === named.ino && realpathSync.native(file) === file;
  } catch {
    return false;
  }
}

function openRefusal(file: string, error: unknown): FileRefusedError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ELOOP") return new FileRefusedError(file, "is a symbolic link; links in a dataset are not followed");
  if (code === "ENOENT") return new FileRefusedError(file, "was not found");
  return new FileRefusedError(file, `cannot be opened (${code ?? "error"})`);
}

/** The real path of what `fd` holds, after checking it is a regular file at `wanted` (no link on the way). */
function checkDescriptor(fd: number, file: string, wanted: string, isFile: boolean, options: OpenOptions): string {
  if (!isFile) throw new FileRefusedError(file, "is not a regular file");
  const open = descriptorPath(fd);
  if (!options.followLinks && (open !== null ? open !== wanted : !sameFile(fd, wanted))) {
    throw new FileRefusedError(file, "is reached through a symbolic link (or changed since it was checked); refused");
  }
  return open ?? wanted;
}

/**
 * Open `file` for reading as a regular file. Without followLinks, `file` must be a real path and
 * no link may lie along it; with followLinks, links are followed as usual. Throws FileRefusedError.
 */
export function openRegularFile(file: string, options: OpenOptions = {}): OpenedFile {
  const wanted = path.resolve(file);
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | (options.followLinks ? 0 : constants.O_NOFOLLOW);
  let fd: number;
  try {
    fd = openSync(wanted, flags);
  } catch (error) {
    throw openRefusal(file, error);
  }
  try {
    const stats = fstatSync(fd);
    const real = checkDescriptor(fd, file, wanted, stats.isFile(), options);
    let closed = false;
    return {
      fd,
      path: real,
      size: stats.size,
      procPath: `/proc/${process.pid}/fd/${fd}`,
      close() {
        if (!closed) closeSync(fd);
        closed = true;
      },
    };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** Up to `length` bytes of an open file from `position` (fewer at its end). */
export function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const n = readSync(fd, buffer, filled, length - filled, position + filled);
    if (n === 0) break;
    filled += n;
  }
  return buffer.subarray(0, filled);
}

const oversize = (file: string, size: number, maxBytes: number) => new FileRefusedError(file, `is ${size} bytes, over the ${maxBytes}-byte limit for this file`);

/** The bytes of an open file, as many as fstat counted when it was opened; refused above `maxBytes`. */
export function readOpened(file: OpenedFile, maxBytes: number = MAX_FILE_BYTES): Buffer {
  if (file.size > maxBytes) throw oversize(file.path, file.size, maxBytes);
  return readAt(file.fd, 0, file.size);
}

/** Open, check and read a whole file through one descriptor (see the module comment). */
export function readRegularFile(file: string, options: OpenOptions & { maxBytes?: number } = {}): Buffer {
  const opened = openRegularFile(file, options);
  try {
    return readOpened(opened, options.maxBytes);
  } catch (error) {
    throw error instanceof FileRefusedError ? error : new FileRefusedError(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  } finally {
    opened.close();
  }
}

/**
 * Copy a dataset file to `to` (a new file) from one checked descriptor, 1 MiB at a time: the
 * bytes are those of the regular file at `from`, never a link's target (a subset writer's copy).
 */
export function copyRegularFile(from: string, to: string): void {
  const opened = openRegularFile(from);
  const out = openSync(to, "wx", 0o666);
  try {
    for (let position = 0; ; ) {
      const chunk = readAt(opened.fd, position, 1 << 20);
      if (chunk.length === 0) break;
      writeSync(out, chunk);
      position += chunk.length;
    }
  } finally {
    closeSync(out);
    opened.close();
  }
}

/** Copy a dataset folder: its folders and regular files (each from a checked descriptor); a link or any other entry is refused. */
export function copyRegularFolder(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory() && !lstatSync(source).isSymbolicLink()) copyRegularFolder(source, target);
    else if (entry.isFile()) copyRegularFile(source, target);
    else throw new FileRefusedError(source, "is a symbolic link or not a regular file; links in a dataset are not followed");
  }
}

/** The same, as UTF-8 text. */
export function readRegularText(file: string, options: OpenOptions & { maxBytes?: number } = {}): string {
  return readRegularFile(file, options).toString("utf8");
}

/** Run `use` on the file open, then close it, whatever `use` does. */
export async function withOpenFile<T>(file: string, options: OpenOptions, use: (opened: OpenedFile) => Promise<T> | T): Promise<T> {
  const opened = openRegularFile(file, options);
  try {
    return await use(opened);
  } finally {
    opened.close();
  }
}

/** readRegularFile without blocking the event loop (a run's other requests go on meanwhile). */
export async function readRegularFileAsync(file: string, options: OpenOptions & { maxBytes?: number } = {}): Promise<Buffer> {
  const wanted = path.resolve(file);
  const maxBytes = options.maxBytes ?? MAX_FILE_BYTES;
  let handle: FileHandle;
  try {
    handle = await openAsync(wanted, constants.O_RDONLY | constants.O_NONBLOCK | (options.followLinks ? 0 : constants.O_NOFOLLOW));
  } catch (error) {
    throw openRefusal(file, error);
  }
  try {
    const stats = await handle.stat();
    const real = checkDescriptor(handle.fd, file, wanted, stats.isFile(), options);
    if (stats.size > maxBytes) throw oversize(real, stats.size, maxBytes);
    const buffer = Buffer.alloc(stats.size);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/** A picture a row names, read for a request through one checked descriptor. */
export const readImageFile = (file: string): Buffer => readRegularFile(file, { maxBytes: MAX_IMAGE_FILE_BYTES });
export const readImageFileAsync = (file: string): Promise<Buffer> => readRegularFileAsync(file, { maxBytes: MAX_IMAGE_FILE_BYTES });

/** A whole text file, or why it could not be read (the reason names no content). */
export type TextRead = { ok: true; text: string } | { ok: false; reason: string };

/** readRegularText that reports a refusal instead of throwing it (loaders turn it into a data problem). */
export function tryReadText(file: string, options: OpenOptions & { maxBytes?: number } = {}): TextRead {
  try {
    return { ok: true, text: readRegularText(file, options) };
  } catch (error) {
    if (error instanceof FileRefusedError) return { ok: false, reason: error.reason };
    throw error;
  }
}
