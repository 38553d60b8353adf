/**
 * Markdown for our reports. Text that comes from outside (model names, task and descriptor names
 * from data, paths) goes through `mdText`, so it shows as written and cannot add markup: no raw
 * HTML, links, images, code spans, emphasis or table cells of its own.
 */

/**
 * Characters with inline meaning (backslash, code, emphasis, strikethrough, links and images,
 * raw HTML and autolinks, table pipes) get a backslash; CommonMark renders `\X` as the plain
 * character for any ASCII punctuation X. An `&` that would start an entity (`&lt;`) is escaped
 * too, so the text shows as written. Line breaks become spaces: a value stays on its line.
 */
export function mdText(text: string): string {
  return text.replace(/\r\n|[\r\n]/g, " ").replace(/[\\`*_~[\]<>|]|&(?=#?[A-Za-z0-9]+;)/g, "\\$&");
}

/** A Markdown table; every cell (header or body) is escaped with `mdText`. */
export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map(mdText).join(" | ")} |`;
  return [line(header), `| ${header.map(() => "---").join(" | ")} |`, ...rows.map(line)].join("\n");
}
