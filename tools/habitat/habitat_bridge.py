#!/usr/bin/env python3
"""A spatialprobe-sim/1 bridge server on habitat-sim (docs/bridge-protocol.md).

It lets spatialprobe's agents and navigation loop run the released VCN-Bench episodes in
Habitat-sim on Matterport3D scenes: spatialprobe connects to it with `connectBridge(url)`.

    python3 habitat_bridge.py --scene-dir /data/scene_datasets/mp3d [--port 8701]
    python3 habitat_bridge.py --self-test          # the pure parts, without habitat-sim
    python3 habitat_bridge.py --backend fake       # the protocol over a fake room (tests)

The robot is VCN-Bench's (App. C.2): Hello Robot Stretch, 1.41 m tall, base radius 0.17 m;
FORWARD 0.25 m, turns of 30 degrees, STOP, at most 1,000 actions (Sec. 3.1). Four views (front,
left, back, right) come from four cameras on the robot turned by 0, +90, 180 and -90 degrees,
RGB and depth at 384 x 384 with a 90-degree horizontal field of view by default.

One session per process: the process exits after POST /close. All simulator calls run on one
worker thread (habitat-sim's OpenGL context belongs to the thread that made it); a request that
needs the simulator while another one is being served is answered 409 busy.

Written against habitat-sim's documented Python API (0.3.x); it could not be run where it was
written (no habitat-sim, no Matterport3D there): see README.md. Dependencies: habitat_sim and
numpy; Pillow only for --image-format jpeg. The self-test needs the standard library only.
"""

from __future__ import annotations

import argparse
import base64
import concurrent.futures
import http.server
import io
import json
import math
import os
import struct
import sys
import tempfile
import threading
import traceback
import urllib.parse
import zlib

PROTOCOL = "spatialprobe-sim/1"
MAX_REQUEST_BYTES = 1024 * 1024
VIEW_NAMES = ("front", "left", "back", "right")
# Offset of each view from the heading, radians; left is counter-clockwise seen from above.
VIEW_OFFSETS = {"front": 0.0, "left": math.pi / 2, "back": math.pi, "right": -math.pi / 2}
ACTIONS = ("FORWARD", "TURN_LEFT", "TURN_RIGHT", "STOP")
HABITAT_ACTIONS = {"FORWARD": "move_forward", "TURN_LEFT": "turn_left", "TURN_RIGHT": "turn_right"}

ERROR_STATUS = {
    "malformed_json": 400,
    "invalid_request": 400,
    "unknown_action": 400,
    "rejected": 400,
    "forbidden_host": 403,
    "not_found": 404,
    "method_not_allowed": 405,
    "no_episode": 409,
    "episode_over": 409,
    "busy": 409,
    "closed": 409,
    "body_too_large": 413,
    "unsupported_media_type": 415,
    "simulator_error": 500,
}
ENDPOINTS = {"/info": "GET", "/reset": "POST", "/step": "POST", "/observe": "POST", "/shortest_path": "POST", "/close": "POST"}
MESSAGE_CHARS = 1000


class Refusal(Exception):
    """A request answered with an error reply {error: {code, message}}."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


# ------------------------------------------------------------------------------------------------
# Pure helpers: angles, request checks, pictures, JSON
# ------------------------------------------------------------------------------------------------


def wrap_angle(a):
    """The angle in (-pi, pi]."""
    d = math.fmod(a, 2 * math.pi)
    if d > math.pi:
        d -= 2 * math.pi
    if d <= -math.pi:
        d += 2 * math.pi
    return d


def heading_of(rotation):
    """Heading of a quaternion [x, y, z, w] about +y: 2 atan2(q_y, q_w), counter-clockwise from above, 0 facing -z."""
    return wrap_angle(2 * math.atan2(rotation[1], rotation[3]))


def rotation_of(heading):
    """The quaternion [x, y, z, w] turning the identity (facing -z) by `heading` about +y."""
    return [0.0, math.sin(heading / 2), 0.0, math.cos(heading / 2)]


def forward_of(heading):
    """The floor direction (x, z) a heading faces: (-sin h, -cos h)."""
    return (-math.sin(heading), -math.cos(heading))


def normalised(q):
    norm = math.sqrt(sum(c * c for c in q))
    if not norm > 1e-9:
        raise Refusal("rejected", "start_rotation is a zero quaternion")
    return [c / norm for c in q]


def pose_json(position, rotation):
    """The wire pose: position, unit quaternion [x, y, z, w] and its heading, as plain floats."""
    q = normalised([float(c) for c in rotation])
    return {"position": [float(c) for c in position], "rotation": q, "heading": heading_of(q)}


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def check_vec(value, n, field):
    if not (isinstance(value, list) and len(value) == n and all(is_number(v) for v in value)):
        raise Refusal("invalid_request", "%s: expected %d finite numbers" % (field, n))
    return [float(v) for v in value]


def check_string(value, field, max_length=1000):
    if not (isinstance(value, str) and 1 <= len(value) <= max_length):
        raise Refusal("invalid_request", "%s: expected a string of 1-%d characters" % (field, max_length))
    return value


def check_render(body):
    render = body.get("render", True)
    if not isinstance(render, bool):
        raise Refusal("invalid_request", "render: expected a boolean")
    return render


def check_reset(body):
    episode = body.get("episode")
    if not isinstance(episode, dict):
        raise Refusal("invalid_request", "episode: expected an object")
    return {
        "episode_id": check_string(episode.get("episode_id"), "episode.episode_id"),
        "scene_id": check_string(episode.get("scene_id"), "episode.scene_id"),
        "start_position": check_vec(episode.get("start_position"), 3, "episode.start_position"),
        "start_rotation": check_vec(episode.get("start_rotation"), 4, "episode.start_rotation"),
    }, check_render(body)


def check_step(body):
    action = body.get("action")
    if not (isinstance(action, str) and len(action) <= 100):
        raise Refusal("invalid_request", "action: expected a string")
    if action not in ACTIONS:
        raise Refusal("unknown_action", "unknown action %s; expected FORWARD, TURN_LEFT, TURN_RIGHT or STOP" % json.dumps(action))
    return action, check_render(body)


def check_shortest_path(body):
    start = check_vec(body.get("from"), 3, "from")
    targets = body.get("targets")
    if not (isinstance(targets, list) and targets):
        raise Refusal("invalid_request", "targets: expected at least one point")
    return start, [check_vec(t, 3, "targets[%d]" % i) for i, t in enumerate(targets)]


def episode_end(action, t, max_actions):
    """How the t-th action ends the episode (Sec. 3.1): STOP ends it, and so does the max_actions-th action."""
    if action == "STOP":
        return "stop"
    if t >= max_actions:
        return "action-limit"
    return None


def parse_json_object(body):
    """The request body as a JSON object; NaN, infinities, bad UTF-8 and deep nesting are malformed."""

    def no_constants(name):
        raise ValueError("%s is not JSON" % name)

    try:
        value = json.loads(body.decode("utf-8"), parse_constant=no_constants)
    except (ValueError, RecursionError) as error:
        raise Refusal("malformed_json", "the body is not JSON: %s" % str(error)[:200])
    if not isinstance(value, dict):
        raise Refusal("malformed_json", "the body is not a JSON object")
    return value


def dump_json(value):
    return json.dumps(value, separators=(",", ":"), allow_nan=False).encode("utf-8")


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bytes(width, height, pixels, channels, bit_depth=8):
    """A PNG (ISO/IEC 15948) of row-major pixels: channels 1 (grey) or 3 (RGB), bit depth 8 or 16
    (16-bit samples big-endian), filter 0 on every row. Standard library only."""
    colour_type = {1: 0, 3: 2}[channels]
    row_bytes = width * channels * bit_depth // 8
    if len(pixels) != row_bytes * height:
        raise ValueError("png_bytes: %d bytes for %dx%dx%d at %d bits" % (len(pixels), width, height, channels, bit_depth))
    filtered = b"".join(b"\x00" + pixels[r * row_bytes:(r + 1) * row_bytes] for r in range(height))
    header = struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", zlib.compress(filtered, 6)) + png_chunk(b"IEND", b"")


def depth_millimetres_bytes(depth_m):
    """Depth in metres (a numpy array) as big-endian 16-bit millimetres, 0 where nothing was hit or beyond 65.535 m."""
    import numpy as np

    d = np.asarray(depth_m, dtype=np.float64)
    mm = np.where((d > 0) & (d <= 65.535), np.rint(d * 1000.0), 0)
    return mm.astype(">u2").tobytes()


def wire_view(name, media_type, data, width, height, depth_png=None):
    view = {"name": name, "media_type": media_type, "width": width, "height": height, "data": base64.b64encode(data).decode("ascii")}
    if depth_png is not None:
        view["depth_png"] = base64.b64encode(depth_png).decode("ascii")
    return view


def resolve_scene(scene_dir, scene_id):
    """The .glb file of a scene id under scene_dir: "mp3d/X/X.glb", "X/X.glb", "X.glb" or "X".
    Absolute ids, ".." and anything resolving outside scene_dir are refused."""
    parts = scene_id.replace("\\", "/").split("/")
    if scene_id.startswith("/") or ".." in parts or "" in parts or "\x00" in scene_id:
        raise Refusal("rejected", "scene_id %s is not a relative scene path" % json.dumps(scene_id))
    if parts[-1].endswith(".glb"):
        candidates = ["/".join(parts), "/".join(parts[-2:]), parts[-1]]
    else:
        candidates = ["%s/%s.glb" % (scene_id, parts[-1]), scene_id + ".glb"]
    root = os.path.realpath(scene_dir)
    for candidate in candidates:
        path = os.path.realpath(os.path.join(root, candidate))
        if path.startswith(root + os.sep) and os.path.isfile(path):
            return path
    raise Refusal("rejected", "no scene %s under %s (tried %s)" % (json.dumps(scene_id), scene_dir, ", ".join(candidates)))


LOOPBACK_BINDS = ("127.0.0.1", "localhost", "::1")


def host_allowed(host_headers, bind_host, port):
    """A loopback server answers one Host header naming a loopback address and its port (no DNS rebinding)."""
    if len(host_headers) != 1:
        return False
    if bind_host not in LOOPBACK_BINDS and not bind_host.startswith("127."):
        return True
    allowed = {"127.0.0.1:%d" % port, "localhost:%d" % port, "[::1]:%d" % port, "%s:%d" % (bind_host, port)}
    return host_headers[0].strip().lower() in allowed


def read_chunked(stream, limit):
    """A chunked request body (RFC 9112 Sec. 7.1), refused past `limit` bytes."""
    body = bytearray()
    while True:
        line = stream.readline(1024)
        try:
            size = int(line.split(b";")[0].strip(), 16)
        except ValueError:
            raise Refusal("malformed_json", "bad chunk size line")
        if size == 0:
            while stream.readline(1024) not in (b"\r\n", b"\n", b""):
                pass
            return bytes(body)
        if len(body) + size > limit:
            raise Refusal("body_too_large", "the body is over %d bytes" % limit)
        body += stream.read(size)
        stream.readline(1024)


# ------------------------------------------------------------------------------------------------
# The session: the protocol's state machine around a backend
# ------------------------------------------------------------------------------------------------


class Session:
    """One session over a backend (info(), reset(episode, render), act(action) -> collided,
    observe(render) -> views, pose() -> (position, rotation), shortest_path(from, targets), close()).
    The session counts the actions and decides the episode's end; the backend only moves and
    renders. Every backend call runs on one worker thread."""

    def __init__(self, backend):
        self.backend = backend
        self.state = "idle"  # idle | running | over | closed
        self.actions = 0
        self.lock = threading.Lock()
        self.worker = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="simulator")
        self.info = self.on_worker(backend.info)

    def on_worker(self, work, *args):
        return self.worker.submit(work, *args).result()

    def exclusive(self, work, *args):
        if not self.lock.acquire(blocking=False):
            raise Refusal("busy", "another request is being served; this server runs one simulator call at a time")
        try:
            return self.on_worker(work, *args)
        finally:
            self.lock.release()

    def require_open(self):
        if self.state == "closed":
            raise Refusal("closed", "the session was closed")

    def require_episode(self):
        self.require_open()
        if self.state == "idle":
            raise Refusal("no_episode", "no episode: POST /reset first")

    def failure(self, error, ends_episode):
        if isinstance(error, Refusal):
            return error
        if ends_episode:
            self.state = "idle"
        return Refusal("simulator_error", "%s: %s" % (type(error).__name__, error))

    def observation(self, collided, render):
        position, rotation = self.backend.pose()
        return {"step": self.actions, "pose": pose_json(position, rotation), "collided": bool(collided), "views": self.backend.observe() if render else []}

    def reset(self, body):
        episode, render = check_reset(body)

        def work():
            self.require_open()
            self.state = "idle"
            try:
                self.backend.reset(episode)
                self.actions = 0
                self.collided = False
                observation = self.observation(False, render)
            except Exception as error:
                raise self.failure(error, True)
            self.state = "running"
            return {"observation": observation}

        return self.exclusive(work)

    def step(self, body):
        action, render = check_step(body)

        def work():
            self.require_episode()
            if self.state == "over":
                raise Refusal("episode_over", "the episode has ended; POST /reset to start another")
            try:
                collided = self.backend.act(action) if action != "STOP" else False
                self.collided = collided
                self.actions += 1
                end = episode_end(action, self.actions, self.info["max_actions"])
                observation = self.observation(collided, render)
            except Exception as error:
                raise self.failure(error, True)
            if end is not None:
                self.state = "over"
            return {"observation": observation, "done": end is not None, "end": end}

        return self.exclusive(work)

    def observe(self, body):
        """The current observation again (same step, pose and collided flag), without acting."""
        render = body.get("render", True)
        if not isinstance(render, bool):
            raise Refusal("invalid_request", "render: expected a boolean")

        def work():
            self.require_episode()
            try:
                return {"observation": self.observation(getattr(self, "collided", False), render)}
            except Exception as error:
                raise self.failure(error, False)

        return self.exclusive(work)

    def shortest_path(self, body):
        start, targets = check_shortest_path(body)

        def work():
            self.require_episode()
            try:
                return {"path": self.backend.shortest_path(start, targets)}
            except Exception as error:
                raise self.failure(error, False)

        return self.exclusive(work)

    def close(self, body):
        def work():
            if self.state == "closed":
                return {"closed": True}
            self.state = "closed"
            try:
                self.backend.close()
            except Exception as error:
                raise Refusal("simulator_error", "closing the simulator failed: %s" % error)
            return {"closed": True}

        return self.exclusive(work)


# ------------------------------------------------------------------------------------------------
# HTTP
# ------------------------------------------------------------------------------------------------


def make_handler(session, bind_host, max_request_bytes, on_closed):
    routes = {"/reset": session.reset, "/step": session.step, "/observe": session.observe, "/shortest_path": session.shortest_path, "/close": session.close}

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "spatialprobe-habitat-bridge"
        timeout = 30  # a client that stalls mid-request is dropped

        def log_message(self, format, *args):  # noqa: A002 (the base class's name)
            if os.environ.get("BRIDGE_LOG"):
                sys.stderr.write("bridge: %s\n" % (format % args))

        def send_json(self, status, value, close=False, allow=None):
            body = dump_json(value)
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            if allow:
                self.send_header("Allow", allow)
            if close:
                self.send_header("Connection", "close")
                self.close_connection = True
            self.end_headers()
            self.wfile.write(body)

        def send_refusal(self, refusal, close=False, allow=None):
            self.send_json(ERROR_STATUS[refusal.code], {"error": {"code": refusal.code, "message": refusal.message[:MESSAGE_CHARS]}}, close, allow)

        def read_body(self):
            if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
                return read_chunked(self.rfile, max_request_bytes)
            try:
                length = int(self.headers.get("Content-Length", "0"))
            except ValueError:
                raise Refusal("invalid_request", "bad Content-Length")
            if length > max_request_bytes:
                raise Refusal("body_too_large", "the body has %d bytes; the limit is %d" % (length, max_request_bytes))
            return self.rfile.read(max(0, length))

        def route(self, method):
            port = self.server.server_address[1]
            if not host_allowed(self.headers.get_all("Host") or [], bind_host, port):
                raise Refusal("forbidden_host", "the request needs one Host header naming this server")
            path = urllib.parse.urlsplit(self.path).path
            wanted = ENDPOINTS.get(path)
            if wanted is None:
                raise Refusal("not_found", "no endpoint %s; the endpoints are %s" % (path, ", ".join(ENDPOINTS)))
            if method != wanted:
                raise Refusal("method_not_allowed", "%s takes %s" % (path, wanted))
            if method == "GET":
                return {"protocol": PROTOCOL, "info": session.info}
            content_type = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
            if content_type != "application/json":
                raise Refusal("unsupported_media_type", "POST bodies must be Content-Type: application/json")
            body = parse_json_object(self.read_body())
            return routes[path](body)

        def handle_method(self, method):
            try:
                reply = self.route(method)
            except Refusal as refusal:
                path = urllib.parse.urlsplit(self.path).path
                allow = ENDPOINTS.get(path) if refusal.code == "method_not_allowed" else None
                # A body left unread (refused before reading) closes the connection after the reply.
                unread = refusal.code in ("body_too_large", "forbidden_host", "not_found", "method_not_allowed", "unsupported_media_type")
                return self.send_refusal(refusal, close=unread, allow=allow)
            except Exception as error:  # a bug here, not the simulator's: still a JSON 500
                return self.send_refusal(Refusal("simulator_error", "bridge server error: %s" % error), close=True)
            self.send_json(200, reply)
            if urllib.parse.urlsplit(self.path).path == "/close":
                on_closed()

        def do_GET(self):
            self.handle_method("GET")

        def do_POST(self):
            self.handle_method("POST")

        def do_PUT(self):
            self.handle_method("PUT")

        def do_DELETE(self):
            self.handle_method("DELETE")

        def do_PATCH(self):
            self.handle_method("PATCH")

    return Handler


def serve(backend, host, port, max_request_bytes=MAX_REQUEST_BYTES, announce=print):
    """Serve one session until POST /close (then return). Announces the URL once listening."""
    session = Session(backend)
    holder = {}

    def on_closed():
        threading.Thread(target=holder["server"].shutdown, daemon=True).start()

    server = http.server.ThreadingHTTPServer((host, port), make_handler(session, host, max_request_bytes, on_closed))
    server.daemon_threads = True
    holder["server"] = server
    shown = "[%s]" % host if ":" in host else host
    announce("spatialprobe-sim bridge listening on http://%s:%d/" % (shown, server.server_address[1]))
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()
        session.worker.shutdown(wait=False)


# ------------------------------------------------------------------------------------------------
# Backends
# ------------------------------------------------------------------------------------------------


class HabitatBackend:
    """habitat-sim: the Stretch body, four turned RGB(+depth) cameras, the navmesh for motion and paths."""

    def __init__(self, args):
        import habitat_sim  # noqa: F401 (fail early, with a clear message, when it is missing)

        self.args = args
        self.sim = None
        self.scene_path = None
        if args.image_format == "jpeg":
            import PIL.Image  # noqa: F401

    def info(self):
        import habitat_sim

        a = self.args
        return {
            "simulator": "habitat-sim %s" % getattr(habitat_sim, "__version__", "unknown"),
            "forward_step_m": a.forward_step,
            "turn_step_deg": a.turn_step,
            "max_actions": a.max_actions,
            "robot": {"height_m": a.robot_height, "radius_m": a.robot_radius},
            "camera": {"height_m": a.camera_height, "hfov_deg": a.hfov, "width": a.width, "height": a.height, "pitch_deg": a.camera_pitch},
            "views": list(VIEW_NAMES),
            "depth": not a.no_depth,
        }

    def configuration(self, scene_path):
        import habitat_sim
        from habitat_sim.agent import ActionSpec, ActuationSpec, AgentConfiguration

        a = self.args
        sim_cfg = habitat_sim.SimulatorConfiguration()
        sim_cfg.scene_id = scene_path
        if a.scene_dataset_config:
            sim_cfg.scene_dataset_config_file = a.scene_dataset_config
        sim_cfg.allow_sliding = a.allow_sliding
        sim_cfg.enable_physics = False
        sim_cfg.gpu_device_id = a.gpu
        sensors = []
        kinds = [("rgb", habitat_sim.SensorType.COLOR)] + ([] if a.no_depth else [("depth", habitat_sim.SensorType.DEPTH)])
        for name in VIEW_NAMES:
            for kind, sensor_type in kinds:
                spec = habitat_sim.CameraSensorSpec()
                spec.uuid = "%s_%s" % (kind, name)
                spec.sensor_type = sensor_type
                spec.resolution = [a.height, a.width]
                spec.position = [0.0, a.camera_height, 0.0]
                # Euler angles (radians) about x (pitch, positive up) then y (the view's turn).
                spec.orientation = [math.radians(a.camera_pitch), VIEW_OFFSETS[name], 0.0]
                spec.hfov = a.hfov
                sensors.append(spec)
        agent = AgentConfiguration(
            height=a.robot_height,
            radius=a.robot_radius,
            sensor_specifications=sensors,
            action_space={
                "move_forward": ActionSpec("move_forward", ActuationSpec(amount=a.forward_step)),
                "turn_left": ActionSpec("turn_left", ActuationSpec(amount=a.turn_step)),
                "turn_right": ActionSpec("turn_right", ActuationSpec(amount=a.turn_step)),
            },
        )
        return habitat_sim.Configuration(sim_cfg, [agent])

    def load(self, scene_path):
        import habitat_sim

        if scene_path == self.scene_path:
            return
        if self.sim is not None:
            self.sim.close()
            self.sim = None
        # The simulator recomputes the navmesh when the scene's does not fit the agent's radius and height.
        self.sim = habitat_sim.Simulator(self.configuration(scene_path))
        self.scene_path = scene_path
        if not self.sim.pathfinder.is_loaded:
            raise Refusal("rejected", "scene %s has no navmesh and none could be computed" % scene_path)

    def reset(self, episode):
        import numpy as np
        import habitat_sim
        from habitat_sim.utils.common import quat_from_coeffs

        self.load(resolve_scene(self.args.scene_dir, episode["scene_id"]))
        pathfinder = self.sim.pathfinder
        start = np.array(episode["start_position"], dtype=np.float32)
        if not pathfinder.is_navigable(start):
            snapped = np.array(pathfinder.snap_point(start), dtype=np.float32)
            if not np.all(np.isfinite(snapped)) or np.linalg.norm(snapped - start) > self.args.snap_radius:
                raise Refusal("rejected", "start_position %s is not within %.2f m of navigable floor" % (episode["start_position"], self.args.snap_radius))
            start = snapped
        state = habitat_sim.AgentState()
        state.position = start
        state.rotation = quat_from_coeffs(normalised(episode["start_rotation"]))
        self.sim.get_agent(0).set_state(state)

    def act(self, action):
        return bool(self.sim.get_agent(0).act(HABITAT_ACTIONS[action]))

    def pose(self):
        from habitat_sim.utils.common import quat_to_coeffs

        state = self.sim.get_agent(0).get_state()
        return state.position.tolist(), quat_to_coeffs(state.rotation).tolist()

    def observe(self):
        import numpy as np

        a = self.args
        frames = self.sim.get_sensor_observations()
        views = []
        for name in VIEW_NAMES:
            rgb = np.ascontiguousarray(np.asarray(frames["rgb_%s" % name])[:, :, :3], dtype=np.uint8)
            if a.image_format == "jpeg":
                from PIL import Image

                buffer = io.BytesIO()
                Image.fromarray(rgb).save(buffer, "JPEG", quality=a.jpeg_quality)
                data, media_type = buffer.getvalue(), "image/jpeg"
            else:
                data, media_type = png_bytes(a.width, a.height, rgb.tobytes(), 3), "image/png"
            depth = None
            if not a.no_depth:
                depth = png_bytes(a.width, a.height, depth_millimetres_bytes(frames["depth_%s" % name]), 1, 16)
            views.append(wire_view(name, media_type, data, a.width, a.height, depth))
        return views

    def shortest_path(self, start, targets):
        import numpy as np
        import habitat_sim

        # A target off the navmesh counts as its nearest navigable point within TARGET_SNAP_M
        # (the protocol's rule); farther ones are left out.
        ends, kept = [], []
        for i, t in enumerate(targets):
            point = np.array(t, dtype=np.float32)
            snapped = np.array(self.sim.pathfinder.snap_point(point), dtype=np.float32)
            if np.all(np.isfinite(snapped)) and np.linalg.norm(snapped - point) <= TARGET_SNAP_M:
                ends.append(snapped)
                kept.append(i)
        if not ends:
            return None
        path = habitat_sim.MultiGoalShortestPath()
        path.requested_start = np.array(start, dtype=np.float32)
        path.requested_ends = ends
        if not self.sim.pathfinder.find_path(path) or not math.isfinite(path.geodesic_distance):
            return None
        points = [[float(c) for c in p] for p in path.points]
        if not points:
            return None
        # closest_end_point_index is missing from some older builds: then the target nearest the path's end.
        index = getattr(path, "closest_end_point_index", -1)
        if index is None or index < 0:
            end = points[-1]
            index = min(range(len(ends)), key=lambda i: sum((float(ends[i][k]) - end[k]) ** 2 for k in range(3)))
        return {"points": points, "distance": float(path.geodesic_distance), "target": int(kept[index])}

    def close(self):
        if self.sim is not None:
            self.sim.close()
            self.sim = None
            self.scene_path = None


# How far a shortest_path target off the navmesh may be moved onto it (the protocol's rule), metres.
TARGET_SNAP_M = 1.0


class FakeBackend:
    """A 2 m square room (x and z in [-1, 1]) for testing the protocol without habitat-sim:
    FORWARD is refused at the walls (collided), no sliding; each view a solid colour, depth 1.5 m."""

    COLOURS = {"front": (200, 30, 30), "left": (30, 200, 30), "back": (30, 30, 200), "right": (200, 200, 30)}

    def __init__(self, side=8, max_actions=1000, depth=True):
        self.side = side
        self.max_actions = max_actions
        self.depth = depth
        self.position = [0.0, 0.0, 0.0]
        self.heading = 0.0
        self.closed = False

    def info(self):
        return {
            "simulator": "fake-room (habitat_bridge.py)",
            "forward_step_m": 0.25,
            "turn_step_deg": 30,
            "max_actions": self.max_actions,
            "robot": {"height_m": 1.41, "radius_m": 0.17},
            "camera": {"height_m": 1.41, "hfov_deg": 90, "width": self.side, "height": self.side, "pitch_deg": 0},
            "views": list(VIEW_NAMES),
            "depth": self.depth,
        }

    def reset(self, episode):
        if episode["scene_id"] != "room":
            raise Refusal("rejected", "unknown scene %s" % episode["scene_id"])
        self.position = list(episode["start_position"])
        self.heading = heading_of(normalised(episode["start_rotation"]))

    def act(self, action):
        if action == "TURN_LEFT":
            self.heading = wrap_angle(self.heading + math.pi / 6)
        elif action == "TURN_RIGHT":
            self.heading = wrap_angle(self.heading - math.pi / 6)
        elif action == "FORWARD":
            dx, dz = forward_of(self.heading)
            x, z = self.position[0] + 0.25 * dx, self.position[2] + 0.25 * dz
            if abs(x) > 1 or abs(z) > 1:
                return True
            self.position = [x, self.position[1], z]
        return False

    def pose(self):
        return self.position, rotation_of(self.heading)

    def observe(self):
        n = self.side
        depth = png_bytes(n, n, struct.pack(">H", 1500) * (n * n), 1, 16) if self.depth else None
        return [wire_view(name, "image/png", png_bytes(n, n, bytes(self.COLOURS[name]) * (n * n), 3), n, n, depth) for name in VIEW_NAMES]

    def shortest_path(self, start, targets):
        best = None
        for i, t in enumerate(targets):
            if abs(t[0]) <= 1 and abs(t[2]) <= 1:
                d = math.hypot(t[0] - start[0], t[2] - start[2])
                if best is None or d < best["distance"]:
                    best = {"points": [start, t], "distance": d, "target": i}
        return best

    def close(self):
        self.closed = True


# ------------------------------------------------------------------------------------------------
# Self-test (standard library only)
# ------------------------------------------------------------------------------------------------


def read_png(data):
    """(width, height, bit depth, colour type, unfiltered rows) of a PNG written by png_bytes; checks every CRC."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "signature"
    at, chunks = 8, {}
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert crc == zlib.crc32(kind + body) & 0xFFFFFFFF, "CRC of %s" % kind
        chunks[kind] = chunks.get(kind, b"") + body
        at += 12 + length
    width, height, bit_depth, colour_type = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    return width, height, bit_depth, colour_type, zlib.decompress(chunks[b"IDAT"])


def self_test_cases():
    def angles():
        assert wrap_angle(3 * math.pi) == math.pi
        assert wrap_angle(-math.pi) == math.pi
        assert abs(wrap_angle(7 * math.pi / 2) - (-math.pi / 2)) < 1e-12
        assert heading_of([0, 0, 0, 1]) == 0
        assert heading_of([0, 1, 0, 0]) == math.pi  # half a turn
        assert abs(heading_of([0, -math.sqrt(0.5), 0, -math.sqrt(0.5)]) - math.pi / 2) < 1e-12  # the negated quaternion: the same heading
        q = rotation_of(math.pi / 2)
        assert q == [0.0, math.sin(math.pi / 4), 0.0, math.cos(math.pi / 4)]
        assert abs(heading_of(q) - math.pi / 2) < 1e-12
        dx, dz = forward_of(math.pi / 2)  # a quarter turn counter-clockwise from -z faces -x
        assert abs(dx + 1) < 1e-12 and abs(dz) < 1e-12
        dx, dz = forward_of(0)
        assert dx == 0 and dz == -1

    def poses():
        pose = pose_json([1, 2, 3], [0, 2, 0, 0])
        assert pose == {"position": [1.0, 2.0, 3.0], "rotation": [0.0, 1.0, 0.0, 0.0], "heading": math.pi}
        try:
            pose_json([0, 0, 0], [0, 0, 0, 0])
            raise AssertionError("a zero quaternion passed")
        except Refusal as refusal:
            assert refusal.code == "rejected"

    def requests():
        episode = {"episode_id": "e", "scene_id": "room", "start_position": [0, 0, 0], "start_rotation": [0, 0, 0, 1]}
        assert check_reset({"episode": episode}) == ({"episode_id": "e", "scene_id": "room", "start_position": [0.0, 0.0, 0.0], "start_rotation": [0.0, 0.0, 0.0, 1.0]}, True)
        for body, message in [
            ({}, "episode: expected an object"),
            ({"episode": dict(episode, scene_id="")}, "episode.scene_id: expected a string of 1-1000 characters"),
            ({"episode": dict(episode, start_position=[0, 0])}, "episode.start_position: expected 3 finite numbers"),
            ({"episode": dict(episode, start_position=[0, True, 0])}, "episode.start_position: expected 3 finite numbers"),
            ({"episode": episode, "render": "yes"}, "render: expected a boolean"),
        ]:
            try:
                check_reset(body)
                raise AssertionError("accepted %r" % body)
            except Refusal as refusal:
                assert (refusal.code, refusal.message) == ("invalid_request", message), refusal.message
        assert check_step({"action": "STOP", "render": False}) == ("STOP", False)
        try:
            check_step({"action": "JUMP"})
            raise AssertionError("JUMP accepted")
        except Refusal as refusal:
            assert refusal.code == "unknown_action" and refusal.message == 'unknown action "JUMP"; expected FORWARD, TURN_LEFT, TURN_RIGHT or STOP'
        assert check_shortest_path({"from": [0, 0, 0], "targets": [[1, 0, 1]]}) == ([0.0, 0.0, 0.0], [[1.0, 0.0, 1.0]])
        for text, message in [(b"[1]", "the body is not a JSON object"), (b'{"a": NaN}', "NaN is not JSON"), (b"\xff{}", "")]:
            try:
                parse_json_object(text)
                raise AssertionError("parsed %r" % text)
            except Refusal as refusal:
                assert refusal.code == "malformed_json" and message in refusal.message
        assert parse_json_object(b'{"a": 1}') == {"a": 1}

    def endings():
        assert episode_end("FORWARD", 3, 1000) is None
        assert episode_end("STOP", 3, 1000) == "stop"
        assert episode_end("TURN_LEFT", 1000, 1000) == "action-limit"
        assert episode_end("STOP", 1000, 1000) == "stop"

    def pngs():
        rgb = png_bytes(2, 1, bytes([255, 0, 0, 0, 0, 255]), 3)
        assert read_png(rgb) == (2, 1, 8, 2, b"\x00\xff\x00\x00\x00\x00\xff")
        grey = png_bytes(1, 2, struct.pack(">HH", 1500, 0), 1, 16)
        assert read_png(grey) == (1, 2, 16, 0, b"\x00\x05\xdc\x00\x00\x00")
        assert base64.b64decode(wire_view("front", "image/png", rgb, 2, 1, grey)["depth_png"]) == grey

    def depth_conversion():
        try:
            import numpy as np
        except ImportError:
            return "skipped (no numpy)"
        got = depth_millimetres_bytes(np.array([[1.5, 0.0], [70.0, 0.0004]], dtype=np.float32))
        assert got == struct.pack(">HHHH", 1500, 0, 0, 0), got

    def scenes():
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "17DRP5sb8fy"))
            glb = os.path.join(root, "17DRP5sb8fy", "17DRP5sb8fy.glb")
            open(glb, "wb").close()
            real = os.path.realpath(glb)
            for scene_id in ["17DRP5sb8fy", "17DRP5sb8fy/17DRP5sb8fy.glb", "mp3d/17DRP5sb8fy/17DRP5sb8fy.glb", "data/scene_datasets/mp3d/17DRP5sb8fy/17DRP5sb8fy.glb"]:
                assert resolve_scene(root, scene_id) == real, scene_id
            for scene_id in ["../etc/passwd", "/abs/x.glb", "missing", "a//b.glb"]:
                try:
                    resolve_scene(root, scene_id)
                    raise AssertionError("resolved %s" % scene_id)
                except Refusal as refusal:
                    assert refusal.code == "rejected"

    def hosts():
        assert host_allowed(["127.0.0.1:8701"], "127.0.0.1", 8701)
        assert host_allowed(["LOCALHOST:8701"], "127.0.0.1", 8701)
        assert not host_allowed(["evil.example:8701"], "127.0.0.1", 8701)
        assert not host_allowed(["127.0.0.1:8701", "127.0.0.1:8701"], "127.0.0.1", 8701)
        assert not host_allowed([], "127.0.0.1", 8701)
        assert host_allowed(["my-box:8701"], "0.0.0.0", 8701)

    def chunked():
        assert read_chunked(io.BytesIO(b"4\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\n\r\n"), 100) == b'{"a":1}'
        try:
            read_chunked(io.BytesIO(b"ff\r\n" + b"x" * 255 + b"\r\n0\r\n\r\n"), 100)
            raise AssertionError("over the limit")
        except Refusal as refusal:
            assert refusal.code == "body_too_large"

    def http_session():
        import http.client

        backend = FakeBackend(max_actions=3)
        ready = threading.Event()
        holder = {}

        def announce(line):
            holder["port"] = int(line.rsplit(":", 1)[1].strip("/"))
            ready.set()

        thread = threading.Thread(target=serve, args=(backend, "127.0.0.1", 0, 4096, announce), daemon=True)
        thread.start()
        assert ready.wait(10), "the server did not start"
        port = holder["port"]

        def call(method, path, body=None, headers=None):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
            connection.request(method, path, body=data, headers=dict({"Content-Type": "application/json"}, **(headers or {})))
            reply = connection.getresponse()
            value = json.loads(reply.read())
            connection.close()
            return reply.status, value

        status, value = call("GET", "/info")
        assert status == 200 and value == {"protocol": PROTOCOL, "info": backend.info()}, value
        assert call("POST", "/step", {"action": "FORWARD"})[1]["error"]["code"] == "no_episode"
        assert call("POST", "/reset", b"{oops")[1]["error"]["code"] == "malformed_json"
        assert call("POST", "/reset", {"episode": {}})[0] == 400
        assert call("POST", "/reset", {"x": "y" * 5000}) == (413, {"error": {"code": "body_too_large", "message": "the body has 5009 bytes; the limit is 4096"}})
        assert call("POST", "/reset", b"{}", {"Content-Type": "text/plain"})[1]["error"]["code"] == "unsupported_media_type"
        assert call("GET", "/nowhere")[0] == 404
        assert call("GET", "/step")[1]["error"]["code"] == "method_not_allowed"
        assert call("GET", "/info", None, {"Host": "evil.example"})[0] == 403
        episode = {"episode_id": "e", "scene_id": "room", "start_position": [0, 0, 0.9], "start_rotation": [0, 0, 0, 1]}
        assert call("POST", "/reset", {"episode": dict(episode, scene_id="atlantis")}) == (400, {"error": {"code": "rejected", "message": "unknown scene atlantis"}})
        status, value = call("POST", "/reset", {"episode": episode, "render": False})
        assert (status, value) == (200, {"observation": {"step": 0, "pose": {"position": [0.0, 0.0, 0.9], "rotation": [0.0, 0.0, 0.0, 1.0], "heading": 0.0}, "collided": False, "views": []}}), value
        status, value = call("POST", "/step", {"action": "FORWARD"})
        assert status == 200 and value["done"] is False and value["end"] is None
        assert value["observation"]["pose"]["position"] == [0.0, 0.0, 0.65] and value["observation"]["step"] == 1
        views = value["observation"]["views"]
        assert [v["name"] for v in views] == list(VIEW_NAMES)
        assert read_png(base64.b64decode(views[2]["data"]))[:4] == (8, 8, 8, 2)
        assert read_png(base64.b64decode(views[2]["depth_png"]))[:4] == (8, 8, 16, 0)
        status, value = call("POST", "/step", {"action": "TURN_LEFT", "render": False})
        assert abs(value["observation"]["pose"]["heading"] - math.pi / 6) < 1e-12
        status, value = call("POST", "/step", {"action": "TURN_LEFT", "render": False})
        assert (value["done"], value["end"], value["observation"]["step"]) == (True, "action-limit", 3)
        assert call("POST", "/step", {"action": "STOP"}) == (409, {"error": {"code": "episode_over", "message": "the episode has ended; POST /reset to start another"}})
        status, value = call("POST", "/shortest_path", {"from": [0, 0, 0], "targets": [[3, 0, 0], [0.3, 0, 0.4]]})
        assert value == {"path": {"points": [[0.0, 0.0, 0.0], [0.3, 0.0, 0.4]], "distance": 0.5, "target": 1}}, value
        assert call("POST", "/close", {}) == (200, {"closed": True})
        thread.join(10)
        assert not thread.is_alive(), "the server did not stop after /close"
        assert backend.closed

    return [angles, poses, requests, endings, pngs, depth_conversion, scenes, hosts, chunked, http_session]


def self_test():
    passed = failed = 0
    for case in self_test_cases():
        try:
            note = case()
            passed += 1
            print("ok %s%s" % (case.__name__, " (%s)" % note if note else ""))
        except Exception as error:  # report every case, then fail
            failed += 1
            line = traceback.extract_tb(error.__traceback__)[-1].lineno
            print("FAIL %s (line %d): %s: %s" % (case.__name__, line, type(error).__name__, error))
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


# ------------------------------------------------------------------------------------------------


def arguments(argv):
    p = argparse.ArgumentParser(description="A spatialprobe-sim/1 bridge server on habitat-sim (docs/bridge-protocol.md).")
    p.add_argument("--self-test", action="store_true", help="test the pure parts (no habitat-sim needed) and exit")
    p.add_argument("--backend", choices=["habitat", "fake"], default="habitat", help="fake: a 2 m square room, for protocol tests without habitat-sim")
    p.add_argument("--scene-dir", help="folder of Matterport3D scenes (<id>/<id>.glb); episode scene_ids resolve under it")
    p.add_argument("--scene-dataset-config", help="a scene dataset config (e.g. mp3d.scene_dataset_config.json)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, loopback only)")
    p.add_argument("--port", type=int, default=8701, help="port (0: any free one; the URL is printed)")
    p.add_argument("--width", type=int, default=384)
    p.add_argument("--height", type=int, default=384)
    p.add_argument("--hfov", type=float, default=90.0, help="horizontal field of view, degrees")
    p.add_argument("--camera-height", type=float, default=1.41, help="camera height above the floor, metres (default: the Stretch's 1.41 m)")
    p.add_argument("--camera-pitch", type=float, default=0.0, help="camera tilt, degrees, positive up")
    p.add_argument("--no-depth", action="store_true", help="RGB only")
    p.add_argument("--image-format", choices=["png", "jpeg"], default="png", help="jpeg needs Pillow")
    p.add_argument("--jpeg-quality", type=int, default=90)
    p.add_argument("--max-actions", type=int, default=1000)
    p.add_argument("--forward-step", type=float, default=0.25)
    p.add_argument("--turn-step", type=float, default=30.0)
    p.add_argument("--robot-height", type=float, default=1.41)
    p.add_argument("--robot-radius", type=float, default=0.17)
    p.add_argument("--allow-sliding", action="store_true", help="let a blocked FORWARD slide along the obstacle (habitat's allow_sliding)")
    p.add_argument("--snap-radius", type=float, default=0.5, help="largest move onto the navmesh accepted for a start, metres")
    p.add_argument("--gpu", type=int, default=0, help="GPU device id for rendering")
    args = p.parse_args(argv)
    if not args.self_test and args.backend == "habitat" and not args.scene_dir:
        p.error("--scene-dir is required with the habitat backend")
    return args


def main(argv=None):
    args = arguments(sys.argv[1:] if argv is None else argv)
    if args.self_test:
        return self_test()
    if args.backend == "fake":
        backend = FakeBackend(max_actions=args.max_actions, depth=not args.no_depth)
    else:
        try:
            backend = HabitatBackend(args)
        except ImportError as error:
            sys.stderr.write("habitat_bridge: %s (the habitat backend needs habitat_sim and numpy, and Pillow for --image-format jpeg)\n" % error)
            return 2
    serve(backend, args.host, args.port, announce=lambda line: print(line, flush=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
