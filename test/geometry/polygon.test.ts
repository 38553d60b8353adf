import assert from "node:assert/strict";
import { test } from "node:test";
import {
  EnvironmentParseError,
  formatEnvironment,
  parseEnvironment,
  pointInPolygon,
  pointPolygonBoundaryDistance,
  pointPolygonDistance,
  pointPolygonsDistance,
  pointSegmentDistanceXY,
  polygon,
  polygonArea,
  polygonBounds,
  polygonPoints,
  polygonSignedArea,
  rectanglePolygon,
  segmentIntersectsPolygon,
  segmentPolygonDistance,
  segmentSegmentDistanceSq,
} from "../../src/geometry/polygon.js";

const close = (a: number, b: number, eps = 1e-12) => assert.ok(Math.abs(a - b) <= eps, `${a} != ${b}`);

// The unit square and an L: (0,0) (4,0) (4,1) (1,1) (1,3) (0,3), area 4 + 2 = 6.
const square = rectanglePolygon(0, 0, 1, 1);
const ell = polygon([[0, 0], [4, 0], [4, 1], [1, 1], [1, 3], [0, 3]]);

test("polygon construction, bounds, points and areas", () => {
  assert.deepEqual(Array.from(square), [0, 0, 1, 0, 1, 1, 0, 1]);
  assert.deepEqual(polygonPoints(square)[2], { x: 1, y: 1 });
  assert.deepEqual(polygon([{ x: 1, y: 2 }, { x: 3, y: 4 }, { x: 5, y: 0 }]), Float64Array.of(1, 2, 3, 4, 5, 0));
  assert.deepEqual(polygonBounds(ell), { minX: 0, minY: 0, maxX: 4, maxY: 3 });
  assert.equal(polygonArea(ell), 6);
  assert.equal(polygonSignedArea(ell), 6); // counter-clockwise
  assert.equal(polygonSignedArea(polygon([[0, 3], [1, 3], [1, 1], [4, 1], [4, 0], [0, 0]])), -6);
  assert.throws(() => polygon([[0, 0], [1, 1]]), /at least 3/);
  assert.throws(() => polygon([[0, 0], [1, NaN], [2, 2]]), /not finite/);
});

test("even-odd containment: convex, concave notch, outside the bounding box", () => {
  assert.equal(pointInPolygon(square, 0.5, 0.5), true);
  assert.equal(pointInPolygon(square, 1.5, 0.5), false);
  assert.equal(pointInPolygon(ell, 0.5, 2.5), true); // upper arm
  assert.equal(pointInPolygon(ell, 3.5, 0.5), true); // right arm
  assert.equal(pointInPolygon(ell, 2, 2), false); // in the notch, inside the bbox
  assert.equal(pointInPolygon(ell, -1, 0.5), false);
  assert.equal(pointInPolygon(ell, 5, 0.5), false);
  // A self-overlapping "bow tie" is even-odd: each lobe counts, nothing cancels.
  const bow = polygon([[0, 0], [2, 2], [2, 0], [0, 2]]);
  assert.equal(pointInPolygon(bow, 0.3, 1), true);
  assert.equal(pointInPolygon(bow, 1, 0.3), false);
});

test("point-to-segment distance (hand computed)", () => {
  assert.equal(pointSegmentDistanceXY(0, 1, -1, 0, 1, 0), 1); // above the middle
  assert.equal(pointSegmentDistanceXY(4, 4, 0, 0, 1, 0), 5); // past the end: to (1, 0)
  assert.equal(pointSegmentDistanceXY(-3, -4, 0, 0, 0, 0), 5); // degenerate segment
  close(pointSegmentDistanceXY(0, 2, 0, 0, 2, 2), Math.SQRT2); // to the diagonal y = x
});

test("point-to-polygon distance with shapely's semantics", () => {
  assert.equal(pointPolygonDistance(square, 0.5, 0.5), 0); // inside
  assert.equal(pointPolygonDistance(square, 1, 0.5), 0); // on an edge
  assert.equal(pointPolygonDistance(square, 0, 0), 0); // on a vertex
  assert.equal(pointPolygonDistance(square, 0.5, 3), 2); // above
  assert.equal(pointPolygonDistance(square, 4, 5), 5); // off the corner (1, 1)
  assert.equal(pointPolygonDistance(ell, 2, 2), 1); // in the notch: 1 to x = 1 and 1 to y = 1
  assert.equal(pointPolygonDistance(ell, 3, 3), 2); // 2 to x = 1 (at y = 3) and 2 to y = 1 (at x = 3)
  close(pointPolygonDistance(ell, 5, 2), Math.SQRT2); // off the corner (4, 1)
  assert.equal(pointPolygonBoundaryDistance(square, 0.5, 0.25), 0.25); // boundary distance from inside
  assert.equal(pointPolygonsDistance([square, ell], 5, 0.5), 1);
  assert.equal(pointPolygonsDistance([], 0, 0), Infinity);
});

test("segment against polygon: crossing, touching, inside, outside", () => {
  assert.equal(segmentIntersectsPolygon(square, -1, 0.5, 2, 0.5), true); // crosses
  assert.equal(segmentIntersectsPolygon(square, -1, 1, 2, 1), true); // runs along the top edge
  assert.equal(segmentIntersectsPolygon(square, 1, 2, 2, 1), false); // passes the corner at distance sqrt(2)/2
  assert.equal(segmentIntersectsPolygon(square, 0.2, 0.2, 0.8, 0.7), true); // wholly inside
  assert.equal(segmentIntersectsPolygon(ell, 1.5, 1.5, 3, 2.5), false); // wholly in the notch
  assert.equal(segmentPolygonDistance(square, -1, 3, 2, 3), 2);
  close(segmentPolygonDistance(square, 1, 2, 2, 1), Math.SQRT1_2);
  assert.equal(segmentPolygonDistance(ell, 1.5, 1.5, 3, 2.5), 0.5);
  assert.equal(segmentSegmentDistanceSq(0, 0, 2, 0, 1, -1, 1, 1), 0);
  assert.equal(segmentSegmentDistanceSq(0, 0, 2, 0, 3, 4, 3, 9), 17); // (2,0)-(3,4)
});

// Our own small file in the release's layout: two spaces between vertices, trailing blanks, CRLF.
const SAMPLE = "2\r\n4 -1.500000 -1.500000  1.500000 -1.500000  1.500000 1.500000  -1.500000 1.500000  3 10.000000 0.000000  12.000000 0.000000  11.000000 2.000000  \r\n";

test("parseEnvironment reads the release's layout with CRLF and trailing blanks", () => {
  const polys = parseEnvironment(SAMPLE, "sample.txt");
  assert.equal(polys.length, 2);
  assert.deepEqual(Array.from(polys[0]!), [-1.5, -1.5, 1.5, -1.5, 1.5, 1.5, -1.5, 1.5]);
  assert.deepEqual(Array.from(polys[1]!), [10, 0, 12, 0, 11, 2]);
  // Values spread over several lines and a BOM are fine too.
  assert.deepEqual(parseEnvironment("\uFEFF1\n3\n0 0\n1 0\n0 1\n\n"), [Float64Array.of(0, 0, 1, 0, 0, 1)]);
  assert.deepEqual(parseEnvironment("0\n"), []);
});

test("formatEnvironment round-trips", () => {
  const polys = parseEnvironment(SAMPLE);
  const text = formatEnvironment(polys);
  assert.equal(text, "2\n4 -1.500000 -1.500000 1.500000 -1.500000 1.500000 1.500000 -1.500000 1.500000 3 10.000000 0.000000 12.000000 0.000000 11.000000 2.000000\n");
  assert.deepEqual(parseEnvironment(text), polys);
  // 6 digits: values are rounded once, then stable.
  const odd = [polygon([[Math.PI, -Math.E], [1 / 3, 2 / 3], [-1e-9, 123.4567894]])];
  const once = formatEnvironment(odd);
  assert.equal(formatEnvironment(parseEnvironment(once)), once);
  assert.ok(once.includes(" 0.000000 "), "-0.000000 is written without the sign");
  parseEnvironment(once)[0]!.forEach((v, i) => assert.ok(Math.abs(v - odd[0]![i]!) <= 5e-7));
  // "exact": bit for bit.
  assert.deepEqual(parseEnvironment(formatEnvironment(odd, { digits: "exact" })), odd);
  assert.equal(formatEnvironment([]), "0\n\n");
});

function parseError(text: string): EnvironmentParseError {
  try {
    parseEnvironment(text, "env.txt");
  } catch (e) {
    assert.ok(e instanceof EnvironmentParseError, String(e));
    return e;
  }
  assert.fail("no error");
}

test("malformed files: the error names the file, the line and the problem", () => {
  let e = parseError("");
  assert.equal(e.line, 1);
  assert.match(e.message, /^env\.txt:1: empty file/);

  e = parseError("two\n3 0 0 1 0 0 1\n");
  assert.equal(e.line, 1);
  assert.match(e.message, /expected the number of polygons .* found "two"/);

  e = parseError("2\n3 0 0 1 0 0 1\n");
  assert.match(e.message, /declares 2 polygons but has only 1/);

  e = parseError("1\n3 0 0 1 0 0 1 4 5\n");
  assert.equal(e.line, 2);
  assert.match(e.message, /declares 1 polygons but more values follow \("4"\)/);

  e = parseError("1\n3 0 0\n1 x\n0 1\n");
  assert.equal(e.line, 3);
  assert.match(e.message, /expected y of vertex 2 of polygon 1 \(a number\), found "x"/);

  e = parseError("1\n3 0 0 1 0 0\n");
  assert.match(e.message, /expected y of vertex 3 of polygon 1/);

  e = parseError("1\n2 0 0 1 1\n");
  assert.equal(e.line, 2);
  assert.match(e.message, /polygon 1 has 2 vertices; at least 3 are needed/);

  e = parseError("1\n3.5 0 0 1 0 0 1\n");
  assert.match(e.message, /vertex count of polygon 1 \(a non-negative integer\), found "3.5"/);

  e = parseError("1\n3 0 0 1 0 0 NaN\n");
  assert.match(e.message, /found "NaN"/);

  e = parseError("1\n3 0 0 1 0 0 1e999\n");
  assert.match(e.message, /found "1e999"/);
});

test("issue 25: a declared vertex count of 10^15 ends with the file, without allocating for it", () => {
  assert.throws(() => parseEnvironment("1\n1000000000000000 0 0\n", "huge.txt"), /huge\.txt.*polygon 1 declares 1000000000000000 vertices but the file ends after 1/);
});
