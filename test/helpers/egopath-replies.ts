import { loadReleaseOrThrow } from "../../src/benchmarks/egopath/load.js";
import type { EgoPathItem } from "../../src/benchmarks/egopath/types.js";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";

/** The bundled example set, and deterministic "model" replies for it used by the mock server. */
export const EXAMPLE = path.resolve(import.meta.dirname, "../../examples/egopath-mini");

export function exampleItems(): EgoPathItem[] {
  return loadReleaseOrThrow(EXAMPLE).items;
}

/**
 * A reply per question, of varied quality and shape so the scores are not trivial: the reference
 * answer, the same in a fenced block or with prose, a wrong route, or junk.
 */
export function replyFor(item: EgoPathItem, index: number): string {
  const reference = (item.kind === "set" ? item.positives : item.referenceRoute).map(Number);
  switch (index % 5) {
    case 0: return JSON.stringify({ display_ids: reference });
    case 1: return "```json\n" + JSON.stringify(reference) + "\n```";
    case 2: return `I think the answer is ${JSON.stringify(reference.slice(0, Math.max(1, reference.length - 1)))}.`;
    case 3: return item.kind === "set" ? JSON.stringify({ display_ids: item.candidates.map(Number) }) : JSON.stringify([Number(item.startId)]);
    default: return "I cannot tell from this image.";
  }
}

const sha = (data: Buffer | string) => createHash("sha256").update(data).digest("hex").slice(0, 16);

/** What identifies a question in a request: its user prompt and its image. */
export function itemSignature(item: EgoPathItem): string {
  return `${item.userPrompt}|${sha(readFileSync(item.imagePath))}`;
}

/** The same signature read back from a request body in any of the three wire formats. */
export function requestSignature(req: { texts: string[]; body: any }): string {
  const images: string[] = [];
  const visit = (node: any): void => {
    if (!node || typeof node !== "object") return;
    if (typeof node.url === "string" && node.url.startsWith("data:")) images.push(node.url.slice(node.url.indexOf(",") + 1));
    if (node.type === "base64" && typeof node.data === "string") images.push(node.data);
    if (node.inlineData?.data) images.push(node.inlineData.data);
    for (const value of Object.values(node)) visit(value);
  };
  visit(req.body);
  const text = req.texts.join("\n").replace(/\n[^\n]*$/, (last) => (last.includes("display_ids") ? "" : last));
  return `${text}|${images.length > 0 ? sha(Buffer.from(images[0]!, "base64")) : ""}`;
}

/** Replies keyed by question signature. */
export function replyTable(items: EgoPathItem[]): Map<string, string> {
  return new Map(items.map((item, i) => [itemSignature(item), replyFor(item, i)]));
}
