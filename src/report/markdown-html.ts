/** The Markdown our benchmark reports write (headings, paragraphs, pipe tables) as HTML, escaped. */

/** Text made safe for HTML element content and quoted attribute values. */
export const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

function tableHtml(rows: string[][]): string {
  const [header, , ...rest] = rows;
  return `<table><thead><tr>${(header ?? []).map((c) => `<th>${escapeHtml(c)}</th>`).join("")}</tr></thead><tbody>` +
    rest.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join("")}</tr>`).join("") +
    "</tbody></table>";
}

/** A cell split that keeps escaped pipes (`\|`) inside cells. */
const cells = (line: string) => line.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, "|"));

export function markdownToHtml(markdown: string): string {
  const lines = markdown.split("\n");
  const body: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.startsWith("|")) {
      const rows: string[][] = [];
      while (i < lines.length && lines[i]!.startsWith("|")) rows.push(cells(lines[i++]!));
      body.push(tableHtml(rows));
      continue;
    }
    const heading = /^(#+)\s+(.*)$/.exec(line);
    if (heading) body.push(`<h${Math.min(6, heading[1]!.length + 1)}>${escapeHtml(heading[2]!)}</h${Math.min(6, heading[1]!.length + 1)}>`);
    else if (line.trim()) body.push(`<p>${escapeHtml(line).replace(/`([^`]+)`/g, "<code>$1</code>")}</p>`);
    i++;
  }
  return body.join("\n");
}
