/**
 * Put two pictures side by side, as a PathEval question shows them: Path 1 on the left, Path 2
 * on the right, `gapPx` white columns between. Pictures of different heights are centred
 * vertically on white. Output: RGB PNG with the fixed settings of png.ts.
 */
import { decodeRgb, encodePng } from "./png.js";

export async function sideBySide(left: Buffer, right: Buffer, gapPx = 0): Promise<Buffer> {
  if (!Number.isInteger(gapPx) || gapPx < 0) throw new Error(`sideBySide: gapPx must be a non-negative integer, got ${gapPx}`);
  const [a, b] = await Promise.all([decodeRgb(left), decodeRgb(right)]);
  const width = a.width + gapPx + b.width;
  const height = Math.max(a.height, b.height);
  const out = new Uint8Array(width * height * 3).fill(255);
  const blit = (img: { data: Buffer; width: number; height: number }, x0: number) => {
    const y0 = Math.floor((height - img.height) / 2);
    for (let y = 0; y < img.height; y++) {
      const src = img.data.subarray(y * img.width * 3, (y + 1) * img.width * 3);
      out.set(src, ((y0 + y) * width + x0) * 3);
    }
  };
  blit(a, 0);
  blit(b, a.width + gapPx);
  return encodePng(out, width, height, 3);
}

