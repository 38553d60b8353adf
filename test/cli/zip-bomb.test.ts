/**
 * Issue 25: a furniture library that is a zip bomb, passed with --assets, ends the command at once
 * with one line naming the file, the entry and the limit (exit status 1), whether the bomb
 * declares its gigabyte or lies about it. Each .sh3f file is about 1 MB and inflates to 1 GiB.
 *
 * Needs the built CLI (`npx tsc -p tsconfig.json`).
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { runCli } from "../helpers/cli.js";
import { GiB, MiB, bomb, zeros, zipOf } from "../helpers/zip.js";

/** The deflate data of 1 GiB of zeros, as the helper builds it. */
const BOMB_BYTES = zeros(1024).length;

const TMP = mkdtempSync(path.join(os.tmpdir(), "spatialprobe-zip-bomb-"));
after(() => rmSync(TMP, { recursive: true, force: true }));

/** A folder holding one library, bomb.sh3f, whose properties file is 1 GiB of zeros declaring `declared` bytes. */
function bombFolder(name: string, declared: number): { dir: string; file: string } {
  const dir = path.join(TMP, name);
  mkdirSync(dir);
  const file = path.join(dir, "bomb.sh3f");
  writeFileSync(file, zipOf([bomb("PluginFurnitureCatalog.properties", 1024, declared)]));
  return { dir, file };
}

for (const [label, declared, reason] of [
  ["declares its 1 GiB", GiB, "it declares 1073741824 bytes uncompressed, over the limit of 64 MiB per entry"],
  ["declares 64 MiB (the limit) and inflates to 1 GiB", 64 * MiB, "it inflates past its declared 67108864 bytes (stopped there; the limit is 64 MiB per entry)"],
  ["declares 1000 bytes and inflates to 1 GiB", 1000, `its ${BOMB_BYTES} bytes of deflate data are more than 1000 bytes deflate to (at most 2025)`],
] as const) {
  test(`generate egopath --assets with a library that ${label}: exit 1 within seconds, one line naming the file`, async () => {
    const { dir, file } = bombFolder(label.replace(/\W+/g, "-"), declared);
    const out = path.join(TMP, `out-${declared}`);
    const started = performance.now();
    const result = await runCli(["generate", "egopath", "--out", out, "--count", "1", "--assets", dir]);
    const seconds = (performance.now() - started) / 1000;
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stdout, "");
    assert.equal(result.stderr, `error: ${file}: entry "PluginFurnitureCatalog.properties" is refused: ${reason}\n`);
    assert.ok(seconds < 20, `${seconds.toFixed(1)} s`);
    assert.equal(existsSync(out), false);
  });
}
