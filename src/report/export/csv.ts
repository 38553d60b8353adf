/**
 * CSV as RFC 4180 writes it: fields separated by commas, records by CRLF, a field quoted when it
 * holds a comma, a quote, CR or LF, with its quotes doubled. Text that a spreadsheet would take for
 * a formula (starting with = + - @, or a tab or CR) gets a leading apostrophe; numbers are written
 * as numbers (a negative number stays -0.5), with every digit JavaScript needs to read them back.
 */
export type CsvValue = string | number | null | undefined;

/** Starts that make a spreadsheet evaluate a cell (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRecord(values: readonly CsvValue[]): string {
  return values.map(csvField).join(",");
}

/** A header record, then one record per row, each ending in CRLF. */
export function csvTable(header: readonly string[], rows: ReadonlyArray<readonly CsvValue[]>): string {
  return [header, ...rows].map((row) => `${csvRecord(row)}\r\n`).join("");
}
