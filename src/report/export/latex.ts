/**
 * Booktabs LaTeX of the report's tables. Every table of the Markdown report (each benchmark's
 * markdown(), the repeats and navigation tables) becomes one table environment with the same rows
 * and cells: \toprule, the header, \midrule, the body, \bottomrule; its heading (the benchmark's
 * section, then the sub-heading, then a short lead-in line ending in ":") is its caption, and the
 * prose around it is kept as % comments. Intervals stay as the Markdown prints them, "[low, high]"
 * (typeset {[}low, high{]}): none of the five papers prints intervals in its tables, and bootstrap
 * intervals are not symmetric, so a "±" half-width would misstate them.
 *
 * Needs \usepackage{booktabs,graphicx,longtable}: a table wider than the line is shrunk to it
 * (\resizebox, never enlarged); one longer than LONG_TABLE_ROWS rows is a longtable, which breaks
 * across pages with its header repeated (and is not shrunk).
 */

/** Tables with more body rows than this do not fit on a page as a float: they are written as longtable. */
export const LONG_TABLE_ROWS = 30;

/** Characters that LaTeX reads as commands, and Unicode signs pdfLaTeX cannot set without a package. */
const LATEX_SPECIAL: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "{": "\\{",
  "}": "\\}",
  $: "\\$",
  "&": "\\&",
  "%": "\\%",
  "#": "\\#",
  _: "\\_",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
  "<": "\\textless{}",
  ">": "\\textgreater{}",
  "|": "\\textbar{}",
  // A "[" right after \\ would be read as the row's optional spacing argument: braced, always.
  "[": "{[}",
  "]": "{]}",
  "—": "---",
  "–": "--",
  "−": "\\ensuremath{-}",
  "±": "\\ensuremath{\\pm}",
  "×": "\\ensuremath{\\times}",
  "·": "\\ensuremath{\\cdot}",
  "≥": "\\ensuremath{\\geq}",
  "≤": "\\ensuremath{\\leq}",
  "…": "\\ldots{}",
  "\u00a0": "~",
  // Signs the report's tables print (the blind-rule dagger, PathEval's epsilon and deltas, ...).
  "†": "\\dag{}",
  "‡": "\\ddag{}",
  "§": "\\S{}",
  "°": "\\ensuremath{^\\circ}",
  "ε": "\\ensuremath{\\varepsilon}",
  "Δ": "\\ensuremath{\\Delta}",
  "δ": "\\ensuremath{\\delta}",
  "σ": "\\ensuremath{\\sigma}",
  "μ": "\\ensuremath{\\mu}",
  "↔": "\\ensuremath{\\leftrightarrow}",
  "→": "\\ensuremath{\\rightarrow}",
  "←": "\\ensuremath{\\leftarrow}",
  "¬": "\\ensuremath{\\neg}",
  "≈": "\\ensuremath{\\approx}",
  "≠": "\\ensuremath{\\neq}",
  "∞": "\\ensuremath{\\infty}",
  "²": "\\ensuremath{^2}",
};

/**
 * Any other character outside ASCII (a model's name, a task word): pdfLaTeX cannot set it without
 * a package, so it is written as its code point, [U+03BB], rather than left to break the build.
 */
const codePoint = (ch: string) => `[U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}]`;

const SPECIAL_PATTERN = /[\\{}$&%#_~^<>|[\]]|[^\x00-\x7f]/gu;

/** Plain text as LaTeX text: every special character escaped, line breaks as spaces; only ASCII comes out. */
export function latexEscape(text: string): string {
  return text.replace(/\r\n|[\r\n]/g, " ").replace(SPECIAL_PATTERN, (ch) => LATEX_SPECIAL[ch] ?? latexEscape(codePoint(ch)));
}

/** A % comment line per input line (comments end at the line break, so breaks become new comments). */
const commentLines = (text: string) => text.split(/\r\n|[\r\n]/).map((line) => `% ${line}`.trimEnd());

export interface LatexTable {
  /** Plain text (escaped here). */
  caption: string;
  /** A label slug (tab:spatialprobe-<label>). */
  label: string;
  /** Plain text cells (escaped here). */
  header: string[];
  rows: string[][];
  /** Plain text written as % comments above the table. */
  notes?: string[];
}

/** Columns whose every body cell is a number, an interval, a count or a dash are right-aligned. */
const NUMERIC_CELL = /^(?:[-−+]?\d[\d.,]*(?:\/\d+)?%?(?: \(.*\)| \[.*\])?|\[.*\]|[–—-](?: \(.*\))?|)$/;

function columnSpec(header: string[], rows: string[][]): string {
  return header.map((_, c) => (c > 0 && rows.length > 0 && rows.every((row) => NUMERIC_CELL.test(row[c] ?? "")) ? "r" : "l")).join("");
}

const latexRow = (cells: string[], width: number) => `${Array.from({ length: width }, (_, i) => latexEscape(cells[i] ?? "")).join(" & ")} \\\\`;

/** A table environment for a table that fits on a page: shrunk to the line width when wider, never enlarged. */
function floatTable(t: LatexTable, spec: string, width: number): string {
  return [
    "\\begin{table}[htbp]",
    "\\centering",
    `\\caption{${latexEscape(t.caption)}}`,
    `\\label{tab:spatialprobe-${t.label}}`,
    "\\resizebox{\\ifdim\\width>\\linewidth\\linewidth\\else\\width\\fi}{!}{%",
    `\\begin{tabular}{${spec}}`,
    "\\toprule",
    latexRow(t.header, width),
    "\\midrule",
    ...t.rows.map((row) => latexRow(row, width)),
    "\\bottomrule",
    "\\end{tabular}%",
    "}",
    "\\end{table}",
  ].join("\n");
}

/** A longtable for a table taller than a page: it breaks across pages, its header repeated on each. */
function longTable(t: LatexTable, spec: string, width: number): string {
  const head = ["\\toprule", latexRow(t.header, width), "\\midrule"];
  return [
    `\\begin{longtable}{${spec}}`,
    `\\caption{${latexEscape(t.caption)}}\\label{tab:spatialprobe-${t.label}}\\\\`,
    ...head,
    "\\endfirsthead",
    ...head,
    "\\endhead",
    "\\bottomrule",
    "\\endfoot",
    ...t.rows.map((row) => latexRow(row, width)),
    "\\end{longtable}",
  ].join("\n");
}

export function booktabs(t: LatexTable): string {
  const width = t.header.length;
  const spec = columnSpec(t.header, t.rows);
  const notes = (t.notes ?? []).flatMap(commentLines);
  return [...notes, t.rows.length > LONG_TABLE_ROWS ? longTable(t, spec, width) : floatTable(t, spec, width)].join("\n");
}

// ------------------------------------------------------------------ reading our Markdown back

export type MarkdownBlock =
  | { kind: "heading"; level: number; text: string }
  | { kind: "table"; header: string[]; rows: string[][] }
  | { kind: "text"; text: string };

/** Undo markdown.ts mdText: a backslash before ASCII punctuation stands for that character. */
export function mdUnescape(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, "$1");
}

/** A table line's cells, split on the pipes that are not escaped (one pass, no backtracking). */
export function tableCells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, "");
  const cells: string[] = [];
  let current = "";
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i]!;
    if (ch === "\\" && i + 1 < inner.length) {
      current += ch + inner[i + 1]!;
      i++;
    } else if (ch === "|") {
      cells.push(current);
      current = "";
    } else current += ch;
  }
  if (current.trim() !== "") cells.push(current);
  return cells.map((cell) => mdUnescape(cell.trim()));
}

const isDelimiterRow = (cells: string[]) => cells.length > 0 && cells.every((cell) => /^:?-{3,}:?$/.test(cell));
const HEADING = /^(#{1,6}) +(\S.*)$/;

/** Our Markdown as headings, tables and paragraphs (paragraph lines joined by spaces). */
export function markdownBlocks(markdown: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  let table: { header: string[]; rows: string[][] } | null = null;
  let paragraph: string[] = [];
  const flush = () => {
    if (table) blocks.push({ kind: "table", ...table });
    if (paragraph.length > 0) blocks.push({ kind: "text", text: mdUnescape(paragraph.join(" ")) });
    table = null;
    paragraph = [];
  };
  for (const line of markdown.split(/\r?\n/)) {
    if (line.trimStart().startsWith("|")) {
      if (paragraph.length > 0) flush();
      const cells = tableCells(line);
      if (!table) table = { header: cells, rows: [] };
      else if (!isDelimiterRow(cells)) table.rows.push(cells);
      continue;
    }
    if (table) flush();
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: "heading", level: heading[1]!.length, text: mdUnescape(heading[2]!.trim()) });
    } else if (line.trim() === "") flush();
    else paragraph.push(line.trim());
  }
  flush();
  return blocks;
}

/** Inline code marks and emphasis are not LaTeX: drop them from text taken into captions. */
const plainText = (text: string) => text.replace(/`/g, "");

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "table";

/** A lead-in line short enough to name the table after it ("Failure stage (...):"). */
const LEAD_IN_MAX = 160;

/** Every Markdown table as a booktabs table, captioned by its section and heading. */
export function markdownToLatex(markdown: string): string {
  const out: string[] = [];
  const used = new Map<string, number>();
  let section = "";
  let heading = "";
  let prose: string[] = [];
  // Prose after a section's last table (the Runs notes) is kept as comments where it stood.
  const flushProse = () => {
    if (prose.length > 0) out.push(prose.flatMap(commentLines).join("\n"));
    prose = [];
  };
  for (const block of markdownBlocks(markdown)) {
    if (block.kind === "heading") {
      flushProse();
      if (block.level <= 2) {
        section = block.text;
        heading = "";
        out.push(`% ---------------------------------------------------------------- ${latexEscape(section)}`);
      } else heading = block.text;
    } else if (block.kind === "text") prose.push(block.text);
    else {
      const last = prose[prose.length - 1];
      const leadIn = last !== undefined && last.endsWith(":") && last.length <= LEAD_IN_MAX ? last.slice(0, -1) : "";
      const caption = plainText([section, heading, leadIn].filter(Boolean).join(": ")) || "Table";
      const base = slug(caption);
      const k = (used.get(base) ?? 0) + 1;
      used.set(base, k);
      out.push(booktabs({ caption, label: k === 1 ? base : `${base}-${k}`, header: block.header, rows: block.rows, notes: prose.filter((p) => p !== last || leadIn === "") }));
      prose = [];
    }
  }
  flushProse();
  return `${out.join("\n\n")}\n`;
}

/** The preamble a document needs for these tables, as a comment at the top of the output. */
export const LATEX_PREAMBLE_NOTE = [
  "% spatialprobe tables: put \\usepackage{booktabs,graphicx,longtable} in the preamble,",
  "% and \\extrafloats{100}\\maxdeadcycles=1000 when this whole file is \\input at once: LaTeX cannot",
  "% place dozens of floats in a row with no text between them otherwise.",
].join("\n");
