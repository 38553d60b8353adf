/**
 * Drawing kit for overlays: a picture on a canvas, marks in fixed colours (rings, crosses, boxes,
 * polylines, labels), frame grids, and the finished PNG with its caption lines.
 *
 * Text in pictures uses DejaVu Sans when the system has it (Debian `fonts-dejavu-core`, which
 * `.ci/run` installs); without a font, labels are skipped and the caption still carries the text.
 */
import { existsSync } from "node:fs";
import { createCanvas, GlobalFonts, loadImage, type Canvas, type SKRSContext2D } from "@napi-rs/canvas";
import sharp from "sharp";
import type { OverlayImage, OverlayOptions } from "../core/benchmark.js";
import { readImageFile } from "../core/file-read.js";
import { dropAlpha, encodePng, PNG_OPTIONS } from "./png.js";

/** The colours every overlay uses for the same meaning. */
export const MARK = Object.freeze({
  correct: "#1a9850",
  wrong: "#d73027",
  missed: "#f28e2b",
  start: "#2563eb",
  reference: "#9ca3af",
  chosen: "#7c3aed",
  text: "#111827",
  paper: "#ffffff",
});

export interface Picture {
  canvas: Canvas;
  ctx: SKRSContext2D;
  width: number;
  height: number;
  /** Canvas pixels per source pixel: multiply source coordinates by this. */
  scale: number;
}

const FONT_FILES = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"];
let fontState: boolean | undefined;

/** Registers DejaVu Sans once; false when it is not installed (labels are then skipped). */
export function hasFont(): boolean {
  if (fontState === undefined) {
    fontState = false;
    for (const file of FONT_FILES) if (existsSync(file) && GlobalFonts.registerFromPath(file, "DejaVu Sans")) fontState = true;
  }
  return fontState;
}

/** The longest side fitted to maxSide (never enlarged). */
export function fitScale(width: number, height: number, maxSide = 1024): number {
  return Math.min(1, maxSide / Math.max(width, height));
}

/** The bytes of an image given as bytes, or as a data file read through one checked descriptor (file-read.ts). */
const imageBytes = (image: string | Buffer): Buffer => (typeof image === "string" ? readImageFile(image) : image);

/** An image file or PNG/JPEG bytes drawn on a new canvas, scaled so its longest side fits maxSide. */
export async function pictureOf(source: string | Buffer, maxSide = 1024): Promise<Picture> {
  const image = await loadImage(imageBytes(source));
  const scale = fitScale(image.width, image.height, maxSide);
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  ctx.drawImage(image, 0, 0, width, height);
  return { canvas, ctx, width, height, scale };
}

/** A blank canvas (white). */
export function blankPicture(width: number, height: number): Picture {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = MARK.paper;
  ctx.fillRect(0, 0, width, height);
  return { canvas, ctx, width, height, scale: 1 };
}

export interface StrokeStyle {
  color: string;
  width?: number;
  dashed?: boolean;
}

function stroke(ctx: SKRSContext2D, style: StrokeStyle): void {
  ctx.strokeStyle = style.color;
  ctx.lineWidth = style.width ?? 3;
  ctx.setLineDash(style.dashed ? [6, 4] : []);
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
}

export function ring(ctx: SKRSContext2D, x: number, y: number, radius: number, style: StrokeStyle): void {
  stroke(ctx, style);
  ctx.beginPath();
  ctx.arc(x, y, radius, 0, Math.PI * 2);
  ctx.stroke();
}

export function cross(ctx: SKRSContext2D, x: number, y: number, half: number, style: StrokeStyle): void {
  stroke(ctx, style);
  ctx.beginPath();
  ctx.moveTo(x - half, y - half);
  ctx.lineTo(x + half, y + half);
  ctx.moveTo(x + half, y - half);
  ctx.lineTo(x - half, y + half);
  ctx.stroke();
}

export function box(ctx: SKRSContext2D, x0: number, y0: number, x1: number, y1: number, style: StrokeStyle): void {
  stroke(ctx, style);
  ctx.strokeRect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
}

export function dot(ctx: SKRSContext2D, x: number, y: number, radius: number, color: string): void {
  ctx.fillStyle = color;
  ctx.beginPath();
  ctx.arc(x, y, radius, 0, Math.PI * 2);
  ctx.fill();
}

/** A polyline through points, with an arrow head at each step's end when `arrows` is set. */
export function polyline(ctx: SKRSContext2D, points: ReadonlyArray<readonly [number, number]>, style: StrokeStyle & { arrows?: boolean }): void {
  if (points.length < 2) return;
  stroke(ctx, style);
  ctx.beginPath();
  ctx.moveTo(points[0]![0], points[0]![1]);
  for (const [x, y] of points.slice(1)) ctx.lineTo(x, y);
  ctx.stroke();
  if (!style.arrows) return;
  ctx.setLineDash([]);
  const head = 4 + 2 * (style.width ?? 3);
  for (let i = 1; i < points.length; i++) {
    const [ax, ay] = points[i - 1]!;
    const [bx, by] = points[i]!;
    const angle = Math.atan2(by - ay, bx - ax);
    ctx.fillStyle = style.color;
    ctx.beginPath();
    ctx.moveTo(bx, by);
    ctx.lineTo(bx - head * Math.cos(angle - 0.45), by - head * Math.sin(angle - 0.45));
    ctx.lineTo(bx - head * Math.cos(angle + 0.45), by - head * Math.sin(angle + 0.45));
    ctx.closePath();
    ctx.fill();
  }
}

/** Text on a filled background at (x, y) = top-left; skipped when no font is installed. */
export function label(ctx: SKRSContext2D, text: string, x: number, y: number, options: { color?: string; background?: string; size?: number } = {}): void {
  if (!hasFont()) return;
  const size = options.size ?? 14;
  ctx.font = `${size}px "DejaVu Sans"`;
  ctx.textBaseline = "top";
  const width = ctx.measureText(text).width;
  ctx.fillStyle = options.background ?? "rgba(255,255,255,0.85)";
  ctx.fillRect(x, y, width + 6, size + 6);
  ctx.fillStyle = options.color ?? MARK.text;
  ctx.fillText(text, x + 3, y + 3);
}

/** The finished overlay: deterministic PNG bytes (sharp, fixed settings) and its caption. */
export async function finish(picture: Picture, caption: string[]): Promise<OverlayImage> {
  const rgba = picture.ctx.getImageData(0, 0, picture.width, picture.height).data;
  const png = await encodePng(dropAlpha(rgba), picture.width, picture.height, 3);
  return { png, width: picture.width, height: picture.height, caption };
}

export interface Tile {
  image: string | Buffer;
  /** Short text above the tile (frame number, option letter). */
  title?: string;
  /** A frame around the tile in one of the MARK colours (e.g. chosen, correct). */
  border?: string;
}

/** Padding of tileGrid around and between tiles (pixels). */
const GRID_PAD = 6;

/**
 * Images in a grid of equal cells (each fitted into cell × cell), with an optional title over and
 * a coloured border around each: frames of a tour, options of a question.
 */
export async function tileGrid(tiles: Tile[], options: { columns?: number; cell?: number } = {}): Promise<Picture> {
  const cell = options.cell ?? 192;
  const columns = Math.max(1, Math.min(options.columns ?? 6, tiles.length));
  const rows = Math.max(1, Math.ceil(tiles.length / columns));
  const titleBand = hasFont() ? 20 : 0;
  const pad = GRID_PAD;
  const images = await Promise.all(tiles.map((tile) => loadImage(imageBytes(tile.image))));
  const sizes = images.map((image) => {
    const scale = fitScale(image.width, image.height, cell);
    return [Math.max(1, Math.round(image.width * scale)), Math.max(1, Math.round(image.height * scale))] as const;
  });
  // Cells as large as the largest fitted tile (small frames are not enlarged).
  const cellW = Math.max(1, ...sizes.map(([w]) => w));
  const cellH = Math.max(1, ...sizes.map(([, h]) => h));
  const picture = blankPicture(columns * (cellW + pad) + pad, rows * (cellH + titleBand + pad) + pad);
  for (const [index, tile] of tiles.entries()) {
    const [w, h] = sizes[index]!;
    const x = pad + (index % columns) * (cellW + pad);
    const y = pad + Math.floor(index / columns) * (cellH + titleBand + pad);
    if (tile.title) label(picture.ctx, tile.title, x, y, { size: 12, background: MARK.paper });
    picture.ctx.drawImage(images[index]!, x, y + titleBand, w, h);
    if (tile.border) box(picture.ctx, x + 2, y + titleBand + 2, x + w - 2, y + titleBand + h - 2, { color: tile.border, width: 4 });
  }
  return picture;
}

/** Largest tile side cellFor gives (pixels). */
const MAX_CELL = 192;
/** Smallest tile side cellFor gives (pixels), before an overlay's final downscale. */
const MIN_CELL = 24;

/** maxSide from overlay options: a positive number, floored, at least 16 pixels; default 1024. */
export function maxSideOf(options: OverlayOptions | undefined): number {
  const value = options?.maxSide;
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.max(16, Math.floor(value)) : 1024;
}

/** Tile side for a row of `columns` tiles: as large as fits a 1024-pixel row (or maxSide when larger), from MIN_CELL to MAX_CELL. */
export function cellFor(columns: number, maxSide: number): number {
  const row = Math.max(1024, maxSide);
  return Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor((row - GRID_PAD) / columns) - GRID_PAD));
}

/** An image enlarged (aspect kept, sides rounded) so its longest side is `cell`; larger images are left to tileGrid. */
export async function enlargeToCell(image: Buffer | string, cell: number): Promise<Buffer | string> {
  let size: { width?: number; height?: number };
  let bytes: Buffer;
  try {
    bytes = imageBytes(image);
    size = await sharp(bytes).metadata();
  } catch (error) {
    throw new Error(`unreadable image${typeof image === "string" ? `: ${image}` : ""}: ${(error as Error).message}`);
  }
  const { width, height } = size;
  if (!width || !height || Math.max(width, height) >= cell) return image;
  const scale = cell / Math.max(width, height);
  return sharp(bytes)
    .resize(Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale)), { fit: "fill", kernel: "lanczos3" })
    .png(PNG_OPTIONS)
    .toBuffer();
}

/** Pictures one below the other, left-aligned, on white. */
export function stackPictures(pictures: Picture[]): Picture {
  const width = Math.max(1, ...pictures.map((p) => p.width));
  const height = Math.max(1, pictures.reduce((sum, p) => sum + p.height, 0));
  const out = blankPicture(width, height);
  let y = 0;
  for (const p of pictures) {
    out.ctx.drawImage(p.canvas, 0, y);
    y += p.height;
  }
  return out;
}

/** The picture scaled down so its longest side is exactly maxSide (the same picture when it fits). */
export function shrinkToSide(picture: Picture, maxSide: number): Picture {
  const longest = Math.max(picture.width, picture.height);
  if (longest <= maxSide) return picture;
  const scale = maxSide / longest;
  // The longest side becomes exactly maxSide; the other is rounded.
  const side = (length: number) => (length === longest ? maxSide : Math.max(1, Math.min(maxSide, Math.round(length * scale))));
  const out = blankPicture(side(picture.width), side(picture.height));
  out.ctx.drawImage(picture.canvas, 0, 0, out.width, out.height);
  return { ...out, scale };
}
