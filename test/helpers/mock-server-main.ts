/**
 * Run the mock provider server as its own process (for bench scripts and kill -9 tests):
 *   node --import tsx test/helpers/mock-server-main.ts [--latency-ms 200] [--reply-file f.json] [--port N]
 * Prints {"url": ..., "port": ..., "pid": ...} as one JSON line on stdout, then serves until killed.
 * The reply file is a JSON map {"<substring>": "<reply>"}: the first key found in the request's
 * system + user text picks the reply; otherwise the default reply is used.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { DEFAULT_REPLY, startMockServer } from "./mock-server.js";

const { values } = parseArgs({
  options: {
    "latency-ms": { type: "string", default: "0" },
    "reply-file": { type: "string" },
    port: { type: "string", default: "0" },
  },
});

const replies: [string, string][] = values["reply-file"]
  ? Object.entries(JSON.parse(readFileSync(values["reply-file"], "utf8")) as Record<string, string>)
  : [];

const server = await startMockServer({
  port: Number(values.port),
  latencyMs: Number(values["latency-ms"]),
  reply: (req) => {
    const text = [req.system, ...req.texts].join("\n");
    return replies.find(([marker]) => text.includes(marker))?.[1] ?? DEFAULT_REPLY;
  },
});

process.stdout.write(JSON.stringify({ url: server.url, port: server.port, pid: process.pid }) + "\n");

for (const sig of ["SIGINT", "SIGTERM"] as const)
  process.once(sig, () => {
    void server.close().finally(() => process.exit(0));
  });
