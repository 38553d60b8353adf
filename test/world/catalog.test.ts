import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import * as zlib from "node:zlib";
import {
  AssetsNotFoundError,
  CATEGORIES,
  DEFAULT_ASSETS_DIR,
  REQUIRED_CATEGORIES,
  attributionText,
  categorize,
  classifyLicense,
  readLibraries,
  type CatalogEntry,
} from "../../src/world/assets/catalog.js";
import { parseProperties, PropertiesError } from "../../src/world/assets/properties.js";
import { ZipArchive, ZipError, crc32 } from "../../src/world/assets/zip.js";

// ---------------------------------------------------------------------------------------------
// A hand-made zip writer (APPNOTE 4.3.7 / 4.3.12 / 4.3.16), independent of the reader under test.

let table: Uint32Array | undefined;
function refCrc(data: Uint8Array): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (const b of data) c = table[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

interface FakeEntry {
  name: string | Buffer;
  data: Buffer;
  method?: number; // 0 stored, 8 deflate, other: data written as given
  flags?: number;
  crc?: number; // override the stored CRC
  localExtra?: Buffer; // local header extra field (differs from the central one)
}

function makeZip(entries: FakeEntry[], comment = "", opts: { zip64Locator?: boolean } = {}): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = typeof e.name === "string" ? Buffer.from(e.name, "utf8") : e.name;
    const method = e.method ?? 0;
    const body = method === 8 ? zlib.deflateRawSync(e.data) : e.data;
    const crc = e.crc ?? refCrc(e.data);
    const flags = e.flags ?? 0;
    const extra = e.localExtra ?? Buffer.alloc(0);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    // with flag bit 3 the local header carries zeros; sizes are in the central directory
    local.writeUInt32LE(flags & 8 ? 0 : crc, 14);
    local.writeUInt32LE(flags & 8 ? 0 : body.length, 18);
    local.writeUInt32LE(flags & 8 ? 0 : e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(extra.length, 28);
    parts.push(local, name, extra, body);
    if (flags & 8) {
      const dd = Buffer.alloc(16);
      dd.writeUInt32LE(0x08074b50, 0);
      dd.writeUInt32LE(crc, 4);
      dd.writeUInt32LE(body.length, 8);
      dd.writeUInt32LE(e.data.length, 12);
      parts.push(dd);
    }
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(flags, 8);
    cd.writeUInt16LE(method, 10);
    cd.writeUInt32LE(crc, 16);
    cd.writeUInt32LE(body.length, 20);
    cd.writeUInt32LE(e.data.length, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    central.push(cd, name);
    offset += 30 + name.length + extra.length + body.length + (flags & 8 ? 16 : 0);
  }
  const cdBuf = Buffer.concat(central);
  const commentBuf = Buffer.from(comment, "latin1");
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cdBuf.length, 12);
  eocd.writeUInt32LE(offset, 16);
  eocd.writeUInt16LE(commentBuf.length, 20);
  const locator = Buffer.alloc(opts.zip64Locator ? 20 : 0);
  if (opts.zip64Locator) locator.writeUInt32LE(0x07064b50, 0);
  return Buffer.concat([...parts, cdBuf, locator, eocd, commentBuf]);
}

const text = Buffer.from("Hello, zip! ".repeat(50), "utf8");
const binary = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 256));

test("crc32 matches the reference table implementation (and node:zlib's when present)", () => {
  for (const d of [Buffer.alloc(0), Buffer.from("123456789"), binary]) assert.equal(crc32(d), refCrc(d));
  assert.equal(crc32(Buffer.from("123456789")), 0xcbf43926); // the standard check value
});

test("zip: lists entries and reads stored, deflated, empty and directory entries", () => {
  const buf = makeZip(
    [
      { name: "dir/", data: Buffer.alloc(0) },
      { name: "dir/stored.txt", data: text, method: 0 },
      { name: "dir/deflated.bin", data: binary, method: 8, localExtra: Buffer.from("ab\u0000\u0000", "latin1") },
      { name: "empty", data: Buffer.alloc(0), method: 8 },
      { name: "descriptor.txt", data: text, method: 8, flags: 8 },
    ],
    "an archive comment with PK\u0005\u0006 inside",
  );
  const zip = ZipArchive.fromBuffer(buf, "test.zip");
  assert.deepEqual(
    zip.entries.map((e) => [e.name, e.method, e.uncompressedSize, e.isDirectory]),
    [
      ["dir/", 0, 0, true],
      ["dir/stored.txt", 0, text.length, false],
      ["dir/deflated.bin", 8, binary.length, false],
      ["empty", 8, 0, false],
      ["descriptor.txt", 8, text.length, false],
    ],
  );
  assert.ok(zip.entries[2]!.compressedSize < binary.length + 10);
  assert.deepEqual(zip.read("dir/stored.txt"), text);
  assert.deepEqual(zip.read("dir/deflated.bin"), binary);
  assert.deepEqual(zip.read(zip.get("empty")!), Buffer.alloc(0));
  assert.deepEqual(zip.read("descriptor.txt"), text);
  assert.deepEqual(zip.read("dir/"), Buffer.alloc(0));
  assert.equal(zip.has("nope"), false);
  assert.throws(() => zip.read("nope"), (e: Error) => e instanceof ZipError && /no entry named "nope"/.test(e.message));
});

test("zip: reads from a file on disk the same as from memory", () => {
  const dir = mkdtempSync(join(tmpdir(), "zip-test-"));
  try {
    const path = join(dir, "a.zip");
    writeFileSync(path, makeZip([{ name: "x/y.bin", data: binary, method: 8 }]));
    const zip = ZipArchive.open(path);
    try {
      assert.deepEqual(zip.read("x/y.bin"), binary);
    } finally {
      zip.close();
    }
    assert.throws(() => zip.read("x/y.bin"), /closed/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("zip: entry names are untrusted keys, kept verbatim; CP437 without the UTF-8 flag", () => {
  const zip = ZipArchive.fromBuffer(
    makeZip([
      { name: "../../etc/passwd", data: Buffer.from("x") },
      { name: "/abs/path", data: Buffer.from("y") },
      { name: Buffer.from([0x63, 0x61, 0x66, 0x82]), data: Buffer.from("z") }, // "café" in CP437
      { name: "caf\u00e9-utf8", data: Buffer.from("w"), flags: 0x800 },
    ]),
  );
  assert.deepEqual(zip.entries.map((e) => e.name), ["../../etc/passwd", "/abs/path", "caf\u00e9", "caf\u00e9-utf8"]);
  assert.equal(zip.read("../../etc/passwd").toString(), "x");
  assert.equal(zip.read("caf\u00e9").toString(), "z");
  assert.equal(zip.read("caf\u00e9-utf8").toString(), "w");
});

test("zip: clear errors for unsupported or damaged archives", () => {
  const bad = (entries: FakeEntry[], re: RegExp, opts?: { zip64Locator?: boolean }) => {
    const zip = ZipArchive.fromBuffer(makeZip(entries, "", opts), "bad.zip");
    assert.throws(() => zip.read(zip.entries[0]!), (e: Error) => e instanceof ZipError && re.test(e.message), re.source);
  };
  bad([{ name: "b", data: text, method: 12 }], /compression method 12 \(bzip2\); only stored \(0\) and deflate \(8\)/);
  bad([{ name: "e", data: text, flags: 1 }], /encrypted/);
  bad([{ name: "c", data: text, crc: 0x12345678 }], /CRC-32 mismatch/);
  bad([{ name: "d", data: text, method: 8, crc: 0 }], /CRC-32 mismatch/);
  assert.throws(() => ZipArchive.fromBuffer(Buffer.from("not a zip at all, just some text here"), "t"), /no end-of-central-directory/);
  assert.throws(() => ZipArchive.fromBuffer(Buffer.alloc(5), "t"), /too short/);
  assert.throws(() => ZipArchive.fromBuffer(makeZip([{ name: "z", data: text }], "", { zip64Locator: true })), /ZIP64/);
  // Truncated: the data is cut off but the central directory claims it.
  const whole = makeZip([{ name: "t", data: binary, method: 0 }]);
  const cdAt = whole.length - 22 - 46 - 1;
  const truncated = Buffer.concat([whole.subarray(0, 100), whole.subarray(cdAt)]);
  truncated.writeUInt32LE(100, truncated.length - 22 + 16); // central directory offset moved
  const z = ZipArchive.fromBuffer(truncated, "trunc.zip");
  assert.throws(() => z.read("t"), /past the end of the archive|no local file header/);
  // Corrupt deflate stream.
  const corrupt = makeZip([{ name: "k", data: Buffer.from([0xff, 0xff, 0xff, 0xff]), method: 8 }]);
  const zc = ZipArchive.fromBuffer(corrupt);
  corrupt.writeUInt8(0xff, 30 + 1); // first deflate byte: invalid block type
  assert.throws(() => zc.read("k"), /deflate data is corrupt|CRC-32 mismatch|inflated to/);
});

// ---------------------------------------------------------------------------------------------
// Properties.

test("properties: separators, blanks, comments, repeated keys", () => {
  const p = parseProperties(
    [
      "# comment",
      "! also a comment",
      "   ",
      "a=1",
      "b : 2",
      "c 3",
      "d\t=\t 4 ",
      "e==5",
      "f = = 6",
      "g",
      "h=",
      "   i=indented",
      "a=last wins",
      "url=http://x/y#z!w",
      "=empty key",
    ].join("\n"),
  );
  assert.deepEqual(Object.fromEntries(p), {
    a: "last wins",
    b: "2",
    c: "3",
    d: "4 ",
    e: "=5",
    f: "= 6",
    g: "",
    h: "",
    i: "indented",
    url: "http://x/y#z!w",
    "": "empty key",
  });
  assert.deepEqual([...p.keys()].slice(0, 3), ["a", "b", "c"]); // first position kept
});

test("properties: continuations, line endings, escapes", () => {
  const p = parseProperties(
    "fruits = apple, banana, \\\n    pear, \\\r\n\t  cherry\r" +
      "k\\ e\\=y\\:x = v\r\n" +
      "esc=tab\\tnl\\nret\\rff\\fq\\q\\\\ back\n" +
      "uni=\\u00e9\\u20AC\\u0041\n" +
      "two=ends with two backslashes\\\\\n" +
      "next=still separate\n" +
      "# comment \\\n" +
      "after=comment does not continue\n" +
      "cont=line\\\n# not a comment\n" +
      "eof=trailing\\",
  );
  assert.equal(p.get("fruits"), "apple, banana, pear, cherry");
  assert.equal(p.get("k e=y:x"), "v");
  assert.equal(p.get("esc"), "tab\tnl\nret\rff\fqq\\ back");
  assert.equal(p.get("uni"), "\u00e9\u20ac\u0041");
  assert.equal(p.get("two"), "ends with two backslashes\\");
  assert.equal(p.get("next"), "still separate");
  assert.equal(p.get("after"), "comment does not continue");
  assert.equal(p.get("cont"), "line# not a comment");
  assert.equal(p.get("eof"), "trailing");
  assert.throws(() => parseProperties("bad=\\u12G4", { source: "x.properties" }), (e: Error) => e instanceof PropertiesError && /x\.properties:1: malformed/.test(e.message));
});

test("properties: bytes are ISO-8859-1 by default; utf8 and auto on request", () => {
  const latin1 = Buffer.from([0x6c, 0x3d, 0xa9, 0x20, 0xf4, 0xb0]); // l=© ô°
  assert.equal(parseProperties(latin1).get("l"), "\u00a9 \u00f4\u00b0");
  assert.equal(parseProperties(latin1, { encoding: "auto" }).get("l"), "\u00a9 \u00f4\u00b0");
  const utf8 = Buffer.from("l=\u00e9", "utf8");
  assert.equal(parseProperties(utf8).get("l"), "\u00c3\u00a9");
  assert.equal(parseProperties(utf8, { encoding: "auto" }).get("l"), "\u00e9");
  assert.equal(parseProperties(utf8, { encoding: "utf8" }).get("l"), "\u00e9");
});

// ---------------------------------------------------------------------------------------------
// Catalogue: licences, categories, attribution, missing folder.

test("classifyLicense", () => {
  assert.equal(classifyLicense("Public domain"), "CC0");
  assert.equal(classifyLicense("This file is under the Creative Commons Zero (Public Domain)\nlicense"), "CC0");
  assert.equal(classifyLicense("Creative Commons Attribution 3.0 United States license  Copyright \u00a9 2008"), "CC-BY 3.0");
  assert.equal(classifyLicense("http://creativecommons.org/licenses/by/3.0/"), "CC-BY 3.0");
  assert.equal(classifyLicense("Creative Commons Attribution 4.0"), null);
  assert.equal(classifyLicense("GNU GPL"), null);
});

test("categorize: narrow before broad, exclusions", () => {
  const c = (name: string, sourceCategory = "Living room", tags: string[] = []) => categorize({ name, tags, sourceCategory });
  assert.equal(c("Desk lamp", "Lights"), "lamp");
  assert.equal(c("Desk"), "desk");
  assert.equal(c("Coffee table"), "coffee table");
  assert.equal(c("Bedside table", "Bedroom", ["Nightstand"]), "nightstand");
  assert.equal(c("Table"), "table");
  assert.equal(c("Table tennis"), null);
  assert.equal(c("Sink cabinet", "Kitchen"), "sink");
  assert.equal(c("Glass door cabinet", "Kitchen"), "cabinet");
  assert.equal(c("Shower door", "Bathroom"), "shower");
  assert.equal(c("Exterior door", "Doors and windows"), "door");
  assert.equal(c("Window shutter", "Doors and windows"), null);
  assert.equal(c("Toilet brush", "Bathroom"), null);
  assert.equal(c("Toilets unit", "Bathroom"), "toilet");
  assert.equal(c("Hammock", "Exterior", ["Bed"]), null);
  assert.equal(c("Futon couch"), "sofa");
  assert.equal(c("Female", "Characters", ["Human", "Woman", "People"]), "person");
  assert.equal(c("Mannequin male", "Characters", ["Human", "People"]), null);
  assert.equal(c("Ficus", "Exterior", ["Tree", "Outdoor"]), "tree");
  assert.equal(c("Ficus", "Living room", ["Tree", "Plant"]), "plant");
  assert.equal(c("Street lamp", "Lights", ["Outdoor", "Exterior"]), "outdoor lamp");
  assert.equal(c("Wheelchair", "Miscellaneous"), null);
});

function fakeEntry(over: Partial<CatalogEntry>): CatalogEntry {
  return {
    id: "L#x", index: 1, name: "X", library: "L", libraryId: "L", libraryFile: "/x/L.sh3f", license: "CC-BY 3.0",
    licenseUrl: "https://creativecommons.org/licenses/by/3.0/", licenseNotice: "Creative Commons Attribution 3.0 license",
    creator: "Someone", sourceCategory: "Misc", tags: [], category: null, sizeM: { width: 1, depth: 1, height: 1 },
    elevationM: 0, dropOnTopElevationM: 1, dropOnTopDeclared: false, doorOrWindow: false, movable: true,
    modelPath: "x.obj", modelRotation: null, icon: null, properties: {}, ...over,
  };
}

test("attributionText: CC-BY models one by one with creator, library and licence; CC0 briefly; deterministic", () => {
  const a = fakeEntry({ id: "B#bath", name: "Bath", creator: "Jay-Artist", library: "Blend Swap CC-BY" });
  const b = fakeEntry({ id: "S#chair", name: "Chair", creator: "Scopia", library: "Scopia catalog", licenseNotice: "CC BY 3.0 Unported \u00a9 eTeks" });
  const z = fakeEntry({ id: "Z#bed", name: "Bed", creator: "Anon", library: "Blend Swap CC-0", license: "CC0", licenseUrl: "https://creativecommons.org/choose/zero/" });
  const t1 = attributionText([b, z, a, a]);
  const t2 = attributionText([a, z, b]);
  assert.equal(t1, t2);
  assert.match(t1, /CC BY 3\.0\) models: 2/);
  assert.match(t1, /Library: Blend Swap CC-BY \(L\.sh3f\)\nLicence: CC BY 3\.0, https:\/\/creativecommons\.org\/licenses\/by\/3\.0\//);
  assert.match(t1, /- "Bath" \(B#bath\) by Jay-Artist, from Blend Swap CC-BY, licensed CC BY 3\.0/);
  assert.match(t1, /Notice: CC BY 3\.0 Unported \u00a9 eTeks/);
  assert.match(t1, /Public-domain \(CC0\) models: 1\. CC0 requires no attribution/);
  assert.match(t1, /- "Bed" \(Z#bed\) by Anon/);
  assert.ok(t1.indexOf('"Bath"') < t1.indexOf('"Chair"') && t1.indexOf('"Chair"') < t1.indexOf('"Bed"'));
  assert.match(attributionText([]), /No third-party models were used/);
});

test("readLibraries: a folder without .sh3f files gives one clear error naming the apt package and the folder", () => {
  const dir = mkdtempSync(join(tmpdir(), "assets-empty-"));
  try {
    writeFileSync(join(dir, "readme.txt"), "nothing here");
    assert.throws(
      () => readLibraries(dir),
      (e: Error) => e instanceof AssetsNotFoundError && e.message.includes(dir) && e.message.includes("apt-get install sweethome3d-furniture"),
    );
    assert.throws(
      () => readLibraries(join(dir, "missing")),
      (e: Error) => e instanceof AssetsNotFoundError && /does not exist/.test(e.message) && e.message.includes("apt-get install sweethome3d-furniture"),
    );
    // A library we build here: read in metres, -1 drop-on-top means null, absent means height.
    const props = [
      "id=Test#Lib", "name=Test library", "license=Public domain",
      "id#1=Test#a", "name#1=Caf\\u00e9 table", "category#1=Living room", "tags#1=Dining, Dinner",
      "model#1=/a/a.obj", "icon#1=/a.png", "width#1=120", "depth#1=80", "height#1=75", "dropOnTopElevation#1=74.5",
      "doorOrWindow#1=false", "movable#1=true", "creator#1=Me", "modelRotation#1=1 0 0 0 0 1 0 -1 0",
      "id#2=Test#b", "name#2=Lamp", "category#2=Lights", "model#2=/b.obj", "width#2=20", "depth#2=20", "height#2=50",
      "dropOnTopElevation#2=-1", "elevation#2=10",
      "id#3=Test#c", "name#3=Ghost", "category#3=Misc", "model#3=/missing.obj", "width#3=1", "depth#3=1", "height#3=1",
      "id#4=Test#d", "name#4=Plain", "category#4=Misc", "model#4=/b.obj", "width#4=10", "depth#4=10", "height#4=30",
      "name#6=After a gap (not read, as Sweet Home 3D)", "model#6=/b.obj", "width#6=1", "depth#6=1", "height#6=1",
    ].join("\n");
    writeFileSync(
      join(dir, "test.sh3f"),
      makeZip([
        { name: "PluginFurnitureCatalog.properties", data: Buffer.from(props, "latin1"), method: 8 },
        { name: "LICENSE.TXT", data: Buffer.from("Creative Commons Zero (Public Domain)"), method: 0 },
        { name: "a/a.obj", data: Buffer.from("v 0 0 0\n"), method: 8 },
        { name: "a.png", data: Buffer.from("png"), method: 0 },
        { name: "b.obj", data: Buffer.from("v 0 0 0\n"), method: 0 },
      ]),
    );
    const cat = readLibraries(dir);
    assert.equal(cat.libraries.length, 1);
    assert.equal(cat.libraries[0]!.modelCount, 4);
    assert.equal(cat.libraries[0]!.license, "CC0");
    assert.deepEqual(cat.entries.map((e) => e.id), ["Test#a", "Test#b", "Test#d"]);
    assert.deepEqual(cat.problems.map((p) => [p.id, p.reason]), [["Test#c", 'model "/missing.obj" is not in the zip']]);
    const [a, b, d] = cat.entries as [CatalogEntry, CatalogEntry, CatalogEntry];
    assert.equal(a.name, "Caf\u00e9 table");
    assert.equal(a.category, "table");
    assert.deepEqual(a.sizeM, { width: 1.2, depth: 0.8, height: 0.75 });
    assert.equal(a.dropOnTopElevationM, 0.745);
    assert.equal(a.dropOnTopDeclared, true);
    assert.deepEqual(a.modelRotation, [[1, 0, 0], [0, 0, 1], [0, -1, 0]]);
    assert.equal(a.modelPath, "a/a.obj");
    assert.equal(a.icon, "a.png");
    assert.deepEqual(a.tags, ["Dining", "Dinner"]);
    assert.equal(b.dropOnTopElevationM, null);
    assert.equal(b.elevationM, 0.1);
    assert.equal(b.creator, "eTeks"); // Sweet Home 3D's default
    assert.equal(b.icon, null);
    assert.equal(d.dropOnTopElevationM, 0.3);
    assert.equal(d.dropOnTopDeclared, false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------------------------------------
// The installed libraries (Debian's sweethome3d-furniture).

// The README's set-up and .ci/run install the package: without it these tests fail, and
// readLibraries' error names the package to install.

const EXPECTED = {
  "BlendSwap-CC-0.sh3f": { name: "Blend Swap CC-0", count: 175, license: "CC0" },
  "BlendSwap-CC-BY.sh3f": { name: "Blend Swap CC-BY", count: 135, license: "CC-BY 3.0" },
  "KatorLegaz.sh3f": { name: "Kator Legaz catalog", count: 90, license: "CC-BY 3.0" },
  "Reallusion.sh3f": { name: "Reallusion catalog", count: 25, license: "CC-BY 3.0" },
  "Scopia.sh3f": { name: "Scopia catalog", count: 395, license: "CC-BY 3.0" },
} as const;

test("installed catalogue: every declared model, with its model in its zip, positive sizes, the right licence", () => {
  const cat = readLibraries();
  assert.deepEqual(cat.problems, []);
  assert.deepEqual(cat.libraries.map((l) => l.fileName), Object.keys(EXPECTED));
  for (const lib of cat.libraries) {
    const want = EXPECTED[lib.fileName as keyof typeof EXPECTED];
    assert.equal(lib.name, want.name);
    assert.equal(lib.license, want.license, lib.fileName);
    // What the library declares: every name#N key of its properties file, counted independently.
    const zip = ZipArchive.open(lib.file);
    try {
      const raw = zip.read("PluginFurnitureCatalog.properties").toString("latin1");
      const declared = new Set([...raw.matchAll(/^name#(\d+)=/gm)].map((m) => m[1])).size;
      assert.equal(declared, want.count, lib.fileName);
      assert.equal(lib.modelCount, declared, lib.fileName);
      const mine = cat.entries.filter((e) => e.libraryFile === lib.file);
      assert.equal(mine.length, declared, lib.fileName);
      for (const e of mine) {
        assert.ok(zip.has(e.modelPath), `${e.id}: ${e.modelPath} in ${lib.fileName}`);
        assert.ok(e.modelPath.toLowerCase().endsWith(".obj"), e.modelPath);
        assert.ok(e.sizeM.width > 0 && e.sizeM.depth > 0 && e.sizeM.height > 0, e.id);
        assert.ok(e.elevationM >= 0, e.id);
        assert.equal(e.license, want.license);
        assert.equal(e.library, want.name);
        assert.ok(e.creator.length > 0, e.id);
      }
    } finally {
      zip.close();
    }
  }
  assert.equal(cat.entries.length, 820);
  assert.equal(new Set(cat.entries.map((e) => e.id)).size, 820);
});

test("installed catalogue: exact entries", () => {
  const cat = readLibraries();
  const byId = new Map(cat.entries.map((e) => [e.id, e]));
  const bath = byId.get("Blend Swap CC-BY#bath_jay_hardy")!;
  assert.ok(bath);
  assert.equal(bath.name, "Bath");
  assert.equal(bath.library, "Blend Swap CC-BY");
  assert.equal(bath.sourceCategory, "Bathroom");
  assert.equal(bath.category, "bathtub");
  assert.deepEqual(bath.sizeM, { width: 1.801, depth: 0.701, height: 0.651 });
  assert.equal(bath.dropOnTopElevationM, 0.537);
  assert.equal(bath.creator, "Jay-Artist");
  assert.equal(bath.license, "CC-BY 3.0");
  assert.equal(bath.modelPath, "blendswap-cc-by/bath_jay_hardy/bath_jay_hardy.obj");
  assert.equal(bath.icon, "blendswap-cc-by/bath_jay_hardy.png");
  assert.equal(bath.doorOrWindow, false);

  const radiator = byId.get("Blend Swap CC-BY#bathroomRadiator")!;
  assert.equal(radiator.elevationM, 0.7);
  assert.equal(radiator.dropOnTopElevationM, null); // dropOnTopElevation#4=-1
  assert.equal(radiator.category, "radiator");

  const doors = cat.entries.filter((e) => e.doorOrWindow);
  assert.ok(doors.every((e) => e.category === "door" || e.category === "window" || e.name === "Elevator"), doors.map((e) => e.name).join());
  // Non-ASCII names: a raw ISO-8859-1 byte and a \u escape.
  assert.ok(cat.entries.some((e) => e.name === "Frame H\u00f4i An"));
  assert.ok(cat.entries.some((e) => e.name === "Bill 10\u20ac"));
  // A model rotation is a 3x3 matrix.
  const rotated = cat.entries.filter((e) => e.modelRotation);
  assert.ok(rotated.length >= 30);
  for (const e of rotated) assert.ok(e.modelRotation!.length === 3 && e.modelRotation!.every((r) => r.length === 3));
});

test("installed catalogue: every required category has a model, every listed category is used", () => {
  const cat = readLibraries();
  const counts = new Map<string, number>();
  for (const e of cat.entries) if (e.category) counts.set(e.category, (counts.get(e.category) ?? 0) + 1);
  for (const c of REQUIRED_CATEGORIES) assert.ok((counts.get(c) ?? 0) >= 1, `no model for required category ${c}`);
  for (const c of CATEGORIES) assert.ok((counts.get(c) ?? 0) >= 1, `no model for category ${c}`);
  const text = attributionText(cat.entries);
  const ccby = cat.entries.filter((e) => e.license === "CC-BY 3.0").length;
  assert.match(text, new RegExp(`models: ${ccby}\\n`));
  assert.match(text, /Notice: Creative Commons Attribution 3\.0 United States license Copyright \u00a9 2003-2008 Andrew Kator & Jennifer Legaz/);
});

test("installed libraries: every zip entry inflates to its size and CRC (agrees with the files' own checksums)", () => {
  let entries = 0;
  for (const file of Object.keys(EXPECTED)) {
    const zip = ZipArchive.open(join(DEFAULT_ASSETS_DIR, file));
    try {
      for (const e of zip.entries) {
        assert.equal(zip.read(e).length, e.uncompressedSize, `${file}: ${e.name}`);
        entries++;
      }
    } finally {
      zip.close();
    }
  }
  assert.equal(entries, 4313); // python3 zipfile counts the same
});
