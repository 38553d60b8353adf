/**
 * Confinement of dataset paths. A dataset is untrusted: every path a row names (images, frames,
 * videos, sidecars, masks) must lie inside the dataset root and reach its file without passing a
 * symbolic link, or `run` would read (and upload to a model provider) any file the user can read.
 * Every loader resolves its references through one DataRoot, so the rule and its messages are the
 * same for all benchmarks. A reference resolves to its real path; whoever reads it later reads it
 * through file-read.ts, which opens that path without following links and checks that what is open
 * is that file, so a file swapped after the check is refused, not read. Messages name the
 * reference, never the content of a file.
 */
import { lstatSync, realpathSync, type Stats } from "node:fs";
import path from "node:path";
import { mediaMismatch, SNIFF_BYTES, type MediaKind } from "../media/sniff.js";
import { FileRefusedError, openRegularFile, readAt, tryReadText, type OpenedFile } from "./file-read.js";

/** What a reference must be: any regular file, a folder, or a file whose bytes are that media. */
export type Expected = "file" | "dir" | MediaKind;

export interface DataRootOptions {
  /** Read references outside the root too (media kept elsewhere on purpose); recorded in scores.json. */
  allowOutsideRoot?: boolean;
}

/** A reference checked: its real path, or why it cannot be used. */
export type Resolved = { ok: true; path: string } | { ok: false; missing: boolean; message: string };
/** A plain file checked and read. */
export type TextFile = { ok: true; path: string; text: string } | { ok: false; missing: boolean; message: string };

/** What a check found, before it is worded for a caller: the reason after "<what> <ref> ...". */
type Verdict = { ok: true; path: string } | { ok: false; missing: true } | { ok: false; missing: false; defect: string };

/** A frame folder as loaders see it: its path and frame names, or (path null) why it cannot be used. */
export interface FrameFolder {
  path: string | null;
  names: string[];
  problems: string[];
}

export interface ResolveOptions {
  /** The folder a relative reference is relative to (default: the root). */
  from?: string;
  /** What to call the file in messages, e.g. "image file" (default by `expect`). */
  what?: string;
  /** How to show the reference in the not-found message (default: the reference as given). */
  shown?: string;
}

const DEFAULT_WHAT: Record<Expected, string> = { file: "file", dir: "folder", image: "image", video: "video" };

export const OUTSIDE_HINT = "pass --allow-outside-root to read media kept elsewhere on purpose";

/** True when `target` is `dir` or below it (both absolute and normalised). */
export function isInside(dir: string, target: string): boolean {
  const rel = path.relative(dir, target);
  return rel === "" || (!rel.startsWith(`..${path.sep}`) && rel !== ".." && !path.isAbsolute(rel));
}

/**
 * The data path a user names on the command line, with any link in it followed: that choice is
 * the user's (a data file or folder kept elsewhere), unlike a link a dataset holds. Unchanged
 * when it does not exist (the loader reports that).
 */
export function followUserPath(data: string): string {
  try {
    return realpathSync.native(data);
  } catch {
    return data;
  }
}

/**
 * The dataset root of a data path: the folder itself, or the folder holding a data file. The
 * root's own real path is the fence, so a root reached through a symbolic link still works.
 */
export class DataRoot {
  readonly dir: string;
  readonly allowOutsideRoot: boolean;
  private readonly realDir: string;
  private readonly memo = new Map<string, Verdict>();
  private readonly folders = new Map<string, FrameFolder>();

  /** What a refused reference's message suggests (default: --allow-outside-root). */
  private readonly hint: string;

  constructor(dir: string, options: DataRootOptions & { hint?: string } = {}) {
    this.dir = path.resolve(dir);
    this.allowOutsideRoot = options.allowOutsideRoot ?? false;
    this.hint = options.hint ?? OUTSIDE_HINT;
    let real = this.dir;
    try {
      real = realpathSync.native(this.dir);
    } catch {
      /* a missing root is reported by the loader; nothing below it resolves */
    }
    this.realDir = real;
  }

  /** Resolve `ref` and check it is inside the root and is what `expect` says. Memoised per load. */
  resolve(ref: string, expect: Expected, options: ResolveOptions = {}): Resolved {
    const from = options.from ?? this.dir;
    const key = `${expect}\0${from}\0${ref}`;
    let verdict = this.memo.get(key);
    if (!verdict) {
      verdict = this.check(ref, expect, from);
      this.memo.set(key, verdict);
    }
    if (verdict.ok) return verdict;
    const what = options.what ?? DEFAULT_WHAT[expect];
    // The not-found message shows the reference the caller's way (relative, or the absolute path).
    if (verdict.missing) return { ok: false, missing: true, message: `${what} not found: ${options.shown ?? ref}` };
    return { ok: false, missing: false, message: `${what} ${ref === "" || ref.includes("\0") ? JSON.stringify(ref) : ref} ${verdict.defect}` };
  }

  /** Resolve `ref` as a plain file and read it whole, as text, through one checked descriptor. */
  readText(ref: string, options: ResolveOptions = {}): TextFile {
    const found = this.resolve(ref, "file", options);
    if (!found.ok) return found;
    const read = tryReadText(found.path);
    if (!read.ok) return { ok: false, missing: false, message: `${options.what ?? "file"} ${ref} ${read.reason}` };
    return { ok: true, path: found.path, text: read.text };
  }

  /**
   * A search over folders as release tools do it: the first folder where `ref` exists wins, and
   * if that one is outside the root (or the wrong content) the reference is refused.
   */
  search(ref: string, expect: Expected, folders: readonly string[], options: Omit<ResolveOptions, "from"> = {}): Resolved {
    let result: Resolved = { ok: false, missing: true, message: `${options.what ?? DEFAULT_WHAT[expect]} not found: ${options.shown ?? ref}` };
    for (const from of folders) {
      result = this.resolve(ref, expect, { ...options, from });
      if (result.ok || !result.missing) return result;
    }
    return result;
  }

  private check(ref: string, expect: Expected, from: string): Verdict {
    const refused = (defect: string): Verdict => ({ ok: false, missing: false, defect });
    if (ref === "" || ref.includes("\0")) return refused("is not a usable path");
    const candidate = path.resolve(from, ref);
    // A reference that does not exist is "not found" wherever it points, so a search over several
    // candidate folders (EgoPathBench's sidecars) goes on past it as the official code does.
    let real: string;
    try {
      real = realpathSync.native(candidate);
    } catch {
      return { ok: false, missing: true };
    }
    if (!this.allowOutsideRoot) {
      if (!isInside(this.dir, candidate) && !isInside(this.realDir, candidate)) return refused(`is outside the dataset root; refused (${this.hint})`);
      if (!isInside(this.realDir, real)) return refused(`is a link to a file outside the dataset root; refused (${this.hint})`);
      // Links are not followed even when they stay inside: the path the row names is the file.
      if (real !== this.placeUnderRealRoot(candidate)) return refused(`is reached through a symbolic link; links in a dataset are not followed (${this.hint})`);
    }
    let stats: Stats;
    try {
      stats = lstatSync(real);
    } catch {
      return refused("cannot be read");
    }
    if (expect === "dir") return stats.isDirectory() ? { ok: true, path: real } : refused("is not a folder");
    if (!stats.isFile()) return refused("is not a regular file");
    // A plain file is opened by whoever reads it (file-read.ts checks that descriptor); a media file
    // is opened here to check its bytes are that media, and again, checked again, when it is sent.
    if (expect === "file") return { ok: true, path: real };
    let opened: OpenedFile;
    try {
      opened = openRegularFile(real);
    } catch (error) {
      return refused(error instanceof FileRefusedError ? error.reason : "cannot be read");
    }
    try {
      const defect = mediaMismatch(readAt(opened.fd, 0, SNIFF_BYTES), expect);
      if (defect) return refused(defect);
    } catch {
      return refused("cannot be read");
    } finally {
      opened.close();
    }
    return { ok: true, path: real };
  }

  /** Where `candidate` (inside the root as given, or its real path) lies under the root's real path. */
  private placeUnderRealRoot(candidate: string): string {
    return isInside(this.dir, candidate) ? path.join(this.realDir, path.relative(this.dir, candidate)) : candidate;
  }

  /**
   * A folder of frame images (a tour or clip as frames): the frame file names `listFrames` finds
   * in it (in the sampler's order), each checked like a reference of its own: a link out of the
   * root or a file that is not an image is a problem, not skipped in silence, since the frame
   * sampler would read it. Memoised per load (many items share one clip).
   */
  frameFolder(ref: string, listFrames: (dir: string) => string[], options: ResolveOptions = {}): FrameFolder {
    const key = `${options.what ?? ""}\0${options.from ?? this.dir}\0${ref}`; // messages carry `what`
    let folder = this.folders.get(key);
    if (!folder) {
      folder = this.readFrameFolder(ref, listFrames, options);
      this.folders.set(key, folder);
    }
    return folder;
  }

  private readFrameFolder(ref: string, listFrames: (dir: string) => string[], options: ResolveOptions): FrameFolder {
    const dir = this.resolve(ref, "dir", { what: "frame folder", ...options });
    if (!dir.ok) return { path: null, names: [], problems: [dir.message] };
    let names: string[];
    try {
      names = listFrames(dir.path);
    } catch {
      return { path: null, names: [], problems: [`frame folder ${ref} cannot be read`] };
    }
    const problems: string[] = [];
    for (const name of names) {
      const frame = this.resolve(path.join(dir.path, name), "image", { what: "frame" });
      if (!frame.ok) problems.push(frame.message);
    }
    return { path: dir.path, names, problems };
  }
}
