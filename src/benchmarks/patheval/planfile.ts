/**
 * The planner output the release's path generator writes and generate_samples.read_data reads:
 * runs separated by "@", one "x y" line per state, a "Robot Radius: r" line per run. Read with
 * the release's rules: lines split on single spaces, lines with fewer than two fields or whose
 * first field contains "Robot" skipped, a run kept only when its last point lies within 1.5 of
 * the goal on each axis (a box). Where the release raises (an empty field from a double or
 * leading space, any other text line), this throws an Error naming the line.
 */
export const GOAL: readonly [number, number] = [36.0982, 36.363];
export const START: readonly [number, number] = [-36.6031, -36.4332];

export function reachesGoal(point: readonly [number, number]): boolean {
  return Math.abs(point[0] - GOAL[0]) < 1.5 && Math.abs(point[1] - GOAL[1]) < 1.5;
}

/** Python's float() on a field of the file (ASCII forms only: digits, signs, exponents, inf/nan). */
function pyFloatField(text: string, lineNo: number): number {
  const trimmed = text.replace(/^[ \t\n\r\v\f]+|[ \t\n\r\v\f]+$/g, "");
  if (/^[+-]?(inf|infinity)$/i.test(trimmed)) return trimmed.startsWith("-") ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(trimmed)) return NaN;
  if (!/^[+-]?(\d(_?\d)*(\.(\d(_?\d)*)?)?|\.\d(_?\d)*)([eE][+-]?\d(_?\d)*)?$/.test(trimmed)) {
    throw new Error(`line ${lineNo}: could not convert ${JSON.stringify(text)} to a number`);
  }
  return Number(trimmed.replaceAll("_", ""));
}

export function readPlannerPaths(text: string): Array<Array<[number, number]>> {
  const paths: Array<Array<[number, number]>> = [];
  let lineNo = 1;
  for (const block of text.split("@")) {
    const points: Array<[number, number]> = [];
    const lines = block.split("\n");
    lines.forEach((line, i) => {
      const fields = line.split(" ");
      const here = lineNo + i;
      if (fields.length < 2 || fields[0]!.includes("Robot")) return;
      points.push([pyFloatField(fields[0]!, here), pyFloatField(fields[1]!, here)]);
    });
    lineNo += lines.length - 1;
    if (points.length > 0 && reachesGoal(points[points.length - 1]!)) paths.push(points);
  }
  return paths;
}
