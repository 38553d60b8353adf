/**
 * Wavefront OBJ / MTL reader for the furniture libraries (Sweet Home 3D .sh3f files).
 *
 * One pass over the text, line by line, with a hand-written tokenizer: no regular expressions,
 * no recursion, time linear in the text size (plus a bounded amount of work per vertex when
 * normals have to be generated, see below). Errors name the 1-based line.
 *
 * Supported: v (x y z, extra w / colour values ignored), vt (u [v [w]]), vn, f with any number
 * of corners (fan-triangulated) in the forms v, v/vt, v//vn, v/vt/vn with positive or negative
 * (relative) indices (positive ones may point forward, as Sweet Home 3D accepts; faces of fewer
 * than 3 vertices and vt / vn given on only some corners of a face are dropped, as Sweet Home 3D
 * does), g / o (recorded as group names), usemtl (splits the output into parts, one
 * per material), mtllib, s (smoothing groups, only used to decide how missing normals are
 * generated), backslash line continuations, CRLF / CR line ends, a leading BOM, `#` comments.
 * Ignored and counted in `ignored`: l, p, and any unknown keyword (curves, surfaces, ...).
 *
 * Normals. Faces that carry vn indices keep the file's normals. For a face without them the
 * normals are generated the way Sweet Home 3D's own OBJLoader does (it runs Java 3D's
 * NormalGenerator with a crease angle of PI/2 for faces under a smoothing group `s N`, and a
 * crease angle of 0, i.e. flat face normals, for faces under `s off` / `s 0` or before any `s`;
 * SweetHome3D/SweetHome3D src/com/eteks/sweethome3d/j3d/OBJLoader.java, the
 * `new NormalGenerator(Math.PI / 2)` / `setCreaseAngle(0)` branch):
 *   - flat: every corner gets the face's unit (Newell) normal;
 *   - smooth: a corner gets the normalised, area-weighted sum of the normals of the faces that
 *     share its position, are in the same part and smoothing group, and make an angle below
 *     90 degrees with its own face. A position shared by more than SMOOTH_DEGREE_CAP faces falls
 *     back to the plain average of all of them (keeps the work linear).
 * `smoothing: "all"` smooths every generated face, `"none"` makes them all flat.
 * `ObjModel.normalSource` counts faces per kind so callers can say which they got.
 */

export interface ObjPart {
  /** `usemtl` name in effect, or null before any usemtl. */
  material: string | null;
  /** Names of the g / o groups whose faces landed in this part, in first-seen order. */
  groups: string[];
  /** xyz per vertex. */
  positions: Float32Array;
  /** Unit normal per vertex (xyz). */
  normals: Float32Array;
  /** uv per vertex, or null when no face of the part has texture coordinates. */
  uvs: Float32Array | null;
  /** Triangle list, three vertex indices per triangle, counter-clockwise as in the file. */
  indices: Uint32Array;
}

export interface ObjBounds {
  min: [number, number, number];
  max: [number, number, number];
}

export interface ObjModel {
  parts: ObjPart[];
  /** `mtllib` file names in order of appearance, without duplicates. */
  mtllibs: string[];
  /** Bounding box of the vertices the faces use (null when there are no faces). */
  bounds: ObjBounds | null;
  /** Number of faces (polygons, before triangulation) by the origin of their normals. */
  normalSource: { file: number; flat: number; smooth: number };
  /** Faces without file normals whose polygon has zero area (their generated normal is (0, 1, 0)). */
  degenerateFaces: number;
  triangleCount: number;
  vertexCount: number;
  /** Ignored keywords with their line counts (l, p, curves, ...). */
  ignored: Record<string, number>;
}

export interface ParseObjOptions {
  /** How to generate missing normals: by smoothing group (Sweet Home 3D's rule, default), all smooth, all flat. */
  smoothing?: "groups" | "all" | "none";
}

export class ObjParseError extends Error {
  readonly line: number;
  constructor(kind: "OBJ" | "MTL", line: number, message: string) {
    super(`${kind} line ${line}: ${message}`);
    this.name = "ObjParseError";
    this.line = line;
  }
}

/** Faces sharing one position beyond this count are smoothed by a plain average (linear time). */
const SMOOTH_DEGREE_CAP = 64;

// ---------------------------------------------------------------------------------------------
// Growable typed arrays

type NumberArray = Float64Array | Float32Array | Int32Array;

/** A typed array that doubles when full; `data` holds `length` values. */
class GrowableList<A extends NumberArray> {
  data: A;
  length = 0;
  constructor(private readonly make: (size: number) => A) {
    this.data = make(1024);
  }
  push(x: number): void {
    this.reserve(1);
    this.data[this.length++] = x;
  }
  push2(x: number, y: number): void {
    this.reserve(2);
    this.data[this.length++] = x;
    this.data[this.length++] = y;
  }
  push3(x: number, y: number, z: number): void {
    this.reserve(3);
    this.data[this.length++] = x;
    this.data[this.length++] = y;
    this.data[this.length++] = z;
  }
  toArray(): A {
    return this.data.slice(0, this.length) as A;
  }
  private reserve(n: number): void {
    if (this.length + n <= this.data.length) return;
    const next = this.make(this.data.length * 2);
    next.set(this.data);
    this.data = next;
  }
}

const F64List = () => new GrowableList((n) => new Float64Array(n));
const F32List = () => new GrowableList((n) => new Float32Array(n));
const I32List = () => new GrowableList((n) => new Int32Array(n));

/** Open-addressing map from a 6-int tuple to a vertex index. */
class TupleMap {
  private keys: Int32Array;
  private vals: Int32Array;
  private mask: number;
  private size = 0;
  constructor() {
    this.vals = new Int32Array(1024).fill(-1);
    this.keys = new Int32Array(1024 * 6);
    this.mask = 1023;
  }
  /** Index stored for the tuple, or stores `value` and returns -1. */
  getOrAdd(a: number, b: number, c: number, d: number, e: number, f: number, value: number): number {
    if ((this.size + 1) * 2 > this.vals.length) this.grow();
    let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca6b);
    h = Math.imul(h ^ c, 0xc2b2ae35) ^ Math.imul(d, 0x27d4eb2f);
    h = Math.imul(h ^ e, 0x165667b1) ^ Math.imul(f, 0x9e3779b9);
    h ^= h >>> 15;
    let slot = h & this.mask;
    for (;;) {
      const v = this.vals[slot]!;
      if (v === -1) {
        this.vals[slot] = value;
        const k = slot * 6;
        this.keys[k] = a; this.keys[k + 1] = b; this.keys[k + 2] = c;
        this.keys[k + 3] = d; this.keys[k + 4] = e; this.keys[k + 5] = f;
        this.size++;
        return -1;
      }
      const k = slot * 6;
      if (this.keys[k] === a && this.keys[k + 1] === b && this.keys[k + 2] === c &&
          this.keys[k + 3] === d && this.keys[k + 4] === e && this.keys[k + 5] === f) return v;
      slot = (slot + 1) & this.mask;
    }
  }
  private grow(): void {
    const oldKeys = this.keys;
    const oldVals = this.vals;
    this.vals = new Int32Array(oldVals.length * 2).fill(-1);
    this.keys = new Int32Array(oldVals.length * 2 * 6);
    this.mask = this.vals.length - 1;
    this.size = 0;
    for (let s = 0; s < oldVals.length; s++) {
      const v = oldVals[s]!;
      if (v === -1) continue;
      const k = s * 6;
      this.getOrAdd(oldKeys[k]!, oldKeys[k + 1]!, oldKeys[k + 2]!, oldKeys[k + 3]!, oldKeys[k + 4]!, oldKeys[k + 5]!, v);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Line tokenizer shared by the OBJ and MTL readers

const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 11 || c === 12;

/**
 * Iterates logical lines (CR, LF or CRLF ends; a trailing backslash joins the next line).
 * Calls `onLine(line, lineNumber)` with the line text (comments not removed).
 */
function forEachLine(text: string, onLine: (line: string, lineNo: number) => void): void {
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let lineNo = 0;
  const n = text.length;
  let pending = "";
  let pendingStart = 0;
  while (pos <= n) {
    let end = pos;
    while (end < n) {
      const c = text.charCodeAt(end);
      if (c === 10 || c === 13) break;
      end++;
    }
    lineNo++;
    let line = text.slice(pos, end);
    if (end < n && text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10) end++;
    pos = end + 1;
    // Backslash continuation (only if the backslash is the last non-space character).
    let last = line.length - 1;
    while (last >= 0 && isSpace(line.charCodeAt(last))) last--;
    if (last >= 0 && line.charCodeAt(last) === 92 && pos <= n) {
      if (pending === "") pendingStart = lineNo;
      pending += line.slice(0, last) + " ";
      continue;
    }
    if (pending !== "") {
      line = pending + line;
      pending = "";
      onLine(line, pendingStart);
    } else {
      onLine(line, lineNo);
    }
    if (end >= n) break;
  }
  if (pending !== "") onLine(pending, pendingStart);
}

/** Splits a line into whitespace-separated tokens, stopping at a token starting with '#'. */
function tokenize(line: string): string[] {
  const out: string[] = [];
  const n = line.length;
  let i = 0;
  while (i < n) {
    while (i < n && isSpace(line.charCodeAt(i))) i++;
    if (i >= n || line.charCodeAt(i) === 35) break;
    const s = i;
    while (i < n && !isSpace(line.charCodeAt(i))) i++;
    out.push(line.slice(s, i));
  }
  return out;
}

/** The text after the keyword, trimmed, with a trailing `# comment` (after whitespace) removed. */
function restOfLine(line: string, keyword: string): string {
  let i = 0;
  const n = line.length;
  while (i < n && isSpace(line.charCodeAt(i))) i++;
  i += keyword.length;
  while (i < n && isSpace(line.charCodeAt(i))) i++;
  let end = n;
  for (let j = i; j < n; j++) {
    if (line.charCodeAt(j) === 35 && (j === i || isSpace(line.charCodeAt(j - 1)))) { end = j; break; }
  }
  while (end > i && isSpace(line.charCodeAt(end - 1))) end--;
  return line.slice(i, end);
}

/** Strict decimal number: [+-] digits [. digits] [e [+-] digits], at least one mantissa digit. */
function isDecimal(s: string): boolean {
  const n = s.length;
  let i = 0;
  let c = s.charCodeAt(0);
  if (c === 43 || c === 45) i++;
  let digits = 0;
  while (i < n && (c = s.charCodeAt(i)) >= 48 && c <= 57) { i++; digits++; }
  if (i < n && s.charCodeAt(i) === 46) {
    i++;
    while (i < n && (c = s.charCodeAt(i)) >= 48 && c <= 57) { i++; digits++; }
  }
  if (digits === 0) return false;
  if (i < n && ((c = s.charCodeAt(i)) === 101 || c === 69)) {
    i++;
    if (i < n && ((c = s.charCodeAt(i)) === 43 || c === 45)) i++;
    let e = 0;
    while (i < n && (c = s.charCodeAt(i)) >= 48 && c <= 57) { i++; e++; }
    if (e === 0) return false;
  }
  return i === n;
}

function parseNumber(tok: string | undefined, kind: "OBJ" | "MTL", lineNo: number, what: string): number {
  if (tok === undefined) throw new ObjParseError(kind, lineNo, `${what}: missing number`);
  if (!isDecimal(tok)) throw new ObjParseError(kind, lineNo, `${what}: malformed number '${clip(tok)}'`);
  const x = Number(tok);
  if (!Number.isFinite(x)) throw new ObjParseError(kind, lineNo, `${what}: number out of range '${clip(tok)}'`);
  return x;
}

const clip = (s: string): string => (s.length > 40 ? `${s.slice(0, 40)}...` : s);

// ---------------------------------------------------------------------------------------------
// OBJ

/** Parses one face-corner index ([-]digits); returns NaN when malformed, 0 when empty. */
function parseIndex(s: string, from: number, to: number): number {
  if (from === to) return 0;
  let i = from;
  let neg = false;
  if (s.charCodeAt(i) === 45) { neg = true; i++; }
  if (i === to) return NaN;
  let v = 0;
  for (; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return NaN;
    v = v * 10 + (c - 48);
    if (v > 0x7fffffff) return NaN;
  }
  if (v === 0) return NaN;
  return neg ? -v : v;
}

interface PartBuild {
  material: string | null;
  groups: string[];
  groupSet: Set<string>;
}

/** A `v` or `vn` line: three coordinates (more are checked as numbers and dropped, e.g. v's w or colours). */
function pushTriple(line: string, lineNo: number, keyword: "v" | "vn", list: GrowableList<Float64Array>): void {
  const t = tokenize(line);
  if (t.length < 4) throw new ObjParseError("OBJ", lineNo, `${keyword} needs 3 coordinates, got ${t.length - 1}`);
  for (let k = 1; k < t.length; k++) {
    const x = parseNumber(t[k], "OBJ", lineNo, keyword);
    if (k <= 3) list.push(x);
  }
}

/** Parses a Wavefront OBJ text. Throws ObjParseError naming the line on malformed input. */
export function parseObj(text: string, options: ParseObjOptions = {}): ObjModel {
  const smoothing = options.smoothing ?? "groups";
  const vs = F64List();
  const vts = F64List();
  const vns = F64List();
  // Face corners: position, uv, normal indices (0-based, -1 when absent).
  const cornerV = I32List();
  const cornerT = I32List();
  const cornerN = I32List();
  // Per face: first corner, part, smoothing group (0 = off), normal-kind (0 file, 1 flat, 2 smooth).
  const faceStart = I32List();
  const facePart = I32List();
  const faceSmooth = I32List();
  const faceLine = I32List();

  const parts: PartBuild[] = [];
  const partByMaterial = new Map<string | null, number>();
  const mtllibs: string[] = [];
  const ignored: Record<string, number> = {};
  let currentMaterial: string | null = null;
  let currentPart = -1;
  let currentGroups: string[] = ["default"];
  let currentSmooth = 0;

  const partFor = (material: string | null): number => {
    let p = partByMaterial.get(material);
    if (p === undefined) {
      p = parts.length;
      parts.push({ material, groups: [], groupSet: new Set() });
      partByMaterial.set(material, p);
    }
    return p;
  };

  forEachLine(text, (line, lineNo) => {
    // Keyword.
    let i = 0;
    const n = line.length;
    while (i < n && isSpace(line.charCodeAt(i))) i++;
    if (i >= n || line.charCodeAt(i) === 35) return;
    const ks = i;
    while (i < n && !isSpace(line.charCodeAt(i))) i++;
    const kw = line.slice(ks, i);
    switch (kw) {
      case "v":
        return pushTriple(line, lineNo, "v", vs);
      case "vt": {
        const t = tokenize(line);
        if (t.length < 2) throw new ObjParseError("OBJ", lineNo, "vt needs at least 1 coordinate");
        let u = 0;
        let v = 0;
        for (let k = 1; k < t.length; k++) {
          const x = parseNumber(t[k], "OBJ", lineNo, "vt");
          if (k === 1) u = x;
          else if (k === 2) v = x;
        }
        vts.push2(u, v);
        return;
      }
      case "vn":
        return pushTriple(line, lineNo, "vn", vns);
      case "f":
      case "fo": {
        const t = tokenize(line);
        const nv = vs.length / 3;
        const nt = vts.length / 2;
        const nn = vns.length / 3;
        const first = cornerV.length;
        let withUvs = 0;
        let withNormals = 0;
        for (let k = 1; k < t.length; k++) {
          const tok = t[k]!;
          const s1 = tok.indexOf("/");
          const s2 = s1 < 0 ? -1 : tok.indexOf("/", s1 + 1);
          if (s2 >= 0 && tok.indexOf("/", s2 + 1) >= 0) {
            throw new ObjParseError("OBJ", lineNo, `malformed face vertex '${clip(tok)}'`);
          }
          let vi = parseIndex(tok, 0, s1 < 0 ? tok.length : s1);
          let ti = s1 < 0 ? 0 : parseIndex(tok, s1 + 1, s2 < 0 ? tok.length : s2);
          let ni = s2 < 0 ? 0 : parseIndex(tok, s2 + 1, tok.length);
          if (Number.isNaN(vi) || Number.isNaN(ti) || Number.isNaN(ni) || vi === 0 ||
              (s2 >= 0 && ni === 0) || (s1 >= 0 && s2 < 0 && ti === 0)) {
            throw new ObjParseError("OBJ", lineNo, `malformed face vertex '${clip(tok)}'`);
          }
          // Negative indices are relative to what is defined so far; positive ones may refer
          // forward (Sweet Home 3D accepts that) and are range-checked once the file is read.
          if (vi < 0) {
            vi += nv;
            if (vi < 0) throw new ObjParseError("OBJ", lineNo, `vertex index in '${clip(tok)}' out of range (${nv} vertices so far)`);
          } else vi--;
          if (ti < 0) {
            ti += nt;
            if (ti < 0) throw new ObjParseError("OBJ", lineNo, `texture index in '${clip(tok)}' out of range (${nt} so far)`);
          } else ti = ti === 0 ? -1 : ti - 1;
          if (ni < 0) {
            ni += nn;
            if (ni < 0) throw new ObjParseError("OBJ", lineNo, `normal index in '${clip(tok)}' out of range (${nn} so far)`);
          } else ni = ni === 0 ? -1 : ni - 1;
          if (ti >= 0) withUvs++;
          if (ni >= 0) withNormals++;
          cornerV.push(vi);
          cornerT.push(ti);
          cornerN.push(ni);
        }
        const count = t.length - 1;
        if (count < 3) {
          // Faces of fewer than 3 vertices are dropped, as Sweet Home 3D's OBJLoader does.
          cornerV.length = cornerT.length = cornerN.length = first;
          ignored["f with < 3 vertices"] = (ignored["f with < 3 vertices"] ?? 0) + 1;
          return;
        }
        // Corners that disagree on having vt / vn: ignore them for the whole face (as Sweet Home 3D).
        if (withUvs !== 0 && withUvs !== count) for (let c = first; c < cornerT.length; c++) cornerT.data[c] = -1;
        if (withNormals !== 0 && withNormals !== count) for (let c = first; c < cornerN.length; c++) cornerN.data[c] = -1;
        if (currentPart < 0) currentPart = partFor(currentMaterial);
        const part = parts[currentPart]!;
        for (const g of currentGroups) {
          if (!part.groupSet.has(g)) { part.groupSet.add(g); part.groups.push(g); }
        }
        faceStart.push(first);
        facePart.push(currentPart);
        faceSmooth.push(currentSmooth);
        faceLine.push(lineNo);
        return;
      }
      case "g":
      case "o": {
        const t = tokenize(line);
        currentGroups = t.length > 1 ? t.slice(1) : ["default"];
        return;
      }
      case "usemtl": {
        const name = restOfLine(line, kw);
        currentMaterial = name === "" ? null : name;
        currentPart = partFor(currentMaterial);
        return;
      }
      case "mtllib": {
        for (const name of tokenize(line).slice(1)) if (!mtllibs.includes(name)) mtllibs.push(name);
        return;
      }
      case "s": {
        const t = tokenize(line);
        const v = t[1];
        if (v === undefined) throw new ObjParseError("OBJ", lineNo, "s needs a group number or off");
        if (v === "off" || v === "0") currentSmooth = 0;
        else {
          const g = parseIndex(v, 0, v.length);
          // Non-numeric names are accepted as "on" (Sweet Home 3D only tests for "off").
          currentSmooth = Number.isNaN(g) || g <= 0 ? 1 : g;
        }
        return;
      }
      default:
        ignored[kw] = (ignored[kw] ?? 0) + 1;
    }
  });

  faceStart.push(cornerV.length); // sentinel
  return buildModel({
    vs: vs.data, vts: vts.data, vns: vns.data, nv: vs.length / 3,
    cornerV: cornerV.data, cornerT: cornerT.data, cornerN: cornerN.data,
    faceStart: faceStart.data, facePart: facePart.data, faceSmooth: faceSmooth.data, faceLine: faceLine.data,
    nt: vts.length / 2, nn: vns.length / 3,
    faceCount: facePart.length, parts, mtllibs, ignored, smoothing,
  });
}

interface BuildInput {
  vs: Float64Array; vts: Float64Array; vns: Float64Array; nv: number;
  cornerV: Int32Array; cornerT: Int32Array; cornerN: Int32Array;
  faceStart: Int32Array; facePart: Int32Array; faceSmooth: Int32Array; faceLine: Int32Array; faceCount: number;
  nt: number; nn: number;
  parts: PartBuild[]; mtllibs: string[]; ignored: Record<string, number>;
  smoothing: "groups" | "all" | "none";
}

function buildModel(input: BuildInput): ObjModel {
  const { vs, vts, vns, nv, nt, nn, cornerV, cornerT, cornerN, faceStart, facePart, faceSmooth, faceCount, smoothing } = input;

  // Range check of (possibly forward) positive indices against the whole file.
  for (let f = 0; f < faceCount; f++) {
    for (let c = faceStart[f]!; c < faceStart[f + 1]!; c++) {
      const what = cornerV[c]! >= nv ? `vertex index ${cornerV[c]! + 1} out of range (${nv} vertices)`
        : cornerT[c]! >= nt ? `texture index ${cornerT[c]! + 1} out of range (${nt} texture coordinates)`
        : cornerN[c]! >= nn ? `normal index ${cornerN[c]! + 1} out of range (${nn} normals)` : null;
      if (what !== null) throw new ObjParseError("OBJ", input.faceLine[f]!, what);
    }
  }

  // Face normals (Newell's method: robust for non-planar polygons; length = 2 * area).
  const faceNormal = new Float64Array(faceCount * 3);
  const faceKind = new Uint8Array(faceCount); // 0 file, 1 flat, 2 smooth
  let degenerate = 0;
  const normalSource = { file: 0, flat: 0, smooth: 0 };
  for (let f = 0; f < faceCount; f++) {
    const s = faceStart[f]!;
    const e = faceStart[f + 1]!;
    if (cornerN[s]! >= 0) { faceKind[f] = 0; normalSource.file++; continue; }
    let nx = 0, ny = 0, nz = 0;
    for (let c = s; c < e; c++) {
      const a = cornerV[c]! * 3;
      const b = cornerV[c + 1 < e ? c + 1 : s]! * 3;
      const ax = vs[a]!, ay = vs[a + 1]!, az = vs[a + 2]!;
      const bx = vs[b]!, by = vs[b + 1]!, bz = vs[b + 2]!;
      nx += (ay - by) * (az + bz);
      ny += (az - bz) * (ax + bx);
      nz += (ax - bx) * (ay + by);
    }
    faceNormal[f * 3] = nx; faceNormal[f * 3 + 1] = ny; faceNormal[f * 3 + 2] = nz;
    if (nx === 0 && ny === 0 && nz === 0) degenerate++;
    const smooth = smoothing === "all" || (smoothing === "groups" && faceSmooth[f]! !== 0);
    faceKind[f] = smooth ? 2 : 1;
    if (smooth) normalSource.smooth++; else normalSource.flat++;
  }

  // Incidence of smooth faces by position (CSR).
  let incStart: Int32Array | null = null;
  let incFace: Int32Array | null = null;
  if (normalSource.smooth > 0) {
    incStart = new Int32Array(nv + 1);
    for (let f = 0; f < faceCount; f++) {
      if (faceKind[f] !== 2) continue;
      for (let c = faceStart[f]!; c < faceStart[f + 1]!; c++) incStart[cornerV[c]! + 1]!++;
    }
    for (let v = 0; v < nv; v++) incStart[v + 1] = incStart[v + 1]! + incStart[v]!;
    incFace = new Int32Array(incStart[nv]!);
    const fill = incStart.slice(0, nv);
    for (let f = 0; f < faceCount; f++) {
      if (faceKind[f] !== 2) continue;
      for (let c = faceStart[f]!; c < faceStart[f + 1]!; c++) incFace[fill[cornerV[c]!]!++] = f;
    }
  }
  const unit = new Float64Array(faceCount * 3);
  for (let f = 0; f < faceCount; f++) {
    const x = faceNormal[f * 3]!, y = faceNormal[f * 3 + 1]!, z = faceNormal[f * 3 + 2]!;
    const len = Math.sqrt(x * x + y * y + z * z);
    if (len > 0) { unit[f * 3] = x / len; unit[f * 3 + 1] = y / len; unit[f * 3 + 2] = z / len; }
  }

  const f32 = new Float32Array(1);
  const bits = new Int32Array(f32.buffer);
  const fbits = (x: number): number => { f32[0] = x; return bits[0]!; };

  // Output, per part.
  const outs = input.parts.map(() => ({
    map: new TupleMap(), pos: F32List(), nrm: F32List(), uv: F32List(), hasUv: false,
    idx: I32List(), count: 0,
  }));
  let cornerBuf = new Int32Array(64);
  const cappedSums = new Map<number, Map<string, [number, number, number]>>();
  let triangleCount = 0;
  for (let f = 0; f < faceCount; f++) {
    const s = faceStart[f]!;
    const e = faceStart[f + 1]!;
    const out = outs[facePart[f]!]!;
    if (e - s > cornerBuf.length) cornerBuf = new Int32Array(e - s);
    const kind = faceKind[f]!;
    for (let c = s; c < e; c++) {
      const v = cornerV[c]!;
      const t = cornerT[c]!;
      let nx = 0, ny = 1, nz = 0;
      let ka = 0, kb = 0, kc = 0;
      if (kind === 0) {
        const ni = cornerN[c]!;
        ka = ni;
        nx = vns[ni * 3]!; ny = vns[ni * 3 + 1]!; nz = vns[ni * 3 + 2]!;
        const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
        if (len > 0) { nx /= len; ny /= len; nz /= len; } else { nx = 0; ny = 1; nz = 0; }
      } else if (kind === 1) {
        ka = f;
        const ux = unit[f * 3]!, uy = unit[f * 3 + 1]!, uz = unit[f * 3 + 2]!;
        if (ux !== 0 || uy !== 0 || uz !== 0) { nx = ux; ny = uy; nz = uz; }
      } else {
        const a = incStart![v]!;
        const b = incStart![v + 1]!;
        const ux = unit[f * 3]!, uy = unit[f * 3 + 1]!, uz = unit[f * 3 + 2]!;
        let sx = 0, sy = 0, sz = 0;
        const part = facePart[f]!;
        const group = smoothing === "groups" ? faceSmooth[f]! : 0;
        if (b - a > SMOOTH_DEGREE_CAP) {
          // High-valence position: plain average per (part, group), computed once per position.
          let sums = cappedSums.get(v);
          if (sums === undefined) {
            sums = new Map();
            for (let k = a; k < b; k++) {
              const g = incFace![k]!;
              const key = `${facePart[g]}:${smoothing === "groups" ? faceSmooth[g] : 0}`;
              let acc = sums.get(key);
              if (acc === undefined) { acc = [0, 0, 0] as [number, number, number]; sums.set(key, acc); }
              acc[0] += faceNormal[g * 3]!; acc[1] += faceNormal[g * 3 + 1]!; acc[2] += faceNormal[g * 3 + 2]!;
            }
            cappedSums.set(v, sums);
          }
          const acc = sums.get(`${part}:${group}`)!;
          sx = acc[0]!; sy = acc[1]!; sz = acc[2]!;
        } else {
          for (let k = a; k < b; k++) {
            const g = incFace![k]!;
            if (facePart[g] !== part || (smoothing === "groups" && faceSmooth[g] !== group)) continue;
            if (g !== f && unit[g * 3]! * ux + unit[g * 3 + 1]! * uy + unit[g * 3 + 2]! * uz <= 1e-6) continue;
            sx += faceNormal[g * 3]!; sy += faceNormal[g * 3 + 1]!; sz += faceNormal[g * 3 + 2]!;
          }
        }
        const len = Math.sqrt(sx * sx + sy * sy + sz * sz);
        if (len > 0) { nx = sx / len; ny = sy / len; nz = sz / len; }
        else if (ux !== 0 || uy !== 0 || uz !== 0) { nx = ux; ny = uy; nz = uz; }
        ka = fbits(nx); kb = fbits(ny); kc = fbits(nz);
      }
      const existing = out.map.getOrAdd(v, t, kind, ka, kb, kc, out.count);
      if (existing >= 0) {
        cornerBuf[c - s] = existing;
      } else {
        cornerBuf[c - s] = out.count++;
        out.pos.push3(vs[v * 3]!, vs[v * 3 + 1]!, vs[v * 3 + 2]!);
        out.nrm.push3(nx, ny, nz);
        if (t >= 0) { out.uv.push2(vts[t * 2]!, vts[t * 2 + 1]!); out.hasUv = true; }
        else out.uv.push2(0, 0);
      }
    }
    const c0 = cornerBuf[0]!;
    for (let k = 1; k + 1 < e - s; k++) {
      out.idx.push(c0);
      out.idx.push(cornerBuf[k]!);
      out.idx.push(cornerBuf[k + 1]!);
      triangleCount++;
    }
  }

  const parts: ObjPart[] = [];
  let vertexCount = 0;
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  input.parts.forEach((p, i) => {
    const out = outs[i]!;
    if (out.idx.length === 0) return;
    const positions = out.pos.toArray();
    for (let k = 0; k < positions.length; k += 3) {
      for (let a = 0; a < 3; a++) {
        const x = positions[k + a]!;
        if (x < min[a]!) min[a] = x;
        if (x > max[a]!) max[a] = x;
      }
    }
    vertexCount += out.count;
    parts.push({
      material: p.material,
      groups: p.groups,
      positions,
      normals: out.nrm.toArray(),
      uvs: out.hasUv ? out.uv.toArray() : null,
      indices: new Uint32Array(out.idx.data.buffer.slice(0, out.idx.length * 4)),
    });
  });
  return {
    parts,
    mtllibs: input.mtllibs,
    bounds: parts.length > 0 ? { min, max } : null,
    normalSource,
    degenerateFaces: degenerate,
    triangleCount,
    vertexCount,
    ignored: input.ignored,
  };
}

// ---------------------------------------------------------------------------------------------
// MTL

export interface Material {
  name: string;
  /** Kd, Ka, Ks, Ke as linear 0..1 RGB. Defaults (when absent) are Java 3D's Material defaults. */
  diffuse: [number, number, number];
  ambient: [number, number, number];
  specular: [number, number, number];
  emissive: [number, number, number];
  /** Ns (specular exponent). */
  shininess: number;
  /** 1 = opaque; from `d`, or 1 - `Tr` when there is no `d`. */
  opacity: number;
  illum: number | null;
  /** map_Kd file reference as written in the MTL (options such as -s / -o removed), or null. */
  diffuseMap: string | null;
  /** map_d file reference, or null. */
  opacityMap: string | null;
}

/** Number of arguments taken by each texture-map option (-o/-s/-t take 1 to 3 numbers). */
const MAP_OPTION_ARGS: Record<string, number> = {
  "-blendu": 1, "-blendv": 1, "-bm": 1, "-boost": 1, "-cc": 1, "-clamp": 1, "-imfchan": 1,
  "-mm": 2, "-texres": 1, "-type": 1, "-o": 3, "-s": 3, "-t": 3,
};

/** The file name of a `map_*` statement: the tokens after the options, joined by one space. */
function mapFileName(tokens: string[], lineNo: number): string {
  let k = 1;
  while (k < tokens.length && tokens[k]!.startsWith("-") && tokens[k]!.length > 1 && !isDecimal(tokens[k]!)) {
    const opt = tokens[k]!;
    const nargs = MAP_OPTION_ARGS[opt];
    if (nargs === undefined) throw new ObjParseError("MTL", lineNo, `unknown texture option '${clip(opt)}'`);
    k++;
    if (opt === "-o" || opt === "-s" || opt === "-t") {
      let taken = 0;
      while (taken < nargs && k < tokens.length - 1 && isDecimal(tokens[k]!)) { k++; taken++; }
      if (taken === 0) throw new ObjParseError("MTL", lineNo, `texture option ${opt} needs a number`);
    } else {
      if (k + nargs > tokens.length - 1) throw new ObjParseError("MTL", lineNo, `texture option ${opt} needs ${nargs} argument(s)`);
      k += nargs;
    }
  }
  if (k >= tokens.length) throw new ObjParseError("MTL", lineNo, `${tokens[0]} needs a file name`);
  return tokens.slice(k).join(" ");
}

function readColor(t: string[], lineNo: number, what: string): [number, number, number] | null {
  if (t[1] === "spectral" || t[1] === "xyz") return null; // unsupported colour spaces: keep the default
  const r = parseNumber(t[1], "MTL", lineNo, what);
  if (t.length === 2) return [r, r, r];
  return [r, parseNumber(t[2], "MTL", lineNo, what), parseNumber(t[3], "MTL", lineNo, what)];
}

/** Parses an MTL text into materials by name. Throws ObjParseError naming the line. */
export function parseMtl(text: string): Record<string, Material> {
  const out: Record<string, Material> = Object.create(null) as Record<string, Material>;
  let cur: Material | null = null;
  let sawD = false;
  forEachLine(text, (line, lineNo) => {
    const t = tokenize(line);
    const kw = t[0];
    if (kw === undefined) return;
    if (kw === "newmtl") {
      const name = restOfLine(line, kw);
      if (name === "") throw new ObjParseError("MTL", lineNo, "newmtl needs a name");
      cur = {
        name, diffuse: [1, 1, 1], ambient: [0.2, 0.2, 0.2], specular: [1, 1, 1], emissive: [0, 0, 0],
        shininess: 64, opacity: 1, illum: null, diffuseMap: null, opacityMap: null,
      };
      out[name] = cur;
      sawD = false;
      return;
    }
    const m: Material | null = cur;
    if (m === null) {
      // Statements before the first newmtl have nothing to apply to.
      return;
    }
    switch (kw) {
      case "Kd": { const c = readColor(t, lineNo, kw); if (c) m.diffuse = c; return; }
      case "Ka": { const c = readColor(t, lineNo, kw); if (c) m.ambient = c; return; }
      case "Ks": { const c = readColor(t, lineNo, kw); if (c) m.specular = c; return; }
      case "Ke": { const c = readColor(t, lineNo, kw); if (c) m.emissive = c; return; }
      case "Ns": m.shininess = parseNumber(t[1], "MTL", lineNo, kw); return;
      case "d": {
        const v = t[1] === "-halo" ? t[2] : t[1];
        m.opacity = parseNumber(v, "MTL", lineNo, kw);
        sawD = true;
        return;
      }
      case "Tr": {
        const v = parseNumber(t[1], "MTL", lineNo, kw);
        if (!sawD) m.opacity = 1 - v;
        return;
      }
      case "illum": m.illum = parseNumber(t[1], "MTL", lineNo, kw); return;
      case "map_Kd": m.diffuseMap = mapFileName(t, lineNo); return;
      case "map_d": m.opacityMap = mapFileName(t, lineNo); return;
      default:
        return; // Ni, Tf, sharpness, other maps: not used
    }
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Paths inside a library

/**
 * Resolves `ref` (an mtllib or map_Kd reference) against the folder of `fromFile`, both paths
 * inside a library (zip entry names; a leading '/' as in the catalogue's `model#N` is dropped;
 * backslashes count as '/'). Refuses absolute references, drive letters, and any result that
 * leaves `rootDir` (default: the folder of `fromFile`, i.e. the model's folder).
 * Returns the normalised entry name, e.g. ("a/chair/chair.mtl", "tex/wood.jpg") -> "a/chair/tex/wood.jpg".
 */
export function resolveAssetPath(fromFile: string, ref: string, rootDir?: string): string {
  const norm = (p: string): string[] => p.split("\\").join("/").split("/").filter((s) => s !== "" && s !== ".");
  const r = ref.split("\\").join("/").trim();
  if (r === "") throw new Error("empty asset reference");
  if (r.startsWith("/") || (r.length > 1 && r[1] === ":")) throw new Error(`absolute asset reference '${ref}'`);
  const base = norm(fromFile);
  base.pop();
  const root = rootDir === undefined ? base.slice() : norm(rootDir);
  const out = base.slice();
  for (const seg of norm(r)) {
    if (seg === "..") {
      if (out.length <= root.length) throw new Error(`asset reference '${ref}' escapes the model folder '${root.join("/")}'`);
      out.pop();
    } else out.push(seg);
  }
  for (let i = 0; i < root.length; i++) {
    if (out[i] !== root[i]) throw new Error(`asset reference '${ref}' is outside '${root.join("/")}'`);
  }
  return out.join("/");
}

export interface LoadedObj {
  model: ObjModel;
  /** Materials from all mtllib files (later files override earlier ones on name clashes). */
  materials: Record<string, Material>;
  /** Resolved entry name of each material's map_Kd (materials without one are absent). */
  diffuseMaps: Record<string, string>;
  /** mtllib references that could not be read, with the reason. */
  missing: string[];
}

/**
 * Reads an OBJ and its MTL files through `read(entryName)` (returns the text, or undefined when
 * the entry does not exist), resolving mtllib and map_Kd paths with resolveAssetPath inside the
 * OBJ's folder.
 */
export function loadObj(objPath: string, read: (entry: string) => string | undefined, options: ParseObjOptions = {}): LoadedObj {
  const segments = objPath.split("\\").join("/").split("/").filter((s) => s !== "" && s !== ".");
  const text = read(segments.join("/"));
  if (text === undefined) throw new Error(`model '${objPath}' not found`);
  const model = parseObj(text, options);
  const root = segments.slice(0, -1).join("/");
  const materials: Record<string, Material> = Object.create(null) as Record<string, Material>;
  const diffuseMaps: Record<string, string> = Object.create(null) as Record<string, string>;
  const missing: string[] = [];
  for (const lib of model.mtllibs) {
    let mtlPath: string;
    try {
      mtlPath = resolveAssetPath(objPath, lib, root);
    } catch (e) {
      missing.push(`${lib}: ${(e as Error).message}`);
      continue;
    }
    const mtl = read(mtlPath);
    if (mtl === undefined) { missing.push(`${lib}: not found`); continue; }
    const mats = parseMtl(mtl);
    for (const [name, m] of Object.entries(mats)) {
      materials[name] = m;
      delete diffuseMaps[name];
      if (m.diffuseMap !== null) {
        try {
          diffuseMaps[name] = resolveAssetPath(mtlPath, m.diffuseMap, root);
        } catch (e) {
          missing.push(`${m.diffuseMap}: ${(e as Error).message}`);
        }
      }
    }
  }
  return { model, materials, diffuseMaps, missing };
}
