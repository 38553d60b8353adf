/** Python 3.11 semantics the official evaluators rely on, for exact parity. */
export { pyJsonLoads, tryPyJsonLoads, pyDumpsIntList, pyToPlain, PyJsonError, type PyValue, type PyDict } from "./json.js";
export { pyInt, pyIntFromString } from "./int.js";
export { pyLiteralEval, LiteralSyntaxError, LiteralTypeError, LiteralRecursionError, type Literal } from "./literal.js";
export { pyRound } from "./round.js";
export { pyStrip, pyIsDigit, isPySpace, decimalValue } from "./text.js";
export { pyStr, pyFloatRepr, pyHashKey } from "./keys.js";
