/**
 * Results of the two experiments spatialprobe prepares data for but does not train itself (no
 * GPU code is shipped; docs/patheval-probing.md is the recipe):
 * - encoder probe (paper §5.2, Table 4): a linear probe on a vision encoder's features of two
 *   single-path pictures says "same" or "different"; accuracy on held-out pairs and the mean cosine
 *   similarity of the two pictures' features over the different pairs, frozen or fine-tuned encoder;
 * - memorization (App. D.3, Table 13): accuracy of a fine-tuned VLM on its own small training
 *   subset (50, 100, 200 questions), image only, image with descriptors, image with random tokens.
 * The file is JSON Lines, one measurement a line (format in the doc). This module reads it (each
 * defect a DataProblem naming the file, line and field) and lays it out as the paper's tables.
 */
import { problemList, type DataProblem } from "../../core/problems.js";

export const ENCODER_SETTINGS = ["frozen", "fine-tuned"] as const;
export const MEMORIZATION_INPUTS = ["image", "image+descriptors", "image+random-tokens"] as const;
export type EncoderSetting = (typeof ENCODER_SETTINGS)[number];
export type MemorizationInput = (typeof MEMORIZATION_INPUTS)[number];

export interface EncoderProbeRow {
  table: "encoder-probe";
  encoder: string;
  setting: EncoderSetting;
  accuracy: number;
  cosine_similarity: number;
  /** Held-out pairs the accuracy is over. */
  n: number;
  line: number;
}

export interface MemorizationRow {
  table: "memorization";
  instances: number;
  input: MemorizationInput;
  accuracy: number;
  n: number;
  line: number;
}

export type ProbeResultRow = EncoderProbeRow | MemorizationRow;

/** Paper Table 4 (2D): accuracy and mean cosine similarity, frozen / fine-tuned encoder. */
export const PAPER_TABLE_4: Readonly<Record<string, Record<EncoderSetting, { accuracy: number; cosine_similarity: number }>>> = {
  "clip-vit-base-patch32": { frozen: { accuracy: 0.51, cosine_similarity: 0.914 }, "fine-tuned": { accuracy: 0.783, cosine_similarity: 0.514 } },
  "clip-vit-large-patch14-336": { frozen: { accuracy: 0.498, cosine_similarity: 0.907 }, "fine-tuned": { accuracy: 0.749, cosine_similarity: 0.548 } },
  "OpenCLIP-vit-B-32": { frozen: { accuracy: 0.54, cosine_similarity: 0.883 }, "fine-tuned": { accuracy: 0.743, cosine_similarity: 0.475 } },
  "siglip-base-patch16-224": { frozen: { accuracy: 0.529, cosine_similarity: 0.895 }, "fine-tuned": { accuracy: 0.731, cosine_similarity: 0.612 } },
  "dino-vit-16": { frozen: { accuracy: 0.495, cosine_similarity: 0.911 }, "fine-tuned": { accuracy: 0.763, cosine_similarity: 0.754 } },
  "dino-v2-base": { frozen: { accuracy: 0.51, cosine_similarity: 0.761 }, "fine-tuned": { accuracy: 0.721, cosine_similarity: 0.681 } },
};

/** Paper Table 13 (2D, frozen encoder): memorization accuracy per training-subset size. */
export const PAPER_TABLE_13: Readonly<Record<number, Record<MemorizationInput, number>>> = {
  50: { image: 0.72, "image+descriptors": 1.0, "image+random-tokens": 1.0 },
  100: { image: 0.68, "image+descriptors": 1.0, "image+random-tokens": 1.0 },
  200: { image: 0.77, "image+descriptors": 1.0, "image+random-tokens": 1.0 },
};

/** Longest line read (a results line is a few hundred characters). */
export const MAX_RESULT_LINE = 10_000;
const MAX_NAME = 200;

type Raw = Record<string, unknown>;

function fraction(raw: Raw, key: string, lo: number, push: (field: string, message: string) => void): number | null {
  const v = raw[key];
  if (typeof v !== "number" || !Number.isFinite(v) || v < lo || v > 1) {
    push(key, `must be a number in [${lo}, 1], found ${JSON.stringify(v)?.slice(0, 40) ?? "nothing"}`);
    return null;
  }
  return v;
}

function count(raw: Raw, key: string, push: (field: string, message: string) => void): number | null {
  const v = raw[key];
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 1) {
    push(key, `must be a positive integer, found ${JSON.stringify(v)?.slice(0, 40) ?? "nothing"}`);
    return null;
  }
  return v;
}

function oneOf<T extends string>(raw: Raw, key: string, choices: readonly T[], push: (field: string, message: string) => void): T | null {
  const v = raw[key];
  if (typeof v === "string" && (choices as readonly string[]).includes(v)) return v as T;
  push(key, `must be ${choices.map((c) => `"${c}"`).join(" or ")}, found ${JSON.stringify(v)?.slice(0, 40) ?? "nothing"}`);
  return null;
}

function readRow(raw: Raw, line: number, push: (field: string, message: string) => void): ProbeResultRow | null {
  const table = oneOf(raw, "table", ["encoder-probe", "memorization"] as const, push);
  if (table === "encoder-probe") {
    const encoder = raw["encoder"];
    const name = typeof encoder === "string" && encoder.trim() !== "" && encoder.length <= MAX_NAME ? encoder.trim() : null;
    if (name === null) push("encoder", `must be a non-empty name of at most ${MAX_NAME} characters`);
    const setting = oneOf(raw, "setting", ENCODER_SETTINGS, push);
    const accuracy = fraction(raw, "accuracy", 0, push);
    const cosine = fraction(raw, "cosine_similarity", -1, push);
    const n = count(raw, "n", push);
    if (name === null || setting === null || accuracy === null || cosine === null || n === null) return null;
    return { table, encoder: name, setting, accuracy, cosine_similarity: cosine, n, line };
  }
  if (table === "memorization") {
    const instances = count(raw, "instances", push);
    const input = oneOf(raw, "input", MEMORIZATION_INPUTS, push);
    const accuracy = fraction(raw, "accuracy", 0, push);
    const n = count(raw, "n", push);
    if (instances === null || input === null || accuracy === null || n === null) return null;
    return { table, instances, input, accuracy, n, line };
  }
  return null;
}

/** Reads a results file's text: every row, and every problem (file, line, field). A measurement given twice is a problem. */
export function readProbeResults(text: string, file: string): { rows: ProbeResultRow[]; problems: DataProblem[] } {
  const rows: ProbeResultRow[] = [];
  const problems = problemList();
  const seen = new Map<string, number>();
  text.replace(/^\uFEFF/, "").split("\n").forEach((content, i) => {
    const line = i + 1;
    if (content.trim() === "") return;
    if (content.length > MAX_RESULT_LINE) {
      problems.push({ file, line, message: `line is ${content.length} characters; at most ${MAX_RESULT_LINE}` });
      return;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(content);
    } catch (error) {
      problems.push({ file, line, message: `not JSON (${(error as Error).message.slice(0, 80)})` });
      return;
    }
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      problems.push({ file, line, message: "expected a JSON object" });
      return;
    }
    const row = readRow(raw as Raw, line, (field, message) => problems.push({ file, line, field, message }));
    if (!row) return;
    const key = row.table === "encoder-probe" ? `${row.table}|${row.encoder}|${row.setting}` : `${row.table}|${row.instances}|${row.input}`;
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push({ file, line, message: `repeats the measurement of line ${first} (${key.split("|").slice(1).join(", ")})` });
      return;
    }
    seen.set(key, line);
    rows.push(row);
  });
  if (rows.length === 0 && problems.length === 0) problems.push({ file, message: "no results in the file" });
  return { rows, problems };
}

const pct = (v: number | undefined) => (v === undefined ? "–" : v.toFixed(3));
const withPaper = (ours: number | undefined, paper: number | undefined) => (ours === undefined ? "–" : paper === undefined ? pct(ours) : `${pct(ours)} (${pct(paper)})`);

/** Markdown tables in the paper's layouts (Table 4: encoders by frozen / fine-tuned; Table 13: subset sizes by input), paper values in brackets where the row matches one. */
export function probeResultsMarkdown(rows: readonly ProbeResultRow[]): string {
  const out: string[] = [];
  const probes = rows.filter((r): r is EncoderProbeRow => r.table === "encoder-probe");
  if (probes.length > 0) {
    out.push("## Encoder probe (paper Table 4 layout; paper values in brackets)", "");
    out.push("| Model | Frozen accuracy | Frozen avg. cosine similarity | n | Fine-tuned accuracy | Fine-tuned avg. cosine similarity | n |", "|---|---|---|---|---|---|---|");
    for (const encoder of [...new Set(probes.map((r) => r.encoder))]) {
      const cell = (setting: EncoderSetting) => probes.find((r) => r.encoder === encoder && r.setting === setting);
      const paper = PAPER_TABLE_4[encoder];
      const parts = ENCODER_SETTINGS.flatMap((s) => {
        const r = cell(s);
        return [withPaper(r?.accuracy, paper?.[s].accuracy), withPaper(r?.cosine_similarity, paper?.[s].cosine_similarity), r ? String(r.n) : "–"];
      });
      out.push(`| ${encoder.replaceAll("|", "\\|")} | ${parts.join(" | ")} |`);
    }
    out.push("", "Accuracy: held-out same/different pairs; cosine similarity: mean over the different pairs.", "");
  }
  const memo = rows.filter((r): r is MemorizationRow => r.table === "memorization");
  if (memo.length > 0) {
    out.push("## Memorization (paper Table 13 layout; paper values in brackets)", "");
    out.push("| # of instances | Image only | Image + Desc. | Image + Rand. Tokens |", "|---|---|---|---|");
    for (const instances of [...new Set(memo.map((r) => r.instances))].sort((a, b) => a - b)) {
      const parts = MEMORIZATION_INPUTS.map((input) => {
        const r = memo.find((m) => m.instances === instances && m.input === input);
        const value = withPaper(r?.accuracy, PAPER_TABLE_13[instances]?.[input]);
        return r && r.n !== instances ? `${value}, n ${r.n}` : value;
      });
      out.push(`| ${instances} | ${parts.join(" | ")} |`);
    }
    out.push("", "Accuracy on the training subset itself (what was memorized); n is shown where it differs from the subset size.", "");
  }
  return `${out.join("\n").trimEnd()}\n`;
}
