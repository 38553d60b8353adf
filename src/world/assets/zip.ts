/**
 * A small read-only zip reader, enough for Sweet Home 3D furniture libraries (.sh3f files are
 * plain zips): the end-of-central-directory record, the central directory, and one entry's bytes
 * on request, stored (method 0) or deflated (method 8), checked against the entry's CRC-32.
 *
 * Source: PKWARE APPNOTE.TXT 6.3.x, §4.3.7 (local file header), §4.3.12 (central directory file
 * header), §4.3.16 (end of central directory record), §4.4.4 (general purpose flags: bit 0
 * encrypted, bit 3 data descriptor, bit 11 UTF-8 names).
 *
 * Not supported, each with its own error: ZIP64 (none of the installed libraries needs it: the
 * largest is 61 MB with 1,931 entries), multi-disk archives, encryption, and compression methods
 * other than stored and deflate.
 *
 * Entry names are untrusted text: they are only ever used as keys (never as file-system paths),
 * kept verbatim, including names such as `../x` or `/etc/passwd`.
 *
 * Cost: opening reads the tail of the file and the central directory once (linear in its size);
 * each read() reads that entry's local header and data once (linear in the entry's size).
 * Nothing trusts a count, size or offset the archive declares beyond what the file really holds:
 * the end record's entry count must fit in its central directory (46 bytes each), the directory
 * must lie before the end record, names and extra fields must lie inside the file.
 *
 * Budget: what an entry inflates to is bounded by ZipLimits (a zip bomb's 1 MB can declare, or
 * inflate to, gigabytes). A declared size over the per-entry limit, or one that would take the
 * archive's running total (each entry counted once, however often it is read) over the
 * per-archive limit, is refused before anything is read or allocated, and so is deflate data
 * longer than the declared size can take (deflateBound); inflation is capped at the declared size
 * and stops as soon as it runs past it. Peak memory per read() is therefore about
 * twice the per-entry limit at worst (zlib's output chunks plus the joined buffer), never the
 * declared size of a hostile entry. Each refusal is a ZipLimitError naming the archive, the entry
 * and the limit.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import * as zlib from "node:zlib";

export interface ZipEntry {
  /** The entry's name as stored (UTF-8 when flag bit 11 is set, else CP437). */
  name: string;
  /** 0 = stored, 8 = deflate; anything else cannot be read. */
  method: number;
  flags: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  /** Offset of the local file header from the start of the archive. */
  localHeaderOffset: number;
  /** Names ending in "/" are directories (no data). */
  isDirectory: boolean;
}

/** Random access to the archive's bytes (a buffer or an open file). */
interface ByteSource {
  readonly size: number;
  read(position: number, length: number): Buffer;
  close(): void;
}

export class ZipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ZipError";
  }
}

/**
 * An entry refused by the budget (ZipLimits): declared too large, over the archive's total, with
 * more deflate data than its declared size can take, or inflating past its declared size.
 */
export class ZipLimitError extends ZipError {
  constructor(message: string) {
    super(message);
    this.name = "ZipLimitError";
  }
}

/** How many bytes the reader will inflate (stored entries count the same). */
export interface ZipLimits {
  /** Most bytes one entry may hold uncompressed. */
  maxEntryBytes: number;
  /** Most bytes all the entries read from one archive may hold together, each entry counted once. */
  maxArchiveBytes: number;
}

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/**
 * Measured on Debian's sweethome3d-furniture (/usr/share/sweethome3d/furniture, five libraries,
 * 4,313 entries, 383,127,016 bytes uncompressed in all): the largest entry is 8,800,086 bytes
 * (8.4 MiB, Scopia.sh3f scopia/japaneseMaple/japaneseMaple.obj); the largest library total is
 * 179,357,583 bytes (171 MiB, Scopia.sh3f, 1,931 entries; 60.8 MB on disk); the highest ratio of
 * an entry is 11:1. The limits leave a margin of about 7x per entry and 6x per archive.
 */
export const DEFAULT_ZIP_LIMITS: Readonly<ZipLimits> = Object.freeze({ maxEntryBytes: 64 * MiB, maxArchiveBytes: 1 * GiB });

/** "64 MiB", "1 GiB", or "1000 bytes" when not a whole number of either. */
export function formatBytes(n: number): string {
  if (n >= GiB && n % GiB === 0) return `${n / GiB} GiB`;
  if (n >= MiB && n % MiB === 0) return `${n / MiB} MiB`;
  return `${n} bytes`;
}

/**
 * Why an entry declaring `declared` bytes may not be read when `counted` bytes of the archive
 * already have been (undefined: it may). Pure; read() adds the archive and entry names.
 */
export function budgetRefusal(declared: number, counted: number, limits: ZipLimits): string | undefined {
  if (declared > limits.maxEntryBytes)
    return `it declares ${declared} bytes uncompressed, over the limit of ${formatBytes(limits.maxEntryBytes)} per entry`;
  if (counted + declared > limits.maxArchiveBytes)
    return `its ${declared} bytes would bring the bytes read from this archive to ${counted + declared}, over the limit of ${formatBytes(limits.maxArchiveBytes)} per archive`;
  return undefined;
}

/**
 * Most compressed bytes a deflate stream of `n` bytes can take, with room to spare: at worst an
 * encoder falls back to stored blocks, 5 bytes of header per 65,535 bytes (RFC 1951 3.2.4); zlib's
 * deflateBound() allows n + n/4096 + n/16384 + 13. So reading the compressed bytes of an entry
 * costs no more memory than its (bounded) declared size, whatever its compressed size says.
 */
export function deflateBound(n: number): number {
  return n + Math.ceil(n / 1024) + 1024;
}

function checkLimits(limits: ZipLimits): ZipLimits {
  for (const [key, value] of Object.entries(limits))
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`zip limits: ${key} must be a non-negative integer, got ${value}`);
  return limits;
}

const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_LOCAL = 0x04034b50;
const EOCD_SIZE = 22;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;
const MAX_COMMENT = 0xffff;

const METHOD_NAMES: Record<number, string> = {
  1: "shrink",
  6: "implode",
  9: "deflate64",
  12: "bzip2",
  14: "lzma",
  93: "zstd",
  95: "xz",
  98: "ppmd",
  99: "AES encryption",
};

// CP437 code points for bytes 0x80-0xFF (names without the UTF-8 flag; APPNOTE appendix D).
const CP437_HIGH =
  "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0";

function decodeName(bytes: Buffer, utf8: boolean): string {
  if (utf8) return bytes.toString("utf8");
  let ascii = true;
  for (const b of bytes) if (b >= 0x80) { ascii = false; break; }
  if (ascii) return bytes.toString("latin1");
  let s = "";
  for (const b of bytes) s += b < 0x80 ? String.fromCharCode(b) : CP437_HIGH[b - 0x80];
  return s;
}

let crcTable: Uint32Array | undefined;
/** CRC-32 (ISO 3309 / zip), node:zlib's when this Node has it (20.15+), else a table. */
export function crc32(data: Uint8Array): number {
  const native = (zlib as { crc32?: (d: Uint8Array) => number }).crc32;
  if (typeof native === "function") return native(data) >>> 0;
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = crcTable[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function bufferSource(buf: Uint8Array): ByteSource {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  return {
    size: b.length,
    read: (position, length) => b.subarray(position, position + length),
    close: () => {},
  };
}

function fileSource(path: string): ByteSource {
  const fd = openSync(path, "r");
  let open = true;
  try {
    const size = fstatSync(fd).size;
    return {
      size,
      read(position, length) {
        if (!open) throw new ZipError(`${path}: archive is closed`);
        const out = Buffer.alloc(length);
        let done = 0;
        while (done < length) {
          const n = readSync(fd, out, done, length - done, position + done);
          if (n === 0) break;
          done += n;
        }
        return done === length ? out : out.subarray(0, done);
      },
      close() {
        if (open) closeSync(fd);
        open = false;
      },
    };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

export class ZipArchive {
  /** Entries in central-directory order. */
  readonly entries: readonly ZipEntry[];
  readonly limits: Readonly<ZipLimits>;
  private readonly byName = new Map<string, ZipEntry>();
  /**
   * Entries (central records) already counted against the archive limit, and their sum. Two
   * records sharing one local header (an overlapping-entries bomb) count once each.
   */
  private readonly counted = new Set<ZipEntry>();
  private countedBytes = 0;

  private constructor(
    private readonly source: ByteSource,
    /** Used in error messages (the file path, or a label for in-memory archives). */
    readonly label: string,
    limits: Partial<ZipLimits>,
  ) {
    try {
      this.limits = checkLimits({ ...DEFAULT_ZIP_LIMITS, ...limits });
    } catch (err) {
      source.close();
      throw err;
    }
    try {
      this.entries = this.readCentralDirectory();
    } catch (err) {
      source.close();
      throw err;
    }
    // First entry wins when a name repeats (what most readers do; a valid zip has no repeats).
    for (const e of this.entries) if (!this.byName.has(e.name)) this.byName.set(e.name, e);
  }

  /** Open a zip file on disk; call close() when done. Limits default to DEFAULT_ZIP_LIMITS. */
  static open(path: string, limits: Partial<ZipLimits> = {}): ZipArchive {
    return new ZipArchive(fileSource(path), path, limits);
  }

  /** Read a zip held in memory. */
  static fromBuffer(buf: Uint8Array, label = "<buffer>", limits: Partial<ZipLimits> = {}): ZipArchive {
    return new ZipArchive(bufferSource(buf), label, limits);
  }

  /** Bytes counted against the archive limit so far (each entry read once or more counts once). */
  get bytesRead(): number {
    return this.countedBytes;
  }

  close(): void {
    this.source.close();
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  get(name: string): ZipEntry | undefined {
    return this.byName.get(name);
  }

  /** The entry's uncompressed bytes; throws ZipError for a missing entry or anything unreadable. */
  read(nameOrEntry: string | ZipEntry): Buffer {
    const entry = typeof nameOrEntry === "string" ? this.byName.get(nameOrEntry) : nameOrEntry;
    if (!entry) throw new ZipError(`${this.label}: no entry named ${JSON.stringify(nameOrEntry)}`);
    const where = `${this.label}: entry ${JSON.stringify(entry.name)}`;
    if (entry.flags & 0x1) throw new ZipError(`${where} is encrypted (not supported)`);
    if (entry.method !== 0 && entry.method !== 8) {
      const known = METHOD_NAMES[entry.method];
      throw new ZipError(
        `${where} uses compression method ${entry.method}${known ? ` (${known})` : ""}; only stored (0) and deflate (8) are supported`,
      );
    }
    // The budget is settled on the declared size before any byte is read or allocated.
    this.reserve(entry, where);
    if (entry.method === 8 && entry.compressedSize > deflateBound(entry.uncompressedSize))
      throw new ZipLimitError(`${where} is refused: its ${entry.compressedSize} bytes of deflate data are more than ${entry.uncompressedSize} bytes deflate to (at most ${deflateBound(entry.uncompressedSize)})`);
    const size = this.source.size;
    if (entry.localHeaderOffset + LOCAL_SIZE > size) throw new ZipError(`${where}: local header lies past the end of the archive`);
    const head = this.source.read(entry.localHeaderOffset, LOCAL_SIZE);
    if (head.readUInt32LE(0) !== SIG_LOCAL) throw new ZipError(`${where}: no local file header at offset ${entry.localHeaderOffset}`);
    // APPNOTE 4.3.7: the local name and extra field may differ from the central ones; only their lengths matter here.
    const localVariable = head.readUInt16LE(26) + head.readUInt16LE(28);
    const dataStart = entry.localHeaderOffset + LOCAL_SIZE + localVariable;
    if (dataStart > size)
      throw new ZipError(`${where}: local header's name and extra field (${localVariable} bytes) run past the end of the archive`);
    if (dataStart + entry.compressedSize > size) throw new ZipError(`${where}: data lies past the end of the archive (truncated file?)`);
    const raw = this.source.read(dataStart, entry.compressedSize);
    let data: Buffer;
    if (entry.method === 0) {
      if (entry.compressedSize !== entry.uncompressedSize)
        throw new ZipError(`${where}: stored entry with compressed size ${entry.compressedSize} != size ${entry.uncompressedSize}`);
      data = raw;
    } else {
      data = this.inflate(raw, entry.uncompressedSize, where);
      if (data.length !== entry.uncompressedSize)
        throw new ZipError(`${where}: inflated to ${data.length} bytes, the directory says ${entry.uncompressedSize}`);
    }
    const crc = crc32(data);
    if (crc !== entry.crc32)
      throw new ZipError(`${where}: CRC-32 mismatch (computed ${crc.toString(16).padStart(8, "0")}, stored ${entry.crc32.toString(16).padStart(8, "0")})`);
    return data;
  }

  /**
   * Count the entry against the limits once, or refuse it. A second read of the same entry is
   * free: this archive's entries are frozen, so the declared size is the one already checked. A
   * caller's own (unfrozen) entry object could change in between, so it is checked and counted
   * each time.
   */
  private reserve(entry: ZipEntry, where: string): void {
    if (this.counted.has(entry)) return;
    const refusal = budgetRefusal(entry.uncompressedSize, this.countedBytes, this.limits);
    if (refusal) throw new ZipLimitError(`${where} is refused: ${refusal}`);
    if (Object.isFrozen(entry)) this.counted.add(entry);
    this.countedBytes += entry.uncompressedSize;
  }

  /**
   * Inflate a raw deflate stream (APPNOTE 4.4.5 method 8) of `declared` bytes. zlib works in
   * 16 KiB output chunks and stops at the first one that takes the output past maxOutputLength,
   * so a stream that lies about its size costs at most its declared size (already within the
   * limits) and one chunk, however far it would inflate.
   */
  private inflate(raw: Buffer, declared: number, where: string): Buffer {
    try {
      return zlib.inflateRawSync(raw, { maxOutputLength: Math.max(1, declared) });
    } catch (err) {
      if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
        throw new ZipLimitError(`${where} is refused: it inflates past its declared ${declared} bytes (stopped there; the limit is ${formatBytes(this.limits.maxEntryBytes)} per entry)`);
      throw new ZipError(`${where}: deflate data is corrupt (${(err as Error).message})`);
    }
  }

  private readCentralDirectory(): ZipEntry[] {
    const size = this.source.size;
    if (size < EOCD_SIZE) throw new ZipError(`${this.label}: not a zip file (${size} bytes, too short for an end-of-central-directory record)`);
    const tailLength = Math.min(size, EOCD_SIZE + MAX_COMMENT);
    const tailStart = size - tailLength;
    const tail = this.source.read(tailStart, tailLength);
    // The record is the last signature whose comment length reaches exactly the end of the file.
    let at = -1;
    for (let i = tail.length - EOCD_SIZE; i >= 0; i--) {
      if (tail.readUInt32LE(i) === SIG_EOCD && i + EOCD_SIZE + tail.readUInt16LE(i + 20) === tail.length) {
        at = i;
        break;
      }
    }
    if (at < 0) throw new ZipError(`${this.label}: not a zip file (no end-of-central-directory record)`);
    const disk = tail.readUInt16LE(at + 4);
    const cdDisk = tail.readUInt16LE(at + 6);
    const countHere = tail.readUInt16LE(at + 8);
    const count = tail.readUInt16LE(at + 10);
    const cdSize = tail.readUInt32LE(at + 12);
    const cdOffset = tail.readUInt32LE(at + 16);
    const zip64Locator = at >= 20 && tail.readUInt32LE(at - 20) === SIG_ZIP64_LOCATOR;
    if (zip64Locator || count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff)
      throw new ZipError(`${this.label}: ZIP64 archive (not supported)`);
    if (disk !== 0 || cdDisk !== 0 || countHere !== count) throw new ZipError(`${this.label}: multi-disk archive (not supported)`);
    const eocdPos = tailStart + at;
    // APPNOTE 4.3.6: the central directory comes before the end record. Every bound below is on
    // the file's real bytes, so a hostile end record cannot make the reader loop or allocate more.
    if (cdOffset > eocdPos) throw new ZipError(`${this.label}: central directory offset ${cdOffset} lies past its end record (at ${eocdPos})`);
    if (cdOffset + cdSize > eocdPos) throw new ZipError(`${this.label}: central directory (offset ${cdOffset}, ${cdSize} bytes) overlaps its end record`);
    if (count * CENTRAL_SIZE > cdSize)
      throw new ZipError(`${this.label}: end record claims ${count} entries, but its central directory of ${cdSize} bytes holds at most ${Math.floor(cdSize / CENTRAL_SIZE)}`);
    const cd = this.source.read(cdOffset, cdSize);
    const entries: ZipEntry[] = [];
    let p = 0;
    for (let n = 0; n < count; n++) {
      if (p + CENTRAL_SIZE > cd.length || cd.readUInt32LE(p) !== SIG_CENTRAL)
        throw new ZipError(`${this.label}: central directory entry ${n + 1} of ${count} is missing or corrupt`);
      const flags = cd.readUInt16LE(p + 8);
      const nameLength = cd.readUInt16LE(p + 28);
      const extraLength = cd.readUInt16LE(p + 30);
      const commentLength = cd.readUInt16LE(p + 32);
      const next = p + CENTRAL_SIZE + nameLength + extraLength + commentLength;
      if (next > cd.length) throw new ZipError(`${this.label}: central directory entry ${n + 1} runs past the directory`);
      const name = decodeName(cd.subarray(p + CENTRAL_SIZE, p + CENTRAL_SIZE + nameLength), (flags & 0x800) !== 0);
      const compressedSize = cd.readUInt32LE(p + 20);
      const uncompressedSize = cd.readUInt32LE(p + 24);
      const localHeaderOffset = cd.readUInt32LE(p + 42);
      if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff || localHeaderOffset === 0xffffffff)
        throw new ZipError(`${this.label}: entry ${JSON.stringify(name)} needs ZIP64 (not supported)`);
      entries.push(Object.freeze({
        name,
        method: cd.readUInt16LE(p + 10),
        flags,
        crc32: cd.readUInt32LE(p + 16),
        compressedSize,
        uncompressedSize,
        localHeaderOffset,
        isDirectory: name.endsWith("/"),
      }));
      p = next;
    }
    return entries;
  }
}
