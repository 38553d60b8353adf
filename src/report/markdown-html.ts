/** The Markdown our benchmark reports write (headings, paragraphs, pipe tables) as HTML, escaped. */

/** Text made safe for HTML element content and quoted attribute values. */
export const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;

/**
 * Inline Markdown as our reports use it: backslash escapes (`\X` is the plain X, see mdText in
 * markdown.ts) and `code` spans; everything else is text. Every character ends up escaped.
 */
export function inlineHtml(text: string): string {
  let out = "";
  let plain = "";
  const flush = () => {
    out += escapeHtml(plain);
    plain = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\" && i + 1 < text.length && ASCII_PUNCTUATION.test(text[i + 1]!)) {
      plain += text[++i];
    } else if (c === "`" && text.indexOf("`", i + 1) > i + 1) {
      const end = text.indexOf("`", i + 1);
      flush();
      out += `<code>${escapeHtml(text.slice(i + 1, end))}</code>`;
      i = end;
    } else plain += c;
  }
  flush();
  return out;
}

function tableHtml(rows: string[][]): string {
  const [header, , ...rest] = rows;
  return `<table><thead><tr>${(header ?? []).map((c) => `<th>${inlineHtml(c)}</th>`).join("")}</tr></thead><tbody>` +
    rest.map((r) => `<tr>${r.map((c) => `<td>${inlineHtml(c)}</td>`).join("")}</tr>`).join("") +
    "</tbody></table>";
}

/** The cells of a table row: split at pipes that are not escaped; escapes stay for inlineHtml. */
export function tableCells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, "").replace(/\|$/, "");
  const cells: string[] = [];
  let cell = "";
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === "\\" && i + 1 < inner.length) cell += inner[i]! + inner[++i]!;
    else if (inner[i] === "|") {
      cells.push(cell.trim());
      cell = "";
    } else cell += inner[i];
  }
  cells.push(cell.trim());
  return cells;
}

export function markdownToHtml(markdown: string): string {
  const lines = markdown.split("\n");
  const body: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.startsWith("|")) {
      const rows: string[][] = [];
      while (i < lines.length && lines[i]!.startsWith("|")) rows.push(tableCells(lines[i++]!));
      body.push(tableHtml(rows));
      continue;
    }
    const heading = /^(#+)\s+(.*)$/.exec(line);
    if (heading) body.push(`<h${Math.min(6, heading[1]!.length + 1)}>${inlineHtml(heading[2]!)}</h${Math.min(6, heading[1]!.length + 1)}>`);
    else if (line.trim()) body.push(`<p>${inlineHtml(line)}</p>`);
    i++;
  }
  return body.join("\n");
}

/** A heading of a rendered section, for the table of contents. */
export interface SectionHeading {
  level: number;
  text: string;
  id: string;
}

export interface SectionOptions {
  /** Ids are `${idPrefix}-<slug of the heading>`, made unique with `seen`. */
  idPrefix: string;
  seen: Set<string>;
  /** HTML placed right after the first heading (a benchmark's charts go under its title). */
  afterFirstHeading?: string;
  /** Headings whose part (up to the next heading of the same or a higher level) folds away in <details>. */
  collapsible?: (text: string, level: number) => boolean;
}

/** A lower-case ASCII slug for an id: letters and digits joined by "-", at most 60 characters. */
export function slug(text: string): string {
  let out = "";
  for (const c of text.toLowerCase()) {
    if ((c >= "a" && c <= "z") || (c >= "0" && c <= "9")) out += c;
    else if (!out.endsWith("-")) out += "-";
    if (out.length >= 60) break;
  }
  return out.replace(/^-+|-+$/g, "") || "section";
}

/** An id not yet in `seen` (adds it). */
export function uniqueId(base: string, seen: Set<string>): string {
  let id = base;
  for (let k = 2; seen.has(id); k++) id = `${base}-${k}`;
  seen.add(id);
  return id;
}

/**
 * A report section from our Markdown: `##` is <h2>, `###` <h3> (the page's title is the only
 * <h1>), every heading with an id for links, and the headings listed for the table of contents.
 */
export function markdownSection(markdown: string, options: SectionOptions): { html: string; headings: SectionHeading[] } {
  const body: string[] = [];
  const headings: SectionHeading[] = [];
  const open: number[] = []; // levels of the <details> blocks still open
  let placed = options.afterFirstHeading === undefined;
  const lines = markdown.split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.startsWith("|")) {
      const rows: string[][] = [];
      while (i < lines.length && lines[i]!.startsWith("|")) rows.push(tableCells(lines[i++]!));
      body.push(tableHtml(rows));
      continue;
    }
    i++;
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (!heading) {
      if (line.trim()) body.push(`<p>${inlineHtml(line)}</p>`);
      continue;
    }
    const level = Math.max(2, heading[1]!.length);
    const text = heading[2]!;
    while (open.length > 0 && open[open.length - 1]! >= level) {
      body.push("</details>");
      open.pop();
    }
    const plain = inlineText(text);
    const id = uniqueId(`${options.idPrefix}-${slug(plain)}`, options.seen);
    headings.push({ level, text: plain, id });
    const tag = `<h${level} id="${id}">${inlineHtml(text)}</h${level}>`;
    if (options.collapsible?.(plain, level)) {
      body.push(`<details class="fold" data-heading="${id}"><summary>${tag}</summary>`);
      open.push(level);
    } else body.push(tag);
    if (!placed) {
      body.push(options.afterFirstHeading!);
      placed = true;
    }
  }
  while (open.pop() !== undefined) body.push("</details>");
  if (!placed) body.unshift(options.afterFirstHeading!);
  return { html: body.join("\n"), headings };
}

/** Inline Markdown as plain text (escapes resolved, code spans unwrapped): what a reader sees. */
export function inlineText(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\" && i + 1 < text.length && ASCII_PUNCTUATION.test(text[i + 1]!)) out += text[++i];
    else if (c === "`" && text.indexOf("`", i + 1) > i + 1) {
      const end = text.indexOf("`", i + 1);
      out += text.slice(i + 1, end);
      i = end;
    } else out += c;
  }
  return out;
}
