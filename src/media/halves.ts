import sharp from "sharp";

/**
 * Swap the left and right halves of a side-by-side picture (PathEval's flipped variant: the pair
 * image shows Path 2 on the left). An odd width keeps its middle column in the middle.
 */
export async function swapHalves(png: Buffer): Promise<Buffer> {
  const image = sharp(png);
  const { width, height } = await image.metadata();
  if (!width || !height) throw new Error("swapHalves: not a readable image");
  const half = Math.floor(width / 2);
  const left = await sharp(png).extract({ left: 0, top: 0, width: half, height }).png().toBuffer();
  const right = await sharp(png).extract({ left: width - half, top: 0, width: half, height }).png().toBuffer();
  const composites = [
    { input: right, left: 0, top: 0 },
    { input: left, left: width - half, top: 0 },
  ];
  if (width % 2 === 1) {
    const middle = await sharp(png).extract({ left: half, top: 0, width: 1, height }).png().toBuffer();
    composites.push({ input: middle, left: half, top: 0 });
  }
  return sharp({ create: { width, height, channels: 3, background: "#ffffff" } }).composite(composites).png({ compressionLevel: 9 }).toBuffer();
}
