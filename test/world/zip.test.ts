/**
 * The zip reader's budget (src/world/assets/zip.ts): per-entry and per-archive limits on what
 * entries inflate to, refusals before anything is allocated, inflation that stops as soon as an
 * entry runs past its declared size, and a central directory that cannot make the reader loop or
 * allocate past the file's real size. Hostile archives are built by test/helpers/zip.ts.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import * as zlib from "node:zlib";
import { DEFAULT_ASSETS_DIR, readLibraries } from "../../src/world/assets/catalog.js";
import { ModelLibrary } from "../../src/world/assets/models.js";
import {
  DEFAULT_ZIP_LIMITS,
  ZipArchive,
  ZipError,
  ZipLimitError,
  budgetRefusal,
  crc32,
  deflateBound,
  formatBytes,
} from "../../src/world/assets/zip.js";
import { GiB, MiB, bomb, deflated, stored, zipOf, type RawEntry } from "../helpers/zip.js";

/** assert.throws for a ZipError of exactly this class and message. */
function throwsExactly(fn: () => unknown, kind: typeof ZipError, message: string): void {
  assert.throws(fn, (e: Error) => {
    assert.ok(e instanceof kind, `${e.name}: ${e.message}`);
    assert.equal(e.constructor, kind);
    assert.equal(e.message, message);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------
// Real sizes first (peak RSS is a process-wide high-water mark: measured before other tests run).

test("zip budget, real sizes: an entry declaring 64 MiB that inflates to 1 GiB stops at the limit, memory bounded by it", (t) => {
  const buf = zipOf([bomb("PluginFurnitureCatalog.properties", 1024, 64 * MiB), bomb("huge.obj", 1024, GiB)]);
  assert.ok(buf.length < 2.2 * MiB, `${buf.length} bytes`); // ~1 MB per GiB bomb
  const zip = ZipArchive.fromBuffer(buf, "bomb.sh3f");
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  throwsExactly(
    () => zip.read("PluginFurnitureCatalog.properties"),
    ZipLimitError,
    'bomb.sh3f: entry "PluginFurnitureCatalog.properties" is refused: it inflates past its declared 67108864 bytes (stopped there; the limit is 64 MiB per entry)',
  );
  throwsExactly(
    () => zip.read("huge.obj"),
    ZipLimitError,
    'bomb.sh3f: entry "huge.obj" is refused: it declares 1073741824 bytes uncompressed, over the limit of 64 MiB per entry',
  );
  const seconds = (performance.now() - started) / 1000;
  const peakGrowth = process.resourceUsage().maxRSS * 1024 - rssBefore;
  // Inflating to 1 GiB would need 1 GiB and more; the reader holds at most the declared 64 MiB
  // in zlib's chunks (and the buffers are not joined). Generous bound for allocator slack.
  t.diagnostic(`peak RSS grew by ${(peakGrowth / MiB).toFixed(0)} MiB in ${seconds.toFixed(2)} s`);
  assert.ok(peakGrowth < 256 * MiB, `peak RSS grew by ${(peakGrowth / MiB).toFixed(0)} MiB`);
  assert.ok(seconds < 10, `${seconds.toFixed(2)} s`);
});

// ---------------------------------------------------------------------------------------------
// Pure parts.

test("zip budget: defaults, byte formatting and the refusal rule", () => {
  assert.deepEqual({ ...DEFAULT_ZIP_LIMITS }, { maxEntryBytes: 64 * MiB, maxArchiveBytes: GiB });
  assert.ok(Object.isFrozen(DEFAULT_ZIP_LIMITS));
  assert.equal(formatBytes(64 * MiB), "64 MiB");
  assert.equal(formatBytes(GiB), "1 GiB");
  assert.equal(formatBytes(3 * GiB), "3 GiB");
  assert.equal(formatBytes(1536 * MiB), "1536 MiB");
  assert.equal(formatBytes(1000), "1000 bytes");
  assert.equal(formatBytes(MiB + 1), "1048577 bytes");
  const limits = { maxEntryBytes: 100, maxArchiveBytes: 250 };
  assert.equal(budgetRefusal(100, 150, limits), undefined); // exactly at both limits
  assert.equal(budgetRefusal(101, 0, limits), "it declares 101 bytes uncompressed, over the limit of 100 bytes per entry");
  assert.equal(budgetRefusal(100, 151, limits), "its 100 bytes would bring the bytes read from this archive to 251, over the limit of 250 bytes per archive");
  // The per-entry rule is stated first when both are broken.
  assert.equal(budgetRefusal(300, 0, limits), "it declares 300 bytes uncompressed, over the limit of 100 bytes per entry");
});

test("zip budget: limits must be non-negative integers", () => {
  const buf = zipOf([stored("a", Buffer.from("x"))]);
  assert.throws(() => ZipArchive.fromBuffer(buf, "t", { maxEntryBytes: -1 }), { name: "RangeError", message: "zip limits: maxEntryBytes must be a non-negative integer, got -1" });
  assert.throws(() => ZipArchive.fromBuffer(buf, "t", { maxArchiveBytes: 1.5 }), { name: "RangeError", message: "zip limits: maxArchiveBytes must be a non-negative integer, got 1.5" });
  assert.deepEqual({ ...ZipArchive.fromBuffer(buf, "t", { maxEntryBytes: 5 }).limits }, { maxEntryBytes: 5, maxArchiveBytes: GiB });
});

// ---------------------------------------------------------------------------------------------
// Per entry.

test("zip budget: a declared size over the per-entry limit is refused before its local header is even read", () => {
  const entry = bomb("big.obj", 2, 2 * MiB);
  // The local header offset points at garbage: a reader that looked there first would say so.
  const zip = ZipArchive.fromBuffer(zipOf([{ ...entry, localHeaderOffset: 7 }]), "lib.sh3f", { maxEntryBytes: MiB });
  throwsExactly(() => zip.read("big.obj"), ZipLimitError, 'lib.sh3f: entry "big.obj" is refused: it declares 2097152 bytes uncompressed, over the limit of 1 MiB per entry');
  assert.equal(zip.bytesRead, 0);
  // At the limit it reads.
  const ok = ZipArchive.fromBuffer(zipOf([{ ...bomb("big.obj", 1, MiB), crc: crc32(Buffer.alloc(MiB)) }]), "lib.sh3f", { maxEntryBytes: MiB });
  assert.equal(ok.read("big.obj").length, MiB);
  assert.equal(ok.bytesRead, MiB);
});

test("zip budget: an entry inflating past its declared size stops there, whatever the limit", () => {
  // Deflate data within what the declared sizes allow (deflateBound), inflating far past them.
  const empty = { name: "empty", method: 8 as const, body: zlib.deflateRawSync(Buffer.alloc(100_000)), size: 0 };
  assert.ok(empty.body.length <= deflateBound(0));
  const zip = ZipArchive.fromBuffer(zipOf([bomb("liar.mtl", 1, 1000), empty]), "lib.sh3f");
  throwsExactly(() => zip.read("liar.mtl"), ZipLimitError, 'lib.sh3f: entry "liar.mtl" is refused: it inflates past its declared 1000 bytes (stopped there; the limit is 64 MiB per entry)');
  throwsExactly(() => zip.read("empty"), ZipLimitError, 'lib.sh3f: entry "empty" is refused: it inflates past its declared 0 bytes (stopped there; the limit is 64 MiB per entry)');
});

test("zip budget: compressed bytes are bounded by the declared size too", () => {
  assert.equal(deflateBound(0), 1024);
  assert.equal(deflateBound(64 * MiB), 64 * MiB + 64 * 1024 + 1024);
  // Incompressible data deflates to a little more than itself: within the bound.
  const noise = randomBytes(200_000);
  const honest = deflated("noise.jpg", noise);
  assert.ok(honest.body.length > noise.length);
  assert.deepEqual(ZipArchive.fromBuffer(zipOf([honest])).read("noise.jpg"), noise);
  // 1 GiB of zeros in 1 MB of deflate data, declaring 10 bytes: refused before a byte is read.
  const zip = ZipArchive.fromBuffer(zipOf([{ ...bomb("x", 1024, 10), localHeaderOffset: 7 }]), "lib.sh3f");
  const compressed = zip.get("x")!.compressedSize;
  throwsExactly(() => zip.read("x"), ZipLimitError, `lib.sh3f: entry "x" is refused: its ${compressed} bytes of deflate data are more than 10 bytes deflate to (at most 1035)`);
});

test("zip budget: stored entries count the same as deflated ones", () => {
  const zip = ZipArchive.fromBuffer(zipOf([stored("a.jpg", Buffer.alloc(2000, 7))]), "lib.sh3f", { maxEntryBytes: 1000 });
  throwsExactly(() => zip.read("a.jpg"), ZipLimitError, 'lib.sh3f: entry "a.jpg" is refused: it declares 2000 bytes uncompressed, over the limit of 1000 bytes per entry');
});

// ---------------------------------------------------------------------------------------------
// Per archive.

test("zip budget: the running total of an archive counts each entry once, and refuses the entry that would pass the limit", () => {
  const mib = Buffer.alloc(MiB, 1);
  const zip = ZipArchive.fromBuffer(
    zipOf([deflated("a", mib), deflated("b", mib), deflated("c", mib), stored("d", Buffer.alloc(10))]),
    "lib.sh3f",
    { maxEntryBytes: MiB, maxArchiveBytes: 2 * MiB + 10 },
  );
  assert.deepEqual(zip.read("a"), mib);
  assert.deepEqual(zip.read("b"), mib);
  assert.deepEqual(zip.read("a"), mib); // read again: not counted again
  assert.deepEqual(zip.read(zip.get("b")!), mib);
  assert.equal(zip.bytesRead, 2 * MiB);
  throwsExactly(
    () => zip.read("c"),
    ZipLimitError,
    'lib.sh3f: entry "c" is refused: its 1048576 bytes would bring the bytes read from this archive to 3145728, over the limit of 2097162 bytes per archive',
  );
  assert.equal(zip.bytesRead, 2 * MiB); // a refused entry is not counted
  assert.deepEqual(zip.read("d"), Buffer.alloc(10)); // exactly reaches the limit
  assert.equal(zip.bytesRead, 2 * MiB + 10);
  // A second archive has its own total.
  const again = ZipArchive.fromBuffer(zipOf([deflated("c", mib)]), "other.sh3f", { maxEntryBytes: MiB, maxArchiveBytes: 2 * MiB + 10 });
  assert.deepEqual(again.read("c"), mib);
});

test("zip budget: central records sharing one local header count once each; a sharer declaring more is checked on its own", () => {
  const data = Buffer.alloc(600, 3);
  const shared = ZipArchive.fromBuffer(
    zipOf([deflated("x", data), { ...deflated("y", data), localHeaderOffset: 0 }, { ...bomb("z", 8, 4 * MiB), localHeaderOffset: 0 }]),
    "lib.sh3f",
    { maxEntryBytes: MiB, maxArchiveBytes: 1000 },
  );
  assert.deepEqual(shared.read("x"), data);
  throwsExactly(() => shared.read("y"), ZipLimitError, 'lib.sh3f: entry "y" is refused: its 600 bytes would bring the bytes read from this archive to 1200, over the limit of 1000 bytes per archive');
  throwsExactly(() => shared.read("z"), ZipLimitError, 'lib.sh3f: entry "z" is refused: it declares 4194304 bytes uncompressed, over the limit of 1 MiB per entry');
  assert.equal(shared.bytesRead, 600);
  // Entries are frozen (their declared sizes are what was checked); a caller's copy is counted on each read.
  assert.ok(Object.isFrozen(shared.get("x")));
  const roomy = ZipArchive.fromBuffer(zipOf([deflated("x", data)]), "lib.sh3f", { maxArchiveBytes: 1000 });
  const copy = { ...roomy.get("x")! };
  assert.deepEqual(roomy.read(copy), data);
  throwsExactly(() => roomy.read(copy), ZipLimitError, 'lib.sh3f: entry "x" is refused: its 600 bytes would bring the bytes read from this archive to 1200, over the limit of 1000 bytes per archive');
});

// ---------------------------------------------------------------------------------------------
// The central directory and local headers cannot point the reader past the file.

test("zip structure: an end record's count, offsets and lengths are bounded by the file's real size", () => {
  const eocdOnly = (count: number, cdSize: number, cdOffset: number) => zipOf([], { count, cdSize, cdOffset });
  // 65534 entries claimed by a 22-byte file (65535 is the ZIP64 marker).
  throwsExactly(() => ZipArchive.fromBuffer(eocdOnly(65534, 0, 0), "t.zip"), ZipError, "t.zip: end record claims 65534 entries, but its central directory of 0 bytes holds at most 0");
  throwsExactly(() => ZipArchive.fromBuffer(eocdOnly(65535, 0, 0), "t.zip"), ZipError, "t.zip: ZIP64 archive (not supported)");
  throwsExactly(() => ZipArchive.fromBuffer(Buffer.alloc(10), "t.zip"), ZipError, "t.zip: not a zip file (10 bytes, too short for an end-of-central-directory record)");
  // Central directory offset past the end of the file.
  throwsExactly(() => ZipArchive.fromBuffer(eocdOnly(0, 0, 4_000_000_000), "t.zip"), ZipError, "t.zip: central directory offset 4000000000 lies past its end record (at 0)");
  // A directory size reaching past the end record.
  throwsExactly(() => ZipArchive.fromBuffer(eocdOnly(1, 0xfffffffe, 0), "t.zip"), ZipError, "t.zip: central directory (offset 0, 4294967294 bytes) overlaps its end record");
  // More entries claimed than the directory holds (one real 47-byte record, 1000 claimed).
  const one = zipOf([stored("a", Buffer.from("x"))]);
  const claimed = Buffer.from(one);
  claimed.writeUInt16LE(1000, claimed.length - 22 + 8);
  claimed.writeUInt16LE(1000, claimed.length - 22 + 10);
  throwsExactly(() => ZipArchive.fromBuffer(claimed, "t.zip"), ZipError, "t.zip: end record claims 1000 entries, but its central directory of 47 bytes holds at most 1");
  // A central record's name length running past the directory.
  const longName = Buffer.from(one);
  longName.writeUInt16LE(0xffff, 32 + 28);
  throwsExactly(() => ZipArchive.fromBuffer(longName, "t.zip"), ZipError, "t.zip: central directory entry 1 runs past the directory");
});

test("zip structure: a local header whose name length or offset points outside the file", () => {
  const nameOut = ZipArchive.fromBuffer(zipOf([{ ...stored("a", Buffer.from("x")), localNameLength: 0xffff }]), "t.zip");
  throwsExactly(() => nameOut.read("a"), ZipError, 't.zip: entry "a": local header\'s name and extra field (65535 bytes) run past the end of the archive');
  const offsetOut = ZipArchive.fromBuffer(zipOf([{ ...stored("a", Buffer.from("x")), localHeaderOffset: 0xfffffff0 }]), "t.zip");
  throwsExactly(() => offsetOut.read("a"), ZipError, 't.zip: entry "a": local header lies past the end of the archive');
  // The name length takes the data start to exactly the end of the file: its one byte lies past it.
  const total = zipOf([stored("a", Buffer.from("x"))]).length;
  const dataOut = ZipArchive.fromBuffer(zipOf([{ ...stored("a", Buffer.from("x")), localNameLength: total - 30 }]), "t.zip");
  throwsExactly(() => dataOut.read("a"), ZipError, 't.zip: entry "a": data lies past the end of the archive (truncated file?)');
});

// ---------------------------------------------------------------------------------------------
// Furniture libraries.

const LICENSE = "Creative Commons Zero";
function library(model: RawEntry): Buffer {
  const props = Buffer.from(`id=test\nname=Test\nlicense=${LICENSE}\nname#1=Chair\nwidth#1=50\ndepth#1=50\nheight#1=90\nmodel#1=/chair.obj\n`, "latin1");
  return zipOf([deflated("PluginFurnitureCatalog.properties", props), model]);
}
const CHAIR = Buffer.from("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");

test("furniture libraries: a library refused by the budget stops readLibraries with its message; a model bomb stops ModelLibrary.load", () => {
  const dir = mkdtempSync(join(tmpdir(), "zip-budget-"));
  try {
    const good = join(dir, "a-good.sh3f");
    const bombFile = join(dir, "b-bomb.sh3f");
    writeFileSync(good, library(deflated("chair.obj", CHAIR)));
    const catalogue = readLibraries(dir);
    assert.equal(catalogue.entries.length, 1);
    assert.deepEqual(catalogue.problems, []);
    // A library whose properties file lies: refused, not skipped, though another library is fine.
    writeFileSync(bombFile, zipOf([bomb("PluginFurnitureCatalog.properties", 1, 1000)]));
    throwsExactly(() => readLibraries(dir), ZipLimitError, `${bombFile}: entry "PluginFurnitureCatalog.properties" is refused: it inflates past its declared 1000 bytes (stopped there; the limit is 64 MiB per entry)`);
    // Damaged (not over budget) libraries are still skipped as before.
    writeFileSync(bombFile, Buffer.from("not a zip"));
    assert.deepEqual(readLibraries(dir).problems.map((p) => p.reason), [`${bombFile}: not a zip file (9 bytes, too short for an end-of-central-directory record)`]);
    // A library whose model is the bomb: the catalogue reads (it does not open models), the model does not load.
    rmSync(good);
    writeFileSync(bombFile, library(bomb("chair.obj", 1, CHAIR.length)));
    const models = new ModelLibrary();
    try {
      const entry = readLibraries(dir).entries[0]!;
      throwsExactly(() => models.load(entry), ZipLimitError, `${bombFile}: entry "chair.obj" is refused: it inflates past its declared ${CHAIR.length} bytes (stopped there; the limit is 64 MiB per entry)`);
    } finally {
      models.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("furniture libraries: every entry of every installed Debian library reads within the default limits", () => {
  const files = readdirSync(DEFAULT_ASSETS_DIR).filter((f) => f.endsWith(".sh3f")).sort();
  assert.equal(files.length, 5);
  let largestEntry = 0;
  let largestArchive = 0;
  for (const file of files) {
    const zip = ZipArchive.open(join(DEFAULT_ASSETS_DIR, file));
    try {
      for (const entry of zip.entries) largestEntry = Math.max(largestEntry, zip.read(entry).length);
      largestArchive = Math.max(largestArchive, zip.bytesRead);
    } finally {
      zip.close();
    }
  }
  // The figures DEFAULT_ZIP_LIMITS was chosen from (zip.ts).
  assert.equal(largestEntry, 8_800_086);
  assert.equal(largestArchive, 179_357_583);
  assert.ok(largestEntry * 7 < DEFAULT_ZIP_LIMITS.maxEntryBytes);
  assert.ok(largestArchive * 5 < DEFAULT_ZIP_LIMITS.maxArchiveBytes);
});
