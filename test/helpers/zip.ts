/**
 * A tiny zip writer for tests of the zip reader's limits (src/world/assets/zip.ts): APPNOTE 4.3.7
 * local header, 4.3.12 central header, 4.3.16 end record, with every declared field free to lie,
 * and zip bombs built without ever holding what they inflate to.
 */
import * as zlib from "node:zlib";
import { crc32 } from "../../src/world/assets/zip.js";

export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;

export interface RawEntry {
  name: string;
  method: 0 | 8;
  /** The bytes written after the local header (deflate stream for method 8). */
  body: Buffer;
  /** Declared uncompressed size. */
  size: number;
  crc?: number;
  /** Overrides the local header's name length (the name written is still `name`). */
  localNameLength?: number;
  /** Overrides the central directory's local header offset. */
  localHeaderOffset?: number;
}

export interface EndRecord {
  count?: number;
  cdSize?: number;
  cdOffset?: number;
}

export function zipOf(entries: RawEntry[], end: EndRecord = {}): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, "utf8");
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.crc ?? 0, 14);
    local.writeUInt32LE(e.body.length, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(e.localNameLength ?? name.length, 26);
    parts.push(local, name, e.body);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(e.method, 10);
    cd.writeUInt32LE(e.crc ?? 0, 16);
    cd.writeUInt32LE(e.body.length, 20);
    cd.writeUInt32LE(e.size, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(e.localHeaderOffset ?? offset, 42);
    central.push(cd, name);
    offset += 30 + name.length + e.body.length;
  }
  const cdBuf = Buffer.concat(central);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(end.count ?? entries.length, 8);
  eocd.writeUInt16LE(end.count ?? entries.length, 10);
  eocd.writeUInt32LE(end.cdSize ?? cdBuf.length, 12);
  eocd.writeUInt32LE(end.cdOffset ?? offset, 16);
  return Buffer.concat([...parts, cdBuf, eocd]);
}

/** A deflated entry holding `data`, declared honestly. */
export function deflated(name: string, data: Buffer): RawEntry {
  return { name, method: 8, body: zlib.deflateRawSync(data), size: data.length, crc: crc32(data) };
}

/** A stored entry holding `data`. */
export function stored(name: string, data: Buffer): RawEntry {
  return { name, method: 0, body: data, size: data.length, crc: crc32(data) };
}

/**
 * A deflate stream of `mib` MiB of zeros, built without holding them: one MiB deflated with a
 * full flush (non-final blocks, byte-aligned, no back-references across it) repeated, then an
 * empty final block. About 1 KiB per MiB.
 */
export function zeros(mib: number): Buffer {
  const block = zlib.deflateRawSync(Buffer.alloc(MiB), { finishFlush: zlib.constants.Z_FULL_FLUSH });
  return Buffer.concat([...Array<Buffer>(mib).fill(block), zlib.deflateRawSync(Buffer.alloc(0))]);
}

/** A bomb entry: `mib` MiB of zeros, declaring `declared` bytes. */
export function bomb(name: string, mib: number, declared: number): RawEntry {
  return { name, method: 8, body: zeros(mib), size: declared };
}
