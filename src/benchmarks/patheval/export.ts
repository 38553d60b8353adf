/**
 * `export patheval`: training files for the fine-tuning experiments of paper §5 (Table 5) and
 * App. D.3 (Table 13), in the LLaVA, LLaMA-Factory (sharegpt) and ms-swift formats
 * (core/training-export.ts). Each record is one PathEval question as a run sends it (our template,
 * the system prompt, the side-by-side picture as `<image>`), with the gold answer as the target in
 * the prompt's answer format ("Answer: <name>."). Settings:
 *   plain             image only (§5 setting 1)
 *   with-descriptors  image and the descriptor values (§5 setting 2)
 *   random-ids        image only, the paths named by random 4-character IDs, which are also the targets (§5 setting 3)
 *   random-tokens     image only, plus a random tag line unique to the question (Table 13's "Rand. Tokens")
 * Training sets made by `generate patheval` carry no pictures unless asked (train-images=true):
 * a missing picture is drawn here from the record's paths and its environment file, into the
 * export's media folder. `limit` takes a seeded sample of that many questions per dimension
 * (Table 13's 50 / 100 / 200). Every target is read back with the scorer's reader first; a
 * question whose target would not score as right is refused, never written.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { readImageFile, readRegularText } from "../../core/file-read.js";
import path from "node:path";
import { writeFileAtomic } from "../../core/outputs.js";
import { DataError, UsageError } from "../../core/problems.js";
import {
  datasetName, exportLines, imageReference, prepareOutput, RECORD,
  type Conversation, type ExportFormat, type ImageRoot,
} from "../../core/training-export.js";
import type { Message, Part } from "../../core/types.js";
import { parseEnvironment } from "../../geometry/polygon.js";
import { sideBySide } from "../../media/compose.js";
import { renderMap2D } from "../../media/render2d.js";
import { renderMap3D } from "../../media/render3d.js";
import { createRng, seedFromString } from "../../stats/rng.js";
import { conversationPieces, mediaDirFor } from "../prompt-export.js";
import { loadPathEval } from "./load.js";
import { buildMessages, leftPath, loadTemplates, shownPair, type ShownPair } from "./prompt.js";
import { readChoice } from "./score.js";
import type { Dim, PathEvalItem } from "./types.js";

import { EXPORT_SETTINGS, type ExportSetting } from "./export-settings.js";

export { EXPORT_SETTINGS, type ExportSetting };

export interface PathEvalExportRequest {
  data: string;
  format: ExportFormat;
  outFile: string;
  split?: "train" | "test";
  setting?: ExportSetting;
  imageRoot?: ImageRoot;
  /** Random IDs, random tokens and the limit's sample (default 0). */
  seed?: number;
  /** At most this many questions per dimension, a seeded sample (Table 13). */
  limit?: number;
  tasks?: Dim[];
  templateFile?: string;
  allowOutsideRoot?: boolean;
}

export interface PathEvalExportSummary {
  outFile: string;
  format: ExportFormat;
  exported: number;
  counts: Record<string, number>;
  refused: Array<{ id: string; task: string; reason: string }>;
  mediaDir: string;
  pictures: number;
  /** Pictures drawn here because the data had none (training sets). */
  rendered: number;
  datasetInfo?: { file: string; name: string };
}

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** The random-tokens setting's tag: 8 seeded characters per question. */
export function randomTag(itemId: string, seed: number): string {
  const rng = createRng(seedFromString(`tag|${itemId}`, seed));
  return Array.from({ length: 8 }, () => ALPHANUMERIC[rng.below(ALPHANUMERIC.length)]).join("");
}

/** The target: the gold path under the name it is shown with, in the prompt's answer format. */
export function targetText(item: PathEvalItem, shown: ShownPair): string {
  const name = item.truth === leftPath(shown) ? shown.names[0] : shown.names[1];
  return `Answer: ${name}.`;
}

/** Which questions: all, or a seeded sample of `limit` per dimension (file order kept). */
export function chooseItems(items: readonly PathEvalItem[], limit: number | undefined, seed: number): PathEvalItem[] {
  if (limit === undefined) return [...items];
  const keep = new Set<PathEvalItem>();
  for (const dim of [...new Set(items.map((i) => i.task))]) {
    const own = items.filter((i) => i.task === dim);
    for (const item of createRng(seedFromString(`limit|${dim}`, seed)).shuffle(own).slice(0, limit)) keep.add(item);
  }
  return items.filter((i) => keep.has(i));
}

async function drawPicture(item: PathEvalItem, environmentFile: string): Promise<Buffer> {
  const polygons = parseEnvironment(readRegularText(environmentFile), environmentFile).map((p) => Array.from({ length: p.length / 2 }, (_, k) => [p[2 * k]!, p[2 * k + 1]!] as [number, number]));
  const render = item.task === "2D" ? renderMap2D : renderMap3D;
  const [left, right] = await Promise.all([render({ polygons, path: item.paths!["Path 1"] }), render({ polygons, path: item.paths!["Path 2"] })]);
  return sideBySide(left, right);
}

/** Pictures written once each into the media folder, named by their content hash. */
function mediaStore(dir: string) {
  const written = new Map<string, string>();
  return {
    store(part: Extract<Part, { type: "image" }>): string {
      const bytes = Buffer.from(part.base64, "base64");
      const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 20);
      let file = written.get(hash);
      if (!file) {
        file = path.join(dir, `${hash}.${part.mediaType === "image/jpeg" ? "jpg" : part.mediaType.replace("image/", "")}`);
        mkdirSync(dir, { recursive: true });
        writeFileSync(file, bytes);
        written.set(hash, file);
      }
      return file;
    },
    get count() {
      return written.size;
    },
  };
}

/** The random-tokens setting: the tag as a last line of the user's text. */
function withTag(messages: Message[], tag: string): Message[] {
  return messages.map((m) => {
    if (m.role !== "user") return m;
    const content = [...m.content];
    const last = content.length - 1;
    const part = content[last]!;
    if (part.type === "text") content[last] = { ...part, text: `${part.text}\nQuestion tag: ${tag}` };
    return { ...m, content };
  });
}

export async function exportPathEval(request: PathEvalExportRequest): Promise<PathEvalExportSummary> {
  const setting = request.setting ?? "plain";
  if (!(EXPORT_SETTINGS as readonly string[]).includes(setting)) throw new UsageError(`unknown patheval export setting "${setting}" (choose ${EXPORT_SETTINGS.join(", ")})`);
  const outFile = path.resolve(request.outFile);
  const info = prepareOutput(request.outFile, request.format);
  const mediaDir = mediaDirFor(outFile);
  if (existsSync(mediaDir) && readdirSync(mediaDir).length > 0) throw new UsageError(`${mediaDir} already holds files; export writes a new media folder and overwrites nothing`);
  const seed = request.seed ?? 0;
  const loaded = loadPathEval(request.data, {
    split: request.split ?? "train", renderMissing: true, allowOutsideRoot: request.allowOutsideRoot ?? false,
    ...(request.tasks ? { tasks: request.tasks } : {}),
  });
  if (loaded.problems.length > 0) throw new DataError(loaded.problems);
  const templates = loadTemplates(request.templateFile);
  const media = mediaStore(mediaDir);
  const records: Record<string, unknown>[] = [];
  const counts: Record<string, number> = {};
  const refused: PathEvalExportSummary["refused"] = [];
  let rendered = 0;
  for (const item of chooseItems(loaded.items, request.limit, seed)) {
    const variant = setting === "random-ids" ? "random-ids" : setting === "with-descriptors" ? "with-descriptors" : "plain";
    const shown = shownPair(item, variant, seed);
    const environmentFile = loaded.toRender?.get(item.id);
    let picture: Buffer | undefined;
    if (environmentFile) {
      picture = await drawPicture(item, environmentFile);
      rendered++;
    }
    let messages = await buildMessages(item, shown, templates, picture ? () => picture! : readImageFile);
    if (setting === "random-tokens") messages = withTag(messages, randomTag(item.id, seed));
    const target = targetText(item, shown);
    if (readChoice(target, shown, "robust") !== item.truth) {
      refused.push({ id: item.id, task: item.task, reason: `the target "${target}" does not read back as ${item.truth}` });
      continue;
    }
    const pictures: Array<Extract<Part, { type: "image" }>> = [];
    const pieces = conversationPieces(messages, (part) => pictures.push(part) - 1);
    if ("reason" in pieces) {
      refused.push({ id: item.id, task: item.task, reason: pieces.reason });
      continue;
    }
    const images = pictures.map((part) => imageReference(media.store(part), outFile, request.imageRoot ?? "relative"));
    const conversation: Conversation = { id: item.id, images, system: pieces.system, user: pieces.user, answer: target };
    records.push(RECORD[request.format](conversation));
    counts[item.task] = (counts[item.task] ?? 0) + 1;
  }
  writeFileAtomic(outFile, exportLines({ format: request.format, records }));
  if (info) writeFileAtomic(info.infoFile, info.infoText);
  return {
    outFile, format: request.format, exported: records.length, counts, refused, mediaDir, pictures: media.count, rendered,
    ...(info ? { datasetInfo: { file: info.infoFile, name: datasetName(outFile) } } : {}),
  };
}
