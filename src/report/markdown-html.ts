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
