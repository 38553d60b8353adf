/**
 * Training files in the three formats trainers read (one supervised conversation per question):
 *
 * - llava: https://github.com/haotian-liu/LLaVA/blob/main/docs/Finetune_Custom_Data.md
 *   A JSON list of {id, image, conversations: [{from: "human", value: "<image>\n..."},
 *   {from: "gpt", value}]}; the image path is joined to the trainer's --image_folder. The format
 *   has no system turn (the conversation template brings its own), so a system prompt opens the
 *   human turn after the leading images. Several images (LLaVA-OneVision's multi-image data):
 *   `image` is a list and the turn holds one "<image>" per picture.
 * - sharegpt: https://github.com/hiyouga/LLaMA-Factory/blob/main/data/README.md (Sharegpt Format,
 *   Multimodal Image Dataset): a JSON list of {conversations: [{from: "human", value:
 *   "<image>..."}, {from: "gpt", value}], system, images: [path, ...]}, with its dataset_info.json
 *   entry (file_name, formatting "sharegpt", columns, tags). Relative image paths are read from the
 *   trainer's media_dir, which defaults to dataset_dir, the folder of dataset_info.json.
 * - swift: https://swift.readthedocs.io/en/latest/Customization/Custom-dataset.html (Multimodal):
 *   JSONL {messages: [{role: "system"}, {role: "user", content: "<image>..."}, {role:
 *   "assistant"}], images: [path, ...]}. ms-swift opens relative paths from its working directory
 *   (modelscope/ms-swift issue 7887), so train from the output folder or export absolute paths.
 *
 * In every format the n-th "<image>" of the user turn is the n-th path of the record's images.
 */
import { existsSync, lstatSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseJson } from "./jsonl.js";
import { UsageError } from "./problems.js";

export const EXPORT_FORMATS = ["llava", "sharegpt", "swift"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const IMAGE_ROOTS = ["relative", "absolute"] as const;
export type ImageRoot = (typeof IMAGE_ROOTS)[number];

/** LLaMA-Factory reads its dataset descriptions from this file in dataset_dir. */
export const DATASET_INFO_FILE = "dataset_info.json";

/** Placeholders the trainers replace with media; one inside a prompt would pair text with the wrong input. */
export const MEDIA_PLACEHOLDERS = ["<image>", "<video>", "<audio>"];

/** The first media placeholder inside a text, if any. */
export function placeholderIn(text: string): string | undefined {
  return MEDIA_PLACEHOLDERS.find((p) => text.includes(p));
}

/** A piece of the user turn: text, or the picture at `image` (an index into the conversation's images). */
export type UserPiece = { text: string } | { image: number };

/** One question as a training conversation. */
export interface Conversation {
  id: string;
  /** Image paths as written into the record (see imageReference). */
  images: string[];
  system: string;
  /** The user turn in order; images appear where the model saw them. */
  user: UserPiece[];
  answer: string;
}

/** The image path written into a record: relative to the output file's folder (POSIX separators), or absolute. */
export function imageReference(imagePath: string, outFile: string, imageRoot: ImageRoot): string {
  const absolute = path.resolve(imagePath);
  if (imageRoot === "absolute") return absolute;
  return path.relative(path.dirname(path.resolve(outFile)), absolute).split(path.sep).join("/");
}

const pieceText = (piece: UserPiece): string => ("image" in piece ? "<image>" : piece.text);

export function llavaRecord(c: Conversation): Record<string, unknown> {
  // Leading pictures first (one per line), then the system prompt, then the rest of the turn.
  let lead = 0;
  while (lead < c.user.length && "image" in c.user[lead]!) lead++;
  const head = "<image>\n".repeat(lead);
  const rest = c.user.slice(lead).map(pieceText).join("");
  const value = `${head}${c.system ? `${c.system}\n\n${rest}` : rest}`;
  return {
    id: c.id,
    image: c.images.length === 1 ? c.images[0] : c.images,
    conversations: [
      { from: "human", value },
      { from: "gpt", value: c.answer },
    ],
  };
}

export function sharegptRecord(c: Conversation): Record<string, unknown> {
  return {
    conversations: [
      { from: "human", value: c.user.map(pieceText).join("") },
      { from: "gpt", value: c.answer },
    ],
    ...(c.system ? { system: c.system } : {}),
    images: c.images,
  };
}

export function swiftRecord(c: Conversation): Record<string, unknown> {
  return {
    messages: [
      ...(c.system ? [{ role: "system", content: c.system }] : []),
      { role: "user", content: c.user.map(pieceText).join("") },
      { role: "assistant", content: c.answer },
    ],
    images: c.images,
  };
}

export const RECORD: Record<ExportFormat, (c: Conversation) => Record<string, unknown>> = { llava: llavaRecord, sharegpt: sharegptRecord, swift: swiftRecord };

/** The LLaMA-Factory description of a sharegpt export file (tags spelled out though they are the defaults). */
export function sharegptDatasetInfo(fileName: string): Record<string, unknown> {
  return {
    file_name: fileName,
    formatting: "sharegpt",
    columns: { messages: "conversations", system: "system", images: "images" },
    tags: { role_tag: "from", content_tag: "value", user_tag: "human", assistant_tag: "gpt" },
  };
}

/** The dataset name LLaMA-Factory is given (`dataset: <name>`): the export file's name without its extension. */
export function datasetName(outFile: string): string {
  return path.basename(outFile, path.extname(outFile));
}

/** The file's text pieces: a JSON list with one record a line (llava, sharegpt) or JSONL (swift). */
export function* exportLines(plan: { format: ExportFormat; records: readonly Record<string, unknown>[] }): Generator<string> {
  if (plan.format === "swift") {
    for (const record of plan.records) yield `${JSON.stringify(record)}\n`;
    return;
  }
  if (plan.records.length === 0) {
    yield "[]\n";
    return;
  }
  for (let i = 0; i < plan.records.length; i++) yield `${i === 0 ? "[\n" : ",\n"}${JSON.stringify(plan.records[i])}`;
  yield "\n]\n";
}

export function existsOrLink(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** Refuse an output that exists or would clobber something; returns the dataset_info.json text to write, if any. */
export function prepareOutput(outFile: string, format: ExportFormat): { infoFile: string; infoText: string } | undefined {
  const file = path.resolve(outFile);
  if (existsOrLink(file)) throw new UsageError(`--out ${outFile} already exists; export writes a new file and overwrites nothing`);
  const folder = path.dirname(file);
  if (existsSync(folder) && !lstatSync(folder).isDirectory()) throw new UsageError(`--out ${outFile}: ${folder} is not a folder`);
  if (format !== "sharegpt") return undefined;
  if (path.basename(file) === DATASET_INFO_FILE) throw new UsageError(`--out must not be named ${DATASET_INFO_FILE}: that file holds LLaMA-Factory's dataset descriptions`);
  const infoFile = path.join(folder, DATASET_INFO_FILE);
  const name = datasetName(file);
  let info: Record<string, unknown> = {};
  if (existsOrLink(infoFile)) {
    const parsed = parseJson(readFileSync(infoFile, "utf8"));
    if (!parsed.ok || typeof parsed.value !== "object" || parsed.value === null || Array.isArray(parsed.value)) {
      throw new UsageError(`${infoFile} is not a JSON object (${parsed.ok ? "found another JSON value" : parsed.message}); the dataset entry cannot be added to it`);
    }
    info = parsed.value as Record<string, unknown>;
    if (Object.hasOwn(info, name)) throw new UsageError(`${infoFile} already describes a dataset "${name}"; choose another --out name or remove that entry`);
  }
  return { infoFile, infoText: `${JSON.stringify({ ...info, [name]: sharegptDatasetInfo(path.basename(file)) }, null, 2)}\n` };
}
