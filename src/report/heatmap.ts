/**
 * The models x benchmarks chart of the HTML report: one row per leaderboard row, one column per
 * benchmark, each cell shaded by its headline score (0-100 %, white to the accent colour) with the
 * printed value in it; blank where the run has no such benchmark. A cell whose score does not
 * cover every task it averages, or whose run is incomplete, is hatched and printed as the
 * leaderboard prints it, so a partial number never looks like a whole one.
 */
import type { Leaderboard } from "./export/leaderboard.js";
import { escapeXml, FONT, truncate } from "./svg.js";

const CELL_W = 120, CELL_H = 26, LABEL_W = 240, HEAD_H = 46;

/** rgb of a score in [0, 1] between white and #7c3aed. */
function shade(score: number): string {
  const t = Math.min(1, Math.max(0, score));
  const mix = (from: number, to: number) => Math.round(from + (to - from) * t);
  return `rgb(${mix(255, 124)},${mix(255, 58)},${mix(255, 237)})`;
}

/** The chart as SVG; `titles` gives each benchmark id's column title (its Benchmark title). */
export function leaderboardHeatmap(board: Leaderboard, titles: Record<string, string>): string {
  const rows = board.blindRows ? board.rows.slice(0, -2) : board.rows;
  const width = LABEL_W + CELL_W * board.benchmarks.length;
  const height = HEAD_H + CELL_H * rows.length + 8;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="${FONT}" font-size="12" role="img">`,
    `<title>Headline score per model and benchmark (%)</title>`,
    `<defs><pattern id="leaderboard-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="6" stroke="#9ca3af" stroke-width="2"/></pattern></defs>`,
  ];
  board.benchmarks.forEach((id, c) => {
    parts.push(`<text x="${LABEL_W + CELL_W * c + CELL_W / 2}" y="${HEAD_H - 10}" text-anchor="middle" font-weight="600">${escapeXml(titles[id] ?? id)}</text>`);
  });
  rows.forEach((row, r) => {
    const y = HEAD_H + CELL_H * r;
    parts.push(`<text x="${LABEL_W - 8}" y="${y + CELL_H / 2 + 4}" text-anchor="end">${escapeXml(truncate(row.run, 36))}<title>${escapeXml(row.run)}</title></text>`);
    board.benchmarks.forEach((id, c) => {
      const cell = row.cells.get(id);
      const x = LABEL_W + CELL_W * c;
      if (!cell) {
        parts.push(`<rect x="${x + 1}" y="${y + 1}" width="${CELL_W - 2}" height="${CELL_H - 2}" fill="#fff" stroke="#e5e7eb"/>`);
        return;
      }
      const whole = cell.covered && cell.complete && cell.score !== null;
      const fill = whole ? shade(cell.score!) : "url(#leaderboard-hatch)";
      const ink = whole && cell.score! > 0.55 ? "#fff" : "#1f2937";
      parts.push(`<rect x="${x + 1}" y="${y + 1}" width="${CELL_W - 2}" height="${CELL_H - 2}" fill="${fill}" stroke="#d1d5db"><title>${escapeXml(`${row.run} · ${titles[id] ?? id}: ${cell.text}`)}</title></rect>`);
      parts.push(`<text x="${x + CELL_W / 2}" y="${y + CELL_H / 2 + 4}" text-anchor="middle" fill="${ink}">${escapeXml(truncate(cell.text, 18))}</text>`);
    });
  });
  parts.push("</svg>");
  return parts.join("");
}
