/**
 * Bridge fuzz cases (src/sim/bridge/protocol.ts): requests to every endpoint of a bridge server in
 * front of the built-in simulator, each with one thing extreme: a field of a valid body (each
 * coordinate of a position or rotation) set to each extreme of its kind (extremes.ts), a scene id that climbs out of the data root, a body that is not
 * JSON / too deep / too large / not UTF-8 / of another media type, a method or a route that does
 * not exist, a bad Host header; plus issue 25's known attack, start_position [1e16, 0, 1e16]. The
 * cases that reach the simulator (step, observe, shortest_path) start with a valid reset. /close
 * cases come last (they end the session).
 */
import { extremesFor } from "./extremes.js";
import { fieldNodes, pathText, Raw, replaceAt, toJsonText, type JsonPath } from "./json-tree.js";
import { rngFor } from "./random.js";

export interface BridgeRequest {
  method: string;
  path: string;
  /** The body's text or bytes (JSON unless the case is about the body). */
  body?: string | Buffer;
  /** Headers beside Content-Type: application/json (null removes one). */
  headers?: Record<string, string | null>;
}

export interface BridgeCase {
  id: string;
  /** Reset to the valid episode first (the endpoint needs a running episode). */
  resetFirst: boolean;
  /** Send the request this many times (default 1), each under the time limit. */
  repeat?: number;
  /** Build the request from the valid episode (the worker's) and the canary folder. */
  request: (episode: Record<string, unknown>) => BridgeRequest;
}

const ENDPOINTS = ["/reset", "/step", "/observe", "/shortest_path", "/close"] as const;

/** The valid body of each POST endpoint, for a running episode. */
export function validBody(endpoint: (typeof ENDPOINTS)[number], episode: Record<string, unknown>): Record<string, unknown> {
  const position = episode["start_position"] as number[];
  switch (endpoint) {
    case "/reset":
      return { episode, render: false };
    case "/step":
      return { action: "TURN_LEFT", render: false };
    case "/observe":
      return { render: false };
    case "/shortest_path":
      return { from: position, targets: [[position[0]! + 0.5, position[1]!, position[2]!]] };
    case "/close":
      return {};
  }
}

const post = (path: string, body: string | Buffer, headers?: Record<string, string | null>): BridgeRequest => ({ method: "POST", path, body, ...(headers ? { headers } : {}) });

/** Scene ids that try to leave the data root (houses/<scene_id>/scene.json). */
const SCENE_ATTACKS = ["..", "../..", "../../outside/house", "../../../outside/house", "/etc/passwd", "house_001/../../../outside/house", "house_001\u0000", "%2e%2e", "house_001/.", "x".repeat(1024 * 1024)];

/** Bodies that are wrong as a whole. */
const RAW_BODIES: Array<[string, () => string | Buffer, Record<string, string | null>?]> = [
  ["not JSON", () => "{"],
  ["empty body", () => ""],
  ["JSON array", () => "[]"],
  ["JSON null", () => "null"],
  ["NaN token", () => '{"render": NaN}'],
  ["deep nesting", () => `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`],
  ["deep open nesting", () => `{"a":${"[".repeat(100_000)}`],
  ["2 MiB body", () => `{"pad":"${"x".repeat(2 * 1024 * 1024)}"}`],
  ["invalid UTF-8", () => Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])],
  ["100,000 keys", () => `{${Array.from({ length: 100_000 }, (_, i) => `"k${i}":1`).join(",")}}`],
  ["text/plain", () => "{}", { "Content-Type": "text/plain" }],
  ["no content type", () => "{}", { "Content-Type": null }],
  ["content-length too large", () => "{}", { "Content-Length": "99999999999" }],
];

export function bridgeCases(suiteSeed: number): BridgeCase[] {
  const cases: BridgeCase[] = [];
  const rng = rngFor(suiteSeed, "bridge");
  const later: BridgeCase[] = [];
  for (const endpoint of ENDPOINTS) {
    const list = endpoint === "/close" ? later : cases;
    const resetFirst = endpoint !== "/reset" && endpoint !== "/close";
    const probe = validBody(endpoint, { episode_id: "e", scene_id: "s", start_position: [0, 0, 0], start_rotation: [0, 0, 0, 1] });
    // The fields of the valid body (of a list, one element drawn from the seed).
    for (const node of fieldNodes(probe, (length) => rng.below(length), [], true)) {
      for (const extreme of extremesFor(node)) {
        const where: JsonPath = node.path;
        list.push({
          id: `${endpoint} ${pathText(where)}=${extreme.name}`,
          resetFirst,
          request: (episode) => {
            const body = validBody(endpoint, episode);
            const value = extreme.make({ root: "/nonexistent-bridge-root", canary: "/nonexistent-canary", original: (fieldNodes(body).find((n) => pathText(n.path) === pathText(where)) ?? node).value });
            return post(endpoint, toJsonText(replaceAt(body, where, value)));
          },
        });
      }
    }
    for (const [name, body, headers] of RAW_BODIES) list.push({ id: `${endpoint} body: ${name}`, resetFirst, request: () => post(endpoint, body(), headers) });
  }
  for (const scene of SCENE_ATTACKS) {
    const shown = scene.length > 60 ? `${scene.length} x's` : JSON.stringify(scene);
    cases.push({ id: `/reset episode.scene_id=${shown}`, resetFirst: false, request: (episode) => post("/reset", toJsonText({ episode: { ...episode, scene_id: scene }, render: false })) });
  }
  const farAway = (episode: Record<string, unknown>) => ({ ...episode, start_position: [new Raw("1e16"), 0, new Raw("1e16")] });
  cases.push({ id: "/reset episode.start_position=[1e16, 0, 1e16] (issue 25)", resetFirst: false, request: (episode) => post("/reset", toJsonText({ episode: farAway(episode), render: false })) });
  cases.push({
    id: "/shortest_path from=[1e16, 0, 1e16], targets=[[-1e16, 0, -1e16]]",
    resetFirst: true,
    request: () => post("/shortest_path", toJsonText({ from: [1e16, 0, 1e16], targets: [[-1e16, 0, -1e16]] })),
  });
  cases.push({
    id: "/shortest_path targets=200,000 points",
    resetFirst: true,
    request: (episode) => post("/shortest_path", toJsonText({ from: episode["start_position"], targets: new Array(200_000).fill(episode["start_position"]) })),
  });
  cases.push({ id: "/step 25 times, past the action limit", resetFirst: true, repeat: 25, request: () => post("/step", JSON.stringify({ action: "FORWARD", render: false })) });
  for (const [method, path] of [["GET", "/reset"], ["POST", "/info"], ["PUT", "/step"], ["GET", "/nowhere"], ["GET", "/../../etc/passwd"], ["GET", "/%2e%2e/%2e%2e/etc/passwd"], ["GET", `/info?${"q".repeat(60_000)}`]] as const) {
    cases.push({ id: `${method} ${path.length > 60 ? `${path.slice(0, 40)}... (${path.length} chars)` : path}`, resetFirst: false, request: () => ({ method, path, ...(method === "GET" ? {} : { body: "{}" }) }) });
  }
  cases.push({ id: "GET /info with Host evil.example", resetFirst: false, request: () => ({ method: "GET", path: "/info", headers: { Host: "evil.example" } }) });
  return [...cases, ...later];
}
