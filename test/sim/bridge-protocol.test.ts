/**
 * The bridge protocol (src/sim/bridge) against a small in-memory environment written here: the
 * wire round trip is exact, every misuse gets its documented code, and a broken, hostile or slow
 * server gives the client a clear error (never a crash or a hang).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { encodePng } from "../../src/media/png.js";
import { decodeDepthPng16, depthToPng16 } from "../../src/world/render/index.js";
import { startBridgeServer } from "../../src/sim/bridge/server.js";
import { BridgeFailure, BridgeRejection, checkEnding, connectBridge } from "../../src/sim/bridge/client.js";
import { PROTOCOL, decodeBase64Strict, maxObservationReplyBytes, observationToWire, protocolMajor } from "../../src/sim/bridge/protocol.js";
import { EnvironmentError, VIEW_NAMES, forwardOf, rotationOf, wrapAngle, type EnvEpisode, type EnvInfo, type Environment, type GeodesicPath, type NavAction, type Observation, type StepResult, type Vec3, type ViewImage } from "../../src/sim/types.js";

// ------------------------------------------------------------------------------------------------
// A fake environment: a 2 m square room (x and z in [-1, 1]); FORWARD is refused at the walls.
// ------------------------------------------------------------------------------------------------

const SIDE = 8;
const FAKE_INFO: EnvInfo = {
  simulator: "fake-room",
  forward_step_m: 0.25,
  turn_step_deg: 30,
  max_actions: 6,
  robot: { height_m: 1.41, radius_m: 0.17 },
  camera: { height_m: 1.31, hfov_deg: 90, width: SIDE, height: SIDE, pitch_deg: 0 },
  views: [...VIEW_NAMES],
  depth: true,
};

/** One solid colour per view and a depth of 1.5 m, encoded once. */
async function fakePictures(): Promise<{ rgb: Buffer[]; depth: Buffer }> {
  const colours = [[200, 30, 30], [30, 200, 30], [30, 30, 200], [200, 200, 30]];
  const rgb = await Promise.all(colours.map((c) => encodePng(new Uint8Array(SIDE * SIDE * 3).map((_, i) => c[i % 3]!), SIDE, SIDE, 3)));
  const depth = await depthToPng16({ width: SIDE, height: SIDE, depth: new Float32Array(SIDE * SIDE).fill(1.5) }, 10);
  return { rgb, depth };
}
const PICTURES = await fakePictures();

const inRoom = (x: number, z: number) => Math.abs(x) <= 1 && Math.abs(z) <= 1;

class FakeRoom implements Environment {
  readonly info = FAKE_INFO;
  closed = false;
  private pos: Vec3 = [0, 0, 0];
  private heading = 0;
  private actions = -1;
  private ended = false;
  private scene = "";
  /** Scenes: "room" (normal), "slow" (reset takes 300 ms), "fragile" (FORWARD crashes the simulator). */
  async reset(episode: EnvEpisode, options?: { render?: boolean }): Promise<Observation> {
    if (!["room", "slow", "fragile"].includes(episode.scene_id)) throw new EnvironmentError(`unknown scene ${episode.scene_id}`);
    if (episode.scene_id === "slow") await new Promise((r) => setTimeout(r, 300));
    this.scene = episode.scene_id;
    this.pos = [...episode.start_position];
    this.heading = 2 * Math.atan2(episode.start_rotation[1], episode.start_rotation[3]);
    this.actions = 0;
    this.ended = false;
    return this.observe(false, options?.render ?? true);
  }
  async step(action: NavAction, options?: { render?: boolean }): Promise<StepResult> {
    if (this.actions < 0) throw new EnvironmentError("step before reset");
    if (this.ended) throw new EnvironmentError("step after the end");
    if (this.scene === "fragile" && action === "FORWARD") throw new Error("renderer crashed");
    this.actions++;
    let collided = false;
    if (action === "FORWARD") {
      const [dx, dz] = forwardOf(this.heading);
      const next: Vec3 = [this.pos[0] + dx * 0.25, this.pos[1], this.pos[2] + dz * 0.25];
      if (inRoom(next[0], next[2])) this.pos = next;
      else collided = true;
    } else if (action === "TURN_LEFT") this.heading = wrapAngle(this.heading + Math.PI / 6);
    else if (action === "TURN_RIGHT") this.heading = wrapAngle(this.heading - Math.PI / 6);
    const end = action === "STOP" ? "stop" : this.actions >= this.info.max_actions ? "action-limit" : undefined;
    this.ended = end !== undefined;
    return { observation: this.observe(collided, options?.render ?? true), done: this.ended, ...(end && { end }) };
  }
  async shortestPath(from: Vec3, targets: readonly Vec3[]): Promise<GeodesicPath | null> {
    let best: GeodesicPath | null = null;
    targets.forEach((t, i) => {
      if (!inRoom(t[0], t[2])) return;
      const d = Math.hypot(t[0] - from[0], t[2] - from[2]);
      if (!best || d < best.distance) best = { points: [from, t], distance: d, target: i };
    });
    return best;
  }
  async close(): Promise<void> {
    this.closed = true;
  }
  private observe(collided: boolean, render: boolean): Observation {
    const views: ViewImage[] = render
      ? VIEW_NAMES.map((name, i) => ({ name, mediaType: "image/png", data: PICTURES.rgb[i]!, width: SIDE, height: SIDE, depthPng: PICTURES.depth }))
      : [];
    return { step: this.actions, pose: { position: [...this.pos], rotation: rotationOf(this.heading), heading: this.heading }, collided, views };
  }
}

const EPISODE: EnvEpisode = { episode_id: "e1", scene_id: "room", start_position: [0, 0, 0], start_rotation: [0, 0, 0, 1] };

async function withBridge(run: (url: string, fake: FakeRoom) => Promise<void>, maxRequestBytes?: number): Promise<void> {
  const fake = new FakeRoom();
  const server = await startBridgeServer({ environment: fake, ...(maxRequestBytes && { maxRequestBytes }) });
  try {
    await run(server.url, fake);
  } finally {
    await server.close();
  }
}

// ------------------------------------------------------------------------------------------------
// Raw HTTP, for requests a client would never send
// ------------------------------------------------------------------------------------------------

interface RawReply {
  status: number;
  headers: IncomingMessage["headers"];
  body: string;
}

function raw(url: string, method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}, chunked = false): Promise<RawReply> {
  const target = new URL(path, url);
  return new Promise((resolve, reject) => {
    const length = body === undefined ? {} : chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(Buffer.byteLength(body)) };
    const req = request(target, { method, headers: { ...length, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

const json = { "content-type": "application/json" };
const post = (url: string, path: string, value: unknown) => raw(url, "POST", path, JSON.stringify(value), json);
const errorOf = (reply: RawReply) => (JSON.parse(reply.body) as { error: { code: string; message: string } }).error;

// ------------------------------------------------------------------------------------------------
// Pure helpers
// ------------------------------------------------------------------------------------------------

test("protocolMajor reads spatialprobe-sim/<major>[.<minor>] and nothing else", () => {
  assert.equal(PROTOCOL, "spatialprobe-sim/1");
  assert.equal(protocolMajor("spatialprobe-sim/1"), 1);
  assert.equal(protocolMajor("spatialprobe-sim/1.4"), 1);
  assert.equal(protocolMajor("spatialprobe-sim/2"), 2);
  assert.equal(protocolMajor("spatialprobe-sim/"), null);
  assert.equal(protocolMajor("spatialprobe-sim/1.x"), null);
  assert.equal(protocolMajor("habitat/1"), null);
});

test("maxObservationReplyBytes: 384x384, four views with depth", () => {
  // raw per view 384*384*5 = 737280; *1.5 = 1105920; + 2 pictures * 65536 = 1236992; *4 views *4/3 = 6597290.67 -> 6597291; + 65536.
  assert.equal(maxObservationReplyBytes({ camera: { ...FAKE_INFO.camera, width: 384, height: 384 }, views: [...VIEW_NAMES], depth: true }), 6662827);
  // without depth: 442368 * 1.5 = 663552 + 65536 = 729088; *4 *4/3 = 3888469.33 -> 3888470; + 65536.
  assert.equal(maxObservationReplyBytes({ camera: { ...FAKE_INFO.camera, width: 384, height: 384 }, views: [...VIEW_NAMES], depth: false }), 3954006);
});

test("decodeBase64Strict accepts padded standard base64 only", () => {
  assert.equal(decodeBase64Strict("QUJD", "f").toString(), "ABC");
  assert.equal(decodeBase64Strict("QQ==", "f").toString(), "A");
  assert.throws(() => decodeBase64Strict("QUJ", "f"), /f: not base64 \(length 3/);
  assert.throws(() => decodeBase64Strict("QU=D", "f"), /f: not base64 \(character 2\)/);
  assert.throws(() => decodeBase64Strict("QU-D", "f"), /character 2/);
  assert.throws(() => decodeBase64Strict("", "f"), /length 0/);
});

test("checkEnding: STOP ends with stop, the last allowed action with action-limit", () => {
  assert.equal(checkEnding("FORWARD", 3, 6, false, undefined), null);
  assert.equal(checkEnding("STOP", 3, 6, true, "stop"), null);
  assert.equal(checkEnding("FORWARD", 6, 6, true, "action-limit"), null);
  assert.equal(checkEnding("STOP", 6, 6, true, "stop"), null);
  assert.equal(checkEnding("STOP", 3, 6, false, undefined), "STOP answered with done false");
  assert.equal(checkEnding("FORWARD", 6, 6, false, undefined), "action 6 of at most 6 did not end the episode");
  assert.equal(checkEnding("FORWARD", 2, 6, true, "action-limit"), 'end "action-limit" after 2 of 6 actions');
  assert.equal(checkEnding("TURN_LEFT", 2, 6, true, "stop"), 'end "stop" after TURN_LEFT');
  assert.equal(checkEnding("FORWARD", 2, 6, true, undefined), "done without an end");
});

// ------------------------------------------------------------------------------------------------
// The round trip
// ------------------------------------------------------------------------------------------------

test("the bridge gives exactly what the environment gives: poses, collisions, pictures, ends", async () => {
  await withBridge(async (url) => {
    const env = await connectBridge(url, { timeoutMs: 5000 });
    const direct = new FakeRoom();
    assert.deepEqual(env.info, FAKE_INFO);
    assert.deepEqual(await env.reset(EPISODE), await direct.reset(EPISODE));
    const first = await env.step("TURN_LEFT");
    assert.deepEqual(first, await direct.step("TURN_LEFT"));
    assert.equal(first.observation.pose.heading, Math.PI / 6);
    const second = await env.step("FORWARD");
    assert.deepEqual(second, await direct.step("FORWARD"));
    // forward of heading pi/6 is (-sin, -cos): x = -0.125, z = -cos(pi/6)/4 (to rounding).
    const [x, y, z] = second.observation.pose.position;
    assert.ok(Math.abs(x + 0.125) < 1e-12 && y === 0 && Math.abs(z + Math.sqrt(3) / 8) < 1e-12, `position ${x}, ${y}, ${z}`);
    assert.equal(second.observation.views.length, 4);
    assert.ok(second.observation.views[2]!.data.equals(PICTURES.rgb[2]!));
    assert.ok(second.observation.views[0]!.depthPng!.equals(PICTURES.depth));
    const blind = await env.step("TURN_RIGHT", { render: false });
    assert.deepEqual(blind.observation.views, []);
    assert.equal(blind.observation.pose.heading, 0);
    assert.deepEqual(await env.shortestPath([0, 0, 0], [[5, 0, 5], [0.3, 0, 0.4]]), { points: [[0, 0, 0], [0.3, 0, 0.4]], distance: 0.5, target: 1 });
    assert.equal(await env.shortestPath([0, 0, 0], [[5, 0, 5]]), null);
    assert.equal(await env.shortestPath([0, 0, 0], []), null);
    const stop = await env.step("STOP");
    assert.equal(stop.done, true);
    assert.equal(stop.end, "stop");
    await assert.rejects(env.step("FORWARD"), (e: unknown) => e instanceof EnvironmentError && /after the episode ended/.test((e as Error).message));
    await env.close();
  });
});

test("collisions and the action limit come through: 4 steps to the wall, the 5th collides, the 6th ends", async () => {
  await withBridge(async (url, fake) => {
    const env = await connectBridge(url);
    await env.reset(EPISODE, { render: false });
    const zs: number[] = [];
    const collided: boolean[] = [];
    let last: StepResult | undefined;
    for (let t = 1; t <= 6; t++) {
      last = await env.step("FORWARD", { render: false });
      zs.push(last.observation.pose.position[2]);
      collided.push(last.observation.collided);
      assert.equal(last.observation.step, t);
    }
    assert.deepEqual(zs, [-0.25, -0.5, -0.75, -1, -1, -1]);
    assert.deepEqual(collided, [false, false, false, false, true, true]);
    assert.equal(last!.done, true);
    assert.equal(last!.end, "action-limit");
    await env.close();
    assert.equal(fake.closed, true);
    await env.close(); // a second close is a no-op
  });
});

// ------------------------------------------------------------------------------------------------
// The server's answers to misuse
// ------------------------------------------------------------------------------------------------

test("the server answers every misuse with its code and status", async () => {
  await withBridge(async (url) => {
    const info = await raw(url, "GET", "/info");
    assert.equal(info.status, 200);
    assert.deepEqual(JSON.parse(info.body), { protocol: "spatialprobe-sim/1", info: FAKE_INFO });

    let r = await raw(url, "POST", "/reset", "{not json", json);
    assert.equal(r.status, 400);
    assert.equal(errorOf(r).code, "malformed_json");
    assert.match(r.headers["content-type"]!, /^application\/json/);

    r = await raw(url, "POST", "/reset", "[1, 2]", json);
    assert.deepEqual([r.status, errorOf(r)], [400, { code: "malformed_json", message: "the body is not a JSON object" }]);

    r = await post(url, "/reset", { render: true });
    assert.equal(r.status, 400);
    assert.equal(errorOf(r).code, "invalid_request");
    assert.match(errorOf(r).message, /^episode: /);

    r = await post(url, "/reset", { episode: { ...EPISODE, start_position: [0, 0] } });
    assert.equal(errorOf(r).code, "invalid_request");
    assert.match(errorOf(r).message, /^episode\.start_position: /);

    r = await post(url, "/step", { action: "FORWARD" });
    assert.deepEqual([r.status, errorOf(r).code], [409, "no_episode"]);
    r = await post(url, "/shortest_path", { from: [0, 0, 0], targets: [[1, 0, 0]] });
    assert.deepEqual([r.status, errorOf(r).code], [409, "no_episode"]);

    r = await post(url, "/step", { action: "JUMP" });
    assert.deepEqual([r.status, errorOf(r)], [400, { code: "unknown_action", message: 'unknown action "JUMP"; expected FORWARD, TURN_LEFT, TURN_RIGHT or STOP' }]);
    r = await post(url, "/step", { action: 3 });
    assert.deepEqual([r.status, errorOf(r).code], [400, "invalid_request"]);

    r = await post(url, "/reset", { episode: { ...EPISODE, scene_id: "atlantis" } });
    assert.deepEqual([r.status, errorOf(r)], [400, { code: "rejected", message: "unknown scene atlantis" }]);

    r = await raw(url, "POST", "/reset", JSON.stringify({ episode: EPISODE }), { "content-type": "text/plain" });
    assert.deepEqual([r.status, errorOf(r).code], [415, "unsupported_media_type"]);

    r = await raw(url, "GET", "/teleport");
    assert.deepEqual([r.status, errorOf(r).code], [404, "not_found"]);
    r = await raw(url, "GET", "/step");
    assert.deepEqual([r.status, errorOf(r).code, r.headers.allow], [405, "method_not_allowed", "POST"]);
    r = await raw(url, "POST", "/info", "{}", json);
    assert.deepEqual([r.status, r.headers.allow], [405, "GET"]);

    r = await raw(url, "GET", "/info", undefined, { host: "evil.example:80" });
    assert.deepEqual([r.status, errorOf(r).code], [403, "forbidden_host"]);
    // Headers over Node's 16 KiB never reach the handler: still a JSON error of the protocol's form.
    r = await raw(url, "GET", `/info?${"q".repeat(60_000)}`);
    assert.deepEqual([r.status, errorOf(r)], [431, { code: "headers_too_large", message: "the request line and headers are over 16 KiB" }]);
    r = await raw(url, "GET", "/info");
    assert.equal(r.status, 200, "the server goes on after a refused request");

    r = await post(url, "/reset", { episode: EPISODE, render: false });
    assert.equal(r.status, 200);
    const started = JSON.parse(r.body) as { observation: { step: number; views: unknown[] } };
    assert.deepEqual([started.observation.step, started.observation.views], [0, []]);
    r = await post(url, "/step", { action: "STOP", render: false });
    assert.equal(r.status, 200);
    assert.deepEqual([JSON.parse(r.body).done, JSON.parse(r.body).end], [true, "stop"]);
    r = await post(url, "/step", { action: "FORWARD" });
    assert.deepEqual([r.status, errorOf(r).code], [409, "episode_over"]);

    r = await post(url, "/close", {});
    assert.deepEqual([r.status, JSON.parse(r.body)], [200, { closed: true }]);
    r = await post(url, "/close", {});
    assert.deepEqual([r.status, JSON.parse(r.body)], [200, { closed: true }]);
    r = await post(url, "/reset", { episode: EPISODE });
    assert.deepEqual([r.status, errorOf(r).code], [409, "closed"]);
  });
});

test("request bodies over the limit are refused, declared or streamed", async () => {
  await withBridge(async (url) => {
    const big = JSON.stringify({ from: [0, 0, 0], targets: Array.from({ length: 200 }, () => [1.23456789, 0, 9.87654321]) });
    assert.ok(big.length > 4096);
    let r = await raw(url, "POST", "/shortest_path", big, json);
    assert.deepEqual([r.status, errorOf(r)], [413, { code: "body_too_large", message: `the body has ${big.length} bytes; the limit is 4096` }]);
    assert.equal(r.headers.connection, "close");
    r = await raw(url, "POST", "/shortest_path", big, json, true);
    assert.deepEqual([r.status, errorOf(r)], [413, { code: "body_too_large", message: "the body is over 4096 bytes" }]);
    // The server still serves afterwards.
    r = await raw(url, "GET", "/info");
    assert.equal(r.status, 200);
  }, 4096);
});

test("one environment call at a time: a request during a slow reset is answered busy", async () => {
  await withBridge(async (url) => {
    const slow = post(url, "/reset", { episode: { ...EPISODE, scene_id: "slow" } });
    await new Promise((r) => setTimeout(r, 50));
    const second = await post(url, "/reset", { episode: EPISODE });
    assert.deepEqual([second.status, errorOf(second).code], [409, "busy"]);
    assert.equal((await raw(url, "GET", "/info")).status, 200); // info needs no environment call
    assert.equal((await slow).status, 200);
    assert.equal((await post(url, "/step", { action: "TURN_LEFT", render: false })).status, 200);
  });
});

test("a simulator failure is a 500 that loses the episode; the client reports it and asks for a reset", async () => {
  await withBridge(async (url) => {
    let r = await post(url, "/reset", { episode: { ...EPISODE, scene_id: "fragile" }, render: false });
    assert.equal(r.status, 200);
    r = await post(url, "/step", { action: "FORWARD" });
    assert.deepEqual([r.status, errorOf(r)], [500, { code: "simulator_error", message: "renderer crashed" }]);
    r = await post(url, "/step", { action: "TURN_LEFT" });
    assert.deepEqual([r.status, errorOf(r).code], [409, "no_episode"]);

    const env = await connectBridge(url);
    await env.reset({ ...EPISODE, scene_id: "fragile" }, { render: false });
    await assert.rejects(env.step("FORWARD"), (e: unknown) => {
      assert.ok(e instanceof BridgeFailure && !(e instanceof EnvironmentError));
      assert.deepEqual([e.kind, e.code, e.status], ["server", "simulator_error", 500]);
      assert.match(e.message, /^bridge POST \/step \(127\.0\.0\.1:\d+\): 500 simulator_error: renderer crashed$/);
      return true;
    });
    await assert.rejects(env.step("TURN_LEFT"), (e: unknown) => e instanceof BridgeRejection && e.code === "no_episode" && /state is unknown/.test(e.message));
    await assert.rejects(env.reset({ ...EPISODE, scene_id: "atlantis" }), (e: unknown) => {
      assert.ok(e instanceof BridgeRejection && e instanceof EnvironmentError);
      assert.deepEqual([e.code, e.status], ["rejected", 400]);
      return true;
    });
    await assert.rejects(env.step("FORWARD"), (e: unknown) => e instanceof BridgeRejection && /the last reset did not complete/.test(e.message));
    assert.equal((await env.reset(EPISODE, { render: false })).step, 0);
  });
});

test("the client knows misuse itself: step before reset, and every call after close", async () => {
  await withBridge(async (url) => {
    const env = await connectBridge(url);
    await assert.rejects(env.step("FORWARD"), (e: unknown) => e instanceof BridgeRejection && e.code === "no_episode" && e.message === "step before reset");
    await env.close();
    await assert.rejects(env.reset(EPISODE), (e: unknown) => e instanceof BridgeRejection && e.code === "closed");
    await assert.rejects(env.shortestPath([0, 0, 0], [[0, 0, 1]]), (e: unknown) => e instanceof EnvironmentError);
  });
});

// ------------------------------------------------------------------------------------------------
// Broken, hostile and slow servers
// ------------------------------------------------------------------------------------------------

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A server that answers /info with `info` and everything else with `handler` (after reading the body). */
async function hostile(handler: Handler, infoReply: unknown = { protocol: PROTOCOL, info: FAKE_INFO }): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.url === "/info" && infoReply !== null) return sendRaw(res, 200, JSON.stringify(infoReply));
      handler(req, res, Buffer.concat(chunks).toString("utf8"));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

function sendRaw(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

async function withHostile(handler: Handler, run: (url: string) => Promise<void>, infoReply?: unknown): Promise<void> {
  const server = await hostile(handler, ...(infoReply === undefined ? [] : [infoReply]));
  try {
    await run(server.url);
  } finally {
    await server.close();
  }
}

const failsWith = (kind: string, pattern: RegExp) => (e: unknown) => {
  assert.ok(e instanceof BridgeFailure, `expected a BridgeFailure, got ${String(e)}`);
  assert.equal(e.kind, kind, e.message);
  assert.match(e.message, pattern);
  return true;
};

test("the client refuses another major protocol version and accepts a newer minor one", async () => {
  await withHostile(() => undefined, async (url) => {
    await assert.rejects(connectBridge(url), failsWith("protocol", /the server speaks "spatialprobe-sim\/2"; this client speaks spatialprobe-sim\/1 \(major version 1\)/));
  }, { protocol: "spatialprobe-sim/2", info: { whatever: true } });
  await withHostile(() => undefined, async (url) => {
    await assert.rejects(connectBridge(url), failsWith("protocol", /no protocol field/));
  }, { info: FAKE_INFO });
  await withHostile(() => undefined, async (url) => {
    const env = await connectBridge(url);
    assert.deepEqual(env.info, FAKE_INFO);
  }, { protocol: "spatialprobe-sim/1.7", info: { ...FAKE_INFO, future_field: 1 } });
});

test("a broken /info is a clear bad_reply naming the field", async () => {
  await withHostile(() => undefined, async (url) => {
    await assert.rejects(connectBridge(url), failsWith("bad_reply", /info\.camera\.width: /));
  }, { protocol: PROTOCOL, info: { ...FAKE_INFO, camera: { ...FAKE_INFO.camera, width: 100000 } } });
  await withHostile(() => undefined, async (url) => {
    await assert.rejects(connectBridge(url), failsWith("bad_reply", /info\.views \[left, front\] is not in the order front, left, back, right/));
  }, { protocol: PROTOCOL, info: { ...FAKE_INFO, views: ["left", "front"] } });
  await withHostile((req, res) => sendRaw(res, 200, "<html>hello</html>"), async (url) => {
    await assert.rejects(connectBridge(url), failsWith("bad_reply", /GET \/info .*the reply is not JSON: <html>hello<\/html>/));
  }, null);
});

test("a server that never answers, or trickles its reply, times out", async () => {
  await withHostile(() => undefined, async (url) => {
    const started = Date.now();
    await assert.rejects(connectBridge(url, { timeoutMs: 200 }), failsWith("timeout", /GET \/info .*no complete reply within 200 ms/));
    assert.ok(Date.now() - started < 2000);
  }, null);
  let timer: NodeJS.Timeout | undefined;
  await withHostile((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"observation": ');
    timer = setInterval(() => res.write(" "), 50);
  }, async (url) => {
    const env = await connectBridge(url, { timeoutMs: 300 });
    const started = Date.now();
    await assert.rejects(env.reset(EPISODE), failsWith("timeout", /POST \/reset .*no complete reply within 300 ms/));
    assert.ok(Date.now() - started < 2000);
  });
  clearInterval(timer);
});

test("nobody listening is a network failure", async () => {
  const server = await hostile(() => undefined);
  const url = server.url;
  await server.close();
  await assert.rejects(connectBridge(url, { timeoutMs: 2000 }), failsWith("network", /GET \/info .*ECONNREFUSED/));
});

test("replies over the cap are not read past it, declared or streamed", async () => {
  await withHostile(() => undefined, async (url) => {
    await assert.rejects(connectBridge(url), failsWith("reply_too_large", /GET \/info .*over 65536 bytes/));
  }, { protocol: PROTOCOL, info: FAKE_INFO, padding: "x".repeat(70_000) });
  let written = 0;
  await withHostile((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (written < 64 * 1024 * 1024 && res.write(chunk)) written += chunk.length;
      if (written < 64 * 1024 * 1024) res.once("drain", pump);
      else res.end();
    };
    res.on("error", () => undefined);
    pump();
  }, async (url) => {
    const env = await connectBridge(url, { maxReplyBytes: 100_000 });
    await assert.rejects(env.reset(EPISODE), failsWith("reply_too_large", /POST \/reset .*over 100000 bytes; stopped reading/));
  });
  assert.ok(written < 16 * 1024 * 1024, `the server wrote ${written} bytes before the client hung up`);
});

/** A valid reset reply of the fake room, for a hostile server to spoil. */
async function validResetReply(): Promise<{ observation: ReturnType<typeof observationToWire> }> {
  return { observation: observationToWire(await new FakeRoom().reset(EPISODE)) };
}

test("observations that break the protocol are refused with the reason", async () => {
  const good = await validResetReply();
  const spoil = async (change: (o: typeof good.observation) => void, pattern: RegExp) => {
    const reply = structuredClone(good);
    change(reply.observation);
    await withHostile((req, res) => sendRaw(res, 200, JSON.stringify(reply)), async (url) => {
      const env = await connectBridge(url);
      await assert.rejects(env.reset(EPISODE), failsWith("bad_reply", pattern));
    });
  };
  await spoil((o) => (o.step = 3), /step is 3, expected 0/);
  await spoil((o) => (o.pose.rotation = [0, 0.5, 0, 0.5]), /pose\.rotation is not a unit quaternion/);
  await spoil((o) => (o.pose.heading = 1), /pose\.heading 1 disagrees with pose\.rotation/);
  await spoil((o) => o.views.reverse(), /views are \[right, back, left, front\], expected \[front, left, back, right\]/);
  await spoil((o) => o.views.pop(), /views are \[front, left, back\]/);
  await spoil((o) => (o.views[1]!.data = "@@@@" + o.views[1]!.data.slice(4)), /views\[1\]\.data: not base64 \(character 0\)/);
  await spoil((o) => (o.views[1]!.media_type = "image/jpeg"), /views\[1\]\.data: the bytes are image\/png, media_type says image\/jpeg/);
  await spoil((o) => (o.views[0]!.width = 16), /views\[0\]: 16x8, but info\.camera is 8x8/);
  await spoil((o) => delete o.views[2]!.depth_png, /views\[2\]: no depth_png, but info\.depth is true/);
  await spoil((o) => (o.views[3]!.depth_png = o.views[3]!.data), /views\[3\]\.depth_png: bit depth 8, colour type 2; expected 16-bit greyscale/);
  await spoil((o) => (o.pose.position = [0, Number.NaN, 0]), /observation\.pose\.position\[1\]: /);
  const wrongSize = (await sharp({ create: { width: 9, height: 8, channels: 3, background: "#808080" } }).jpeg().toBuffer()).toString("base64");
  await spoil((o) => Object.assign(o.views[0]!, { media_type: "image/jpeg", data: wrongSize }), /views\[0\]\.data: a 9x8 picture, expected 8x8/);
});

test("a step reply that breaks the protocol leaves the episode unknown until the next reset", async () => {
  const good = await validResetReply();
  let stepReply: unknown = { observation: { ...good.observation, step: 1 }, done: false };
  await withHostile((req, res) => sendRaw(res, 200, JSON.stringify(req.url === "/reset" ? good : stepReply)), async (url) => {
    const env = await connectBridge(url);
    await env.reset(EPISODE);
    stepReply = { observation: { ...good.observation, step: 1 }, done: false };
    await assert.rejects(env.step("STOP"), failsWith("bad_reply", /STOP answered with done false/));
    await assert.rejects(env.step("FORWARD"), (e: unknown) => e instanceof BridgeRejection && /reply broke the protocol/.test(e.message));
    await env.reset(EPISODE);
    stepReply = { observation: { ...good.observation, step: 1 }, done: false, end: null };
    assert.equal((await env.step("FORWARD")).done, false); // end: null is "not ended"
  });
});

test("error replies: the code and message when given, the raw text otherwise, cleaned and cut", async () => {
  const long = `line one\nline\u0000two ${"x".repeat(5000)}`;
  await withHostile((req, res) => {
    if (req.url === "/reset") return sendRaw(res, 418, long);
    sendRaw(res, 503, JSON.stringify({ error: { code: "overloaded", message: "try later" } }));
  }, async (url) => {
    const env = await connectBridge(url);
    await assert.rejects(env.reset(EPISODE), (e: unknown) => {
      assert.ok(e instanceof BridgeRejection);
      assert.equal(e.code, "http_418");
      assert.match(e.message, /: 418 http_418: line one line two x+…$/);
      assert.ok(e.message.length < 600);
      return true;
    });
    await assert.rejects(env.shortestPath([0, 0, 0], [[1, 0, 0]]), (e: unknown) => e instanceof BridgeFailure && e.code === "overloaded" && e.status === 503 && /503 overloaded: try later$/.test(e.message));
  });
});

test("a shortest_path reply naming a target that was not sent is refused", async () => {
  await withHostile((req, res) => sendRaw(res, 200, JSON.stringify({ path: { points: [[0, 0, 0]], distance: 1, target: 5 } })), async (url) => {
    const env = await connectBridge(url);
    await assert.rejects(env.shortestPath([0, 0, 0], [[1, 0, 0], [2, 0, 0]]), failsWith("bad_reply", /target 5 of 2 targets/));
  });
});

// ------------------------------------------------------------------------------------------------
// The Python adapter's protocol layer (tools/habitat/habitat_bridge.py --backend fake)
// ------------------------------------------------------------------------------------------------

const python = spawnSync("python3", ["--version"]).status === 0;

/** Starts the Python bridge on a free port with its fake room; resolves its URL once it listens. */
async function startPythonBridge(): Promise<{ url: string; child: ChildProcess }> {
  const script = fileURLToPath(new URL("../../tools/habitat/habitat_bridge.py", import.meta.url));
  const child = spawn("python3", [script, "--backend", "fake", "--port", "0", "--max-actions", "6"], { stdio: ["ignore", "pipe", "pipe"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`the Python bridge did not start: ${out}`)), 10_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once("exit", (code) => reject(new Error(`the Python bridge exited (${code}): ${out}`)));
  });
  return { url, child };
}

test("the Python adapter speaks the protocol: the same moves as the fake room, pictures the client accepts", { skip: !python && "python3 is not installed" }, async () => {
  const { url, child } = await startPythonBridge();
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  try {
    const env = await connectBridge(url, { timeoutMs: 10_000 });
    assert.deepEqual({ ...env.info, simulator: "" }, { ...FAKE_INFO, simulator: "", camera: { ...FAKE_INFO.camera, height_m: 1.41 } });
    const direct = new FakeRoom();
    const strip = (o: Observation) => ({ ...o, views: o.views.map((v) => v.name) });
    assert.deepEqual(strip(await env.reset(EPISODE)), strip(await direct.reset(EPISODE)));
    for (const action of ["TURN_LEFT", "FORWARD", "TURN_RIGHT", "FORWARD", "FORWARD", "FORWARD"] as const) {
      const [bridged, expected] = [await env.step(action), await direct.step(action)];
      assert.deepEqual({ ...bridged, observation: strip(bridged.observation) }, { ...expected, observation: strip(expected.observation) }, action);
      if (bridged.done) break;
    }
    // The pictures are the Python PNG writer's: the colour of each view and 1500 mm of depth.
    await env.reset(EPISODE);
    const step = await env.step("TURN_LEFT");
    const left = await sharp(step.observation.views[1]!.data).raw().toBuffer();
    assert.deepEqual([...left.subarray(0, 6)], [30, 200, 30, 30, 200, 30]);
    const depth = await decodeDepthPng16(step.observation.views[1]!.depthPng!);
    assert.deepEqual([depth.width, depth.height, depth.millimetres[0], depth.millimetres[63]], [8, 8, 1500, 1500]);
    assert.deepEqual(await env.shortestPath([0, 0, 0], [[3, 0, 0], [0.3, 0, 0.4]]), { points: [[0, 0, 0], [0.3, 0, 0.4]], distance: 0.5, target: 1 });
    await assert.rejects(env.reset({ ...EPISODE, scene_id: "atlantis" }), (e: unknown) => e instanceof BridgeRejection && e.code === "rejected");
    await env.close();
    assert.equal(await exited, 0); // one session per process: it exits after /close
  } finally {
    child.kill();
  }
});
