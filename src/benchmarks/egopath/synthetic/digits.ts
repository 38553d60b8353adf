/** A 3x5 pixel digit font, so markers can be numbered without any system font. */
const GLYPHS: Record<string, readonly string[]> = {
  "0": ["111", "101", "101", "101", "111"],
  "1": ["010", "110", "010", "010", "111"],
  "2": ["111", "001", "111", "100", "111"],
  "3": ["111", "001", "111", "001", "111"],
  "4": ["101", "101", "111", "001", "001"],
  "5": ["111", "100", "111", "001", "111"],
  "6": ["111", "100", "111", "101", "111"],
  "7": ["111", "001", "001", "001", "001"],
  "8": ["111", "101", "111", "101", "111"],
  "9": ["111", "101", "111", "001", "111"],
};

export interface PixelRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * The filled cells that spell `text` (digits only), centred on (cx, cy), each cell `scale` pixels.
 * Glyphs are 3 cells wide with a 1-cell gap; coordinates are whole pixels so edges stay crisp.
 */
export function digitRects(text: string, cx: number, cy: number, scale: number): PixelRect[] {
  const width = (text.length * 4 - 1) * scale;
  const left = Math.round(cx - width / 2);
  const top = Math.round(cy - (5 * scale) / 2);
  const rects: PixelRect[] = [];
  [...text].forEach((ch, k) => {
    const glyph = GLYPHS[ch];
    if (!glyph) throw new Error(`no glyph for ${JSON.stringify(ch)}`);
    glyph.forEach((row, r) => {
      [...row].forEach((cell, c) => {
        if (cell === "1") rects.push({ x: left + (k * 4 + c) * scale, y: top + r * scale, w: scale, h: scale });
      });
    });
  });
  return rects;
}
