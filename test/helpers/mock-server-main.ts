/**
 * Run the mock provider server as its own process (for bench scripts and kill -9 tests):
 *   node --import tsx test/helpers/mock-server-main.ts [--latency-ms 200] [--reply-file f.json] [--port N]
 *     [--echo error-message|error-text|reply|malformed [--echo-cut N]] [--strict]
 * Prints {"url": ..., "port": ..., "pid": ...} as one JSON line on stdout, then serves until killed.
 * The reply file is a JSON map {"<substring>": "<reply>"}: the first key found in the request's
 * system + user text picks the reply; otherwise the default reply is used. `--echo` answers every
 * request with the echo-headers fault (its credential headers and URL, cut to --echo-cut characters).
 * `--strict` rejects what the real APIs reject (strict-rules.ts), each refusal logged as one JSON line on stderr.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { DEFAULT_REPLY, ECHO_TARGETS, startMockServer, type EchoTarget, type Fault } from "./mock-server.js";

const { values } = parseArgs({
  options: {
    "latency-ms": { type: "string", default: "0" },
    "reply-file": { type: "string" },
    port: { type: "string", default: "0" },
    echo: { type: "string" },
    "echo-cut": { type: "string" },
    strict: { type: "boolean", default: false },
  },
});

const echo = values.echo as EchoTarget | undefined;
if (echo !== undefined && !ECHO_TARGETS.includes(echo)) throw new Error(`--echo must be one of ${ECHO_TARGETS.join(", ")}`);
const echoFault: Fault | undefined = echo && {
  type: "echo",
  into: echo,
  ...(values["echo-cut"] !== undefined && { cut: Number(values["echo-cut"]) }),
};

const replies: [string, string][] = values["reply-file"]
  ? Object.entries(JSON.parse(readFileSync(values["reply-file"], "utf8")) as Record<string, string>)
  : [];

const server = await startMockServer({
  port: Number(values.port),
  latencyMs: Number(values["latency-ms"]),
  strict: values.strict,
  onReject: (rejected) => process.stderr.write(JSON.stringify(rejected) + "\n"),
  ...(echoFault && { faults: () => echoFault }),
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
