/** An audit folder: audit.json (the document), items.jsonl (s(x) and the rules right per item), audit.md. */
import path from "node:path";
import { toJson, writeFileAtomic } from "../core/outputs.js";
import type { AuditResult } from "./audit.js";
import { auditMarkdown } from "./markdown.js";

export const AUDIT_FILE = "audit.json";

export function writeAudit(dir: string, result: AuditResult, data: string): void {
  writeFileAtomic(path.join(dir, AUDIT_FILE), `${toJson({ ...result.document, data, created_at: new Date().toISOString() }, 2)}\n`);
  writeFileAtomic(path.join(dir, "items.jsonl"), result.items.map((i) => `${toJson(i)}\n`));
  writeFileAtomic(path.join(dir, "audit.md"), `${auditMarkdown(result.document)}\n`);
}
