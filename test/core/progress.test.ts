import assert from "node:assert/strict";
import { test } from "node:test";
import { Progress } from "../../src/core/progress.js";

/** A stand-in stderr that records what is written. */
function sink(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY, write: (s: string) => (chunks.push(s), true) } as unknown as NodeJS.WriteStream };
}

test("without a TTY, progress prints plain lines with done/total, errors, reuse, rate and ETA", () => {
  const { chunks, stream } = sink(false);
  const progress = new Progress("egopath m", 4, stream);
  progress.tick();
  progress.tick({ error: true });
  progress.tick({ cached: true });
  progress.tick();
  progress.finish();
  assert.ok(chunks.every((c) => c.endsWith("\n") && !c.includes("\r")));
  assert.match(chunks.at(-1)!, /^\[egopath m\] 4\/4 done · 1 errors · 1 reused · [0-9.]+\/s · ETA 0s\n$/);
});

test("on a TTY the line is redrawn in place; quiet prints nothing", () => {
  const tty = sink(true);
  const progress = new Progress("x", 2, tty.stream);
  progress.tick();
  progress.finish();
  assert.ok(tty.chunks.every((c) => c.startsWith("\r")));
  assert.ok(tty.chunks.at(-1)!.endsWith("\n"));
  const quiet = sink(false);
  const silent = new Progress("x", 1, quiet.stream, true);
  silent.tick();
  silent.finish();
  assert.deepEqual(quiet.chunks, []);
});
