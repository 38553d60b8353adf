/**
 * `spatialprobe serve`: a local viewer over run folders. It serves the report page, JSON of the
 * runs and their items (re-read when the folders change, so a run in progress updates live),
 * overlay pictures drawn on demand, and plain files under the given run folders only.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { LOCK_FILE } from "../core/lock.js";
import { LIVE_HEADER, LIVE_RESULTS, OUTPUTS_MANIFEST } from "../core/outputs.js";
import { galleryItems, navigationEpisodes, runMeta } from "../report/html-report.js";
import { episodeRunMarkers, episodeRunsOf, type EpisodeRow } from "../report/episode-runs.js";
import { attachPrompts, overlayRenderer, promptViewer, type GalleryItem } from "../report/gallery.js";
import { comparisonTable } from "../report/compare.js";
import { promptImages, promptRebuilder, runSeed } from "../report/sent-prompt.js";
import type { PromptView } from "../report/sent-prompt.js";
import type { Message } from "../core/types.js";
import { page, summaryHtml, viewerScript } from "../report/page.js";
import { expandReportInputs } from "../report/export/inputs.js";
import { fileInRunFolder, readRunFolder, type RunFolder } from "../report/run-folder.js";

export interface ViewerOptions {
  dirs: string[];
  host?: string;
  port?: number;
  /** How often the page asks whether the runs changed. */
  pollMs?: number;
  /** How long the first page waits for the prompts before it is sent without them (default 250 ms). */
  promptWaitMs?: number;
}

export interface Viewer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

// The lock too: whether a torn last line is being written or was cut off depends on it.
const watched = () => ["scores.json", "items.jsonl", OUTPUTS_MANIFEST, LOCK_FILE, LIVE_HEADER, LIVE_RESULTS, ...episodeRunMarkers()];
const THUMB_SIDE = 360;
const LARGE_SIDE = 1024;
const SIDES = new Set([THUMB_SIDE, LARGE_SIDE]);

/** Changes whenever a watched file of any run folder changes (size or time). */
function folderVersion(dirs: string[]): string {
  const hash = createHash("sha256");
  const names = watched();
  for (const dir of dirs) {
    for (const name of names) {
      const file = path.join(dir, name);
      const stat = existsSync(file) ? statSync(file) : undefined;
      hash.update(`${file}\u0000${stat ? `${stat.size}:${stat.mtimeMs}` : "-"}\n`);
    }
  }
  return hash.digest("hex").slice(0, 16);
}

const PROMPT_WAIT_MS = 250;
/** How often the viewer looks for run folders made since it started. */
const RESCAN_MS = 1000;
/** Marks the version of a page sent before its prompts were ready, so the first poll replaces it. */
export const PROMPTS_PENDING = "~prompts-pending";
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** A gallery item with its prompt fields cleared (they are being attached while the first page is sent). */
const withoutPrompt = (item: GalleryItem): GalleryItem => ({ ...item, prompt: null, promptError: null });

const SECURITY_HEADERS = {
  "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
};

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { ...SECURITY_HEADERS, "Content-Type": type, "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

const sendText = (res: ServerResponse, status: number, text: string) => send(res, status, "text/plain; charset=utf-8", text);
const sendJson = (res: ServerResponse, value: unknown) => send(res, 200, "application/json; charset=utf-8", JSON.stringify(value));

/** Files of a run folder are sent as data, never as pages: only pictures keep an image type. */
const FILE_TYPES: Record<string, string> = { ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".json": "application/json; charset=utf-8" };

/**
 * The file a /files/<run>/<rest> request names, if it lies inside that run folder (after
 * resolving links); "forbidden" for anything that tries to leave it.
 */
export function resolveRunFile(runDir: string, rest: string): string | "forbidden" | "missing" {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    return "forbidden";
  }
  return fileInRunFolder(runDir, decoded);
}

/**
 * The viewer's URL of a file given by its path relative to run folder `runIndex` (as episode
 * records name their pictures), or null when it is not a picture inside that folder.
 */
export function runFileUrl(dirs: readonly string[], runIndex: number, relative: string): string | null {
  const dir = dirs[runIndex];
  if (!dir || typeof relative !== "string" || relative === "") return null;
  const encoded = relative.split("/").map(encodeURIComponent).join("/");
  const file = resolveRunFile(dir, encoded);
  if (file === "forbidden" || file === "missing" || !FILE_TYPES[path.extname(file).toLowerCase()]?.startsWith("image/")) return null;
  return `/files/${runIndex}/${encoded}`;
}

/** Host headers the viewer answers (a page on another site cannot reach it by DNS rebinding). */
function allowedHosts(host: string, port: number): Set<string> {
  const names = host === "127.0.0.1" || host === "localhost" || host === "::1" ? ["127.0.0.1", "localhost", "[::1]"] : [host];
  return new Set(names.map((name) => `${name}:${port}`));
}

/** Host headers as sent (Node keeps only the first in req.headers; rawHeaders has them all). */
export function hostHeaderCount(rawHeaders: string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === "host") count++;
  return count;
}

/** What the page's script reads: runs, items (with their prompt index), the prompt table, paired counts, episodes. */
function viewerData(state: { runs: RunFolder[]; items: GalleryItem[]; episodes: EpisodeRow[] }, prompts: PromptView[]) {
  const runs = runMeta(state.runs);
  return { runs, items: state.items, prompts, comparisons: comparisonTable(runs, state.items), episodes: state.episodes };
}

export async function startViewer(options: ViewerOptions): Promise<Viewer> {
  // The runs the HTML report shows for the same arguments (run folders at any depth the report
  // looks, --repeats folders included); looked for again on every read, so a run started after
  // the viewer appears. A run keeps its index (links name it): new ones are appended.
  const findRuns = () => expandReportInputs(options.dirs, { requireScores: false }).runs.map((dir) => path.resolve(dir));
  const dirs = findRuns();
  for (const dir of dirs) readRunFolder(dir); // fail early on a folder that is not a run
  // Looked for at most once a second: pictures and files are asked for dozens at a time.
  let lookedAt = Date.now();
  const addNewRuns = () => {
    if (Date.now() - lookedAt < RESCAN_MS) return;
    lookedAt = Date.now();
    let found: string[];
    try {
      found = findRuns();
    } catch {
      return; // a folder removed meanwhile: keep what is shown
    }
    for (const dir of found) if (!dirs.includes(dir)) dirs.push(dir);
  };
  const host = options.host ?? "127.0.0.1";
  const renderer = overlayRenderer();
  const pictures = new Map<string, { png: Buffer; caption: string[] } | { error: string }>();
  let cached: { version: string; runs: RunFolder[]; items: GalleryItem[]; episodes: EpisodeRow[]; prompts?: Promise<PromptView[]> } | undefined;
  // Prompts are rebuilt from the data once per run, item and setup (a live run adds only its new items' prompts).
  const rebuilder = promptRebuilder();
  const viewOf = promptViewer(rebuilder);
  const views = new Map<string, PromptView | { error: string }>();
  const setupKey = (run: RunFolder, id: string) => JSON.stringify([run.dir, run.benchmark, run.data, run.promptSource, run.control ?? null, runSeed(run), run.benchmarkOptions, id]);
  const cachedView = async (run: RunFolder, result: RunFolder["results"][number]) => {
    const key = setupKey(run, String(result.id));
    if (!views.has(key)) {
      if (views.size > 20_000) views.clear();
      views.set(key, await viewOf(run, result));
    }
    return views.get(key)!;
  };
  /** The current version's prompt table (entries get their `prompt` index), computed once per version. */
  const promptsOf = (state: NonNullable<typeof cached>) => (state.prompts ??= attachPrompts(state.runs, state.items, cachedView));
  // The messages of the item last asked for, images included, for its /prompt-image/ requests.
  let lastMessages: { key: string; messages: Message[] } | { key: string; error: string } | undefined;

  const current = () => {
    addNewRuns();
    const version = folderVersion(dirs);
    if (!cached || cached.version !== version) {
      const runs = dirs.map((dir) => readRunFolder(dir));
      const items = galleryItems(runs).map((item) => ({
        ...item,
        thumb: `/overlay/${item.run}/${item.index}.png?side=${THUMB_SIDE}`,
        image: `/overlay/${item.run}/${item.index}.png?side=${LARGE_SIDE}`,
      }));
      const episodes = navigationEpisodes(runs).map((row) => {
        const topdown = runFileUrl(dirs, row.run, episodeRunsOf(runs[row.run]!.benchmark).topdownPath(row.id));
        return topdown ? { ...row, topdown } : row;
      });
      cached = { version, runs, items, episodes };
      if (pictures.size > 2000) pictures.clear();
    }
    return cached;
  };

  const picture = async (runIndex: number, index: number, side: number) => {
    const { runs } = current();
    const run = runs[runIndex];
    const result = run?.results[index];
    if (!run || !result) return undefined;
    const key = `${run.dir}\u0000${index}\u0000${side}\u0000${createHash("sha256").update(JSON.stringify(result)).digest("hex")}`;
    if (!pictures.has(key)) pictures.set(key, await renderer.render(run, result, side));
    return pictures.get(key)!;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, port: number) => {
    if (req.method !== "GET" && req.method !== "HEAD") return sendText(res, 405, "only GET");
    if (hostHeaderCount(req.rawHeaders) !== 1) return sendText(res, 400, "a request needs exactly one Host header");
    if (!allowedHosts(host, port).has(req.headers.host ?? "")) return sendText(res, 403, "unexpected Host header");
    const url = new URL(req.url ?? "/", "http://viewer");
    const route = url.pathname;
    if (route === "/") {
      const state = current();
      // The prompts are rebuilt from the data, seconds for a big folder: the first page does not
      // wait for them. Sent without them (and under another version), it gets them with its first poll.
      const prompts = await Promise.race([promptsOf(state), sleep(options.promptWaitMs ?? PROMPT_WAIT_MS).then(() => undefined)]);
      const shown = prompts ? { version: state.version, ...viewerData(state, prompts) } : { version: `${state.version}${PROMPTS_PENDING}`, ...viewerData({ ...state, items: state.items.map(withoutPrompt) }, []) };
      return send(res, 200, "text/html; charset=utf-8", page({
        title: "spatialprobe viewer",
        subtitle: `${state.runs.length} run${state.runs.length === 1 ? "" : "s"} · updates while runs are in progress`,
        summary: summaryHtml(state.runs),
        notes: [],
        data: { mode: "serve", ...shown, pollMs: options.pollMs ?? 2000 },
        script: "external",
      }));
    }
    if (route === "/viewer.js") return send(res, 200, "text/javascript; charset=utf-8", viewerScript());
    if (route === "/api/state") {
      const state = current();
      const prompts = await promptsOf(state);
      return sendJson(res, { version: state.version, ...viewerData(state, prompts) });
    }
    const promptImage = /^\/prompt-image\/(\d+)\/(\d+)\/(\d+)$/.exec(route);
    if (promptImage) {
      const run = current().runs[Number(promptImage[1])];
      const result = run?.results[Number(promptImage[2])];
      if (!run || !result) return sendText(res, 404, "no such item");
      const key = setupKey(run, String(result.id));
      if (lastMessages?.key !== key) {
        const built = await rebuilder.messages(run, result);
        lastMessages = "error" in built ? { key, error: built.error } : { key, messages: built.messages };
      }
      if ("error" in lastMessages) return sendText(res, 404, `prompt not rebuilt: ${lastMessages.error}`);
      const image = promptImages(lastMessages.messages)[Number(promptImage[3])];
      if (!image) return sendText(res, 404, "no such image in the prompt");
      // Only picture types are sent as pictures (the page's CSP and nosniff do the rest).
      if (!["image/png", "image/jpeg", "image/webp", "image/gif"].includes(image.mediaType)) return sendText(res, 415, "not a picture type");
      return send(res, 200, image.mediaType, image.bytes);
    }
    const episode = /^\/api\/episode\/(\d+)\/(\d+)$/.exec(route);
    if (episode) {
      const runIndex = Number(episode[1]);
      const run = current().runs[runIndex];
      const detail = run?.navigation ? episodeRunsOf(run.benchmark).episodeDetail(run, runIndex, Number(episode[2]), (relative) => runFileUrl(dirs, runIndex, relative)) : undefined;
      return detail ? sendJson(res, detail) : sendText(res, 404, "no such episode");
    }
    if (route === "/fragment/summary") return send(res, 200, "text/html; charset=utf-8", summaryHtml(current().runs));
    const overlay = /^\/overlay\/(\d+)\/(\d+)\.png$/.exec(route);
    if (overlay) {
      const side = Number(url.searchParams.get("side") ?? THUMB_SIDE);
      if (!SIDES.has(side)) return sendText(res, 400, `side must be ${[...SIDES].join(" or ")}`);
      const drawn = await picture(Number(overlay[1]), Number(overlay[2]), side);
      if (!drawn) return sendText(res, 404, "no such item");
      if ("error" in drawn) return sendText(res, 404, `no picture: ${drawn.error}`);
      return send(res, 200, "image/png", drawn.png);
    }
    const caption = /^\/api\/item\/(\d+)\/(\d+)$/.exec(route);
    if (caption) {
      const drawn = await picture(Number(caption[1]), Number(caption[2]), LARGE_SIDE);
      if (!drawn) return sendText(res, 404, "no such item");
      return sendJson(res, "error" in drawn ? { caption: [], error: drawn.error } : { caption: drawn.caption });
    }
    const file = /^\/files\/(\d+)\/(.+)$/.exec(url.pathname);
    if (file) {
      const dir = dirs[Number(file[1])];
      if (!dir) return sendText(res, 404, "no such run");
      // The raw path (before URL normalisation) is checked again, so encoded ".." cannot slip by.
      const raw = (req.url ?? "").split("?")[0]!.replace(/^\/files\/\d+\//, "");
      const resolved = resolveRunFile(dir, raw);
      if (resolved === "forbidden") return sendText(res, 403, "outside the run folder");
      if (resolved === "missing") return sendText(res, 404, "not found");
      return send(res, 200, FILE_TYPES[path.extname(resolved).toLowerCase()] ?? "text/plain; charset=utf-8", readFileSync(resolved));
    }
    return sendText(res, 404, "not found");
  };

  const server = createServer((req, res) => {
    const port = (server.address() as AddressInfo).port;
    handle(req, res, port).catch((error: unknown) => {
      if (!res.headersSent) sendText(res, 500, `viewer error: ${(error as Error).message}`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8377, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/`,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
