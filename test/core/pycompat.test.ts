import assert from "node:assert/strict";
import { test } from "node:test";
import { pyJsonLoads, PyJsonError } from "../../src/core/pycompat/json.js";
import { pyInt, pyIntFromString } from "../../src/core/pycompat/int.js";
import { pyLiteralEval, LiteralSyntaxError, LiteralTypeError } from "../../src/core/pycompat/literal.js";
import { pyRound } from "../../src/core/pycompat/round.js";
import { pyIsDigit, pyStrip } from "../../src/core/pycompat/text.js";
import { pyFloatRepr, pyHashKey, pyStr } from "../../src/core/pycompat/keys.js";

// Expected values below are Python 3.11 outputs, worked out by hand from the language definition.

test("round() ties go to even on the exact binary value", () => {
  assert.equal(pyRound(0.03125, 4), 0.0312); // exactly representable tie -> even
  assert.equal(pyRound(0.15625, 4), 0.1562);
  assert.equal(pyRound(0.84375, 4), 0.8438); // tie, 7 is odd -> up
  assert.equal(pyRound(2 / 3, 4), 0.6667);
  assert.equal(pyRound(0.12345, 4), 0.1235); // 0.12345 is stored slightly above the tie
  assert.equal(pyRound(1, 4), 1);
  assert.equal(pyRound(0, 4), 0);
});

test("str.strip uses Python's whitespace set", () => {
  assert.equal(pyStrip("\u00a0\u3000 [1]\x1c\x85"), "[1]");
  assert.equal(pyStrip("\ufeff[1]"), "\ufeff[1]"); // BOM is not whitespace in Python
  assert.equal(pyStrip("\u200b[1]"), "\u200b[1]");
});

test("int() of strings", () => {
  assert.equal(pyIntFromString(" 7 "), 7n);
  assert.equal(pyIntFromString("007"), 7n);
  assert.equal(pyIntFromString("+3"), 3n);
  assert.equal(pyIntFromString("-0"), 0n);
  assert.equal(pyIntFromString("1_0"), 10n);
  assert.equal(pyIntFromString("1__0"), null);
  assert.equal(pyIntFromString("_1"), null);
  assert.equal(pyIntFromString("- 3"), null);
  assert.equal(pyIntFromString("7.5"), null);
  assert.equal(pyIntFromString("\u0663"), 3n); // ARABIC-INDIC DIGIT THREE
  assert.equal(pyIntFromString("\u00b2"), null); // superscript two: isdigit() but not int()
  assert.equal(pyIntFromString("\u00a07\u2003"), 7n);
  assert.equal(pyIntFromString("1".repeat(4300))?.toString().length, 4300);
  assert.equal(pyIntFromString("1".repeat(4301)), null);
});

test("int() of decoded JSON values", () => {
  assert.equal(pyInt(3.9), 3n);
  assert.equal(pyInt(-0.5), 0n);
  assert.equal(pyInt(true), 1n);
  assert.equal(pyInt(1e20), 100000000000000000000n);
  assert.equal(pyInt(NaN), null);
  assert.equal(pyInt(Infinity), null);
  assert.equal(pyInt(null), null);
  assert.equal(pyInt([1]), null);
});

test("str.isdigit accepts superscripts and other digit characters", () => {
  assert.equal(pyIsDigit("123"), true);
  assert.equal(pyIsDigit("\u00b2"), true);
  assert.equal(pyIsDigit("\u2460"), true); // circled digit one
  assert.equal(pyIsDigit(""), false);
  assert.equal(pyIsDigit("1_0"), false);
});

test("json.loads: Python extensions and strictness", () => {
  assert.deepEqual(pyJsonLoads(" [1, 2.5, true, null] "), [1n, 2.5, true, null]);
  const special = pyJsonLoads("[NaN, Infinity, -Infinity]") as number[];
  assert.ok(Number.isNaN(special[0]));
  assert.equal(special[1], Infinity);
  assert.equal(special[2], -Infinity);
  assert.deepEqual(pyJsonLoads("123456789012345678901234567890"), 123456789012345678901234567890n);
  assert.equal(pyJsonLoads("1E400"), Infinity);
  assert.equal(pyJsonLoads("-0"), 0n);
  assert.equal(pyJsonLoads('"\\ud83d\\ude00"'), "\u{1f600}");
  for (const bad of ["", "[1,]", "[1]]", "\ufeff[1]", "'a'", '"a\nb"', "[01]", "1.", "- 1", "{1: 2}", "[1] x", `${"1".repeat(4301)}`]) {
    assert.throws(() => pyJsonLoads(bad), PyJsonError, bad);
  }
  const obj = pyJsonLoads('{"display_ids": [3], "display_ids": [4]}');
  assert.ok(obj instanceof Map);
  assert.deepEqual(obj.get("display_ids"), [4n]); // last duplicate key wins
});

test("ast.literal_eval subset", () => {
  assert.deepEqual(pyLiteralEval("[1, 2,]"), [1n, 2n]);
  assert.deepEqual(pyLiteralEval("[0x1F, 0o7, 0b11, 1_0, -3, +4]"), [31n, 7n, 3n, 10n, -3n, 4n]);
  assert.deepEqual(pyLiteralEval("['a' 'b', \"c\\x41\", r'\\n']"), ["ab", "cA", "\\n"]);
  assert.deepEqual(pyLiteralEval("[True, None, 3.0]"), [true, null, 3]);
  const dict = pyLiteralEval("{'display_ids': [1, 2]}  # comment");
  assert.ok(dict instanceof Map);
  assert.deepEqual(dict.get("display_ids"), [1n, 2n]);
  assert.deepEqual(pyLiteralEval("(1, 2)"), { opaque: "tuple", items: [1n, 2n] });
  assert.equal(pyLiteralEval("(5)"), 5n);
  for (const bad of ["[01]", "[true]", "[1 2]", "f'x'", "[-(-1)]", "[1+2]", "x", "[1]\n[2]", "[-True]"]) {
    assert.throws(() => pyLiteralEval(bad), LiteralSyntaxError, bad);
  }
  assert.throws(() => pyLiteralEval("{[1]: 2}"), LiteralTypeError);
  assert.throws(() => pyLiteralEval("{1, [2]}"), LiteralTypeError);
  assert.deepEqual(pyLiteralEval("1 + 2j"), { opaque: "complex" });
});

test("ids as Python dict keys and str()", () => {
  assert.equal(pyHashKey(1n), pyHashKey(1.0));
  assert.equal(pyHashKey(true), pyHashKey(1n));
  assert.notEqual(pyHashKey("1"), pyHashKey(1n));
  assert.equal(pyHashKey([1n]), undefined);
  assert.equal(pyStr(5), "5");
  assert.equal(pyStr(null), "None");
  assert.equal(pyStr(true), "True");
  assert.equal(pyFloatRepr(0.5), "0.5");
  assert.equal(pyFloatRepr(1e16), "1e+16");
  assert.equal(pyFloatRepr(1.5e-5), "1.5e-05");
  assert.equal(pyFloatRepr(123.0), "123.0");
});

test("float() of strings", async () => {
  const { pyFloat } = await import("../../src/core/pycompat/float.js");
  assert.equal(pyFloat("\x851.5"), 1.5);
  assert.equal(pyFloat("\x1c1.5"), null); // ASCII control characters are not stripped
  assert.equal(pyFloat("1_0.5"), 10.5);
  assert.equal(pyFloat("1__0.5"), null);
  assert.equal(pyFloat(".5"), 0.5);
  assert.equal(pyFloat("5."), 5);
  assert.equal(pyFloat("_1.5"), null);
  assert.equal(pyFloat("1e5"), 100000);
  assert.equal(pyFloat("1_e5"), null);
  assert.equal(pyFloat("infinity"), Infinity);
  assert.ok(Number.isNaN(pyFloat("-nan")));
  assert.equal(pyFloat("in f"), null);
  assert.equal(pyFloat(null), null);
});
