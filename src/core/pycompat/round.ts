/**
 * Python's round(x, ndigits) for floats: the exact binary value of x rounded to ndigits decimals,
 * ties to even. (Number.prototype.toFixed rounds ties away from zero, so it differs on values such
 * as 0.03125.)
 */
export function pyRound(x: number, ndigits: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  if (Math.abs(x) >= 1e21) return x;
  // toFixed(100) gives the exact decimal expansion of doubles of the magnitudes used here.
  const exact = Math.abs(x).toFixed(100);
  const [intPart, fracPart = ""] = exact.split(".");
  const kept = fracPart.slice(0, ndigits);
  const rest = fracPart.slice(ndigits);
  let digits = BigInt(intPart! + kept);
  const first = rest[0] ?? "0";
  const tail = rest.slice(1).replace(/0+$/, "");
  const roundUp = first > "5" || (first === "5" && (tail.length > 0 || digits % 2n === 1n));
  if (roundUp) digits += 1n;
  const text = digits.toString().padStart(ndigits + 1, "0");
  const decimal = `${text.slice(0, text.length - ndigits)}.${text.slice(text.length - ndigits)}`;
  const value = Number(decimal);
  return x < 0 ? -value : value;
}
