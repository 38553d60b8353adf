/**
 * Credentials written into a URL: user info (`http://user:pass@host`) and query parameters named
 * like keys (`?api-key=...`, `&sig=...`). `urlCredentials` gives the URL as it may be printed and
 * stored, and the secret values found in it, which join the API keys that `scrub` (secrets.ts)
 * redacts everywhere. `endpointTarget` gives what a request needs instead: fetch refuses URLs that
 * carry user info, so it becomes an Authorization header. Every scan is linear in the URL's length.
 */
import { REDACTED } from "./secrets.js";

/** A username with no password this long or longer is taken for a token (`https://<token>@host`). */
export const TOKEN_USERNAME = 16;

/** Words that make a parameter name a credential wherever they stand in it (`x-goog-api-key`, `X-Amz-Signature`). */
const CREDENTIAL_WORDS = new Set([
  "key", "apikey", "token", "secret", "password", "passwd", "pass", "pwd", "passphrase", "auth", "authorization",
  "sig", "signature", "code", "credential", "credentials", "jwt", "bearer", "session",
]);
/** Endings of a name written without separators (`apikey`, `authtoken`, `clientsecret`). */
const CREDENTIAL_ENDINGS = ["key", "token", "secret", "password", "signature"];

export interface UrlCredentials {
  /** The URL with its user info and its credential parameters' values replaced by "[redacted]". */
  shown: string;
  /** The values taken out, as written and percent-decoded, for `scrub` to redact wherever they appear. */
  secrets: string[];
}

/** `text` percent-decoded; as it is when it does not decode. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Lower-case words of a parameter name: split at anything not a letter or digit and where a lower-case letter meets an upper-case one. */
export function nameWords(name: string): string[] {
  const words: string[] = [];
  let word = "";
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    const alnum = (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9");
    const camel = c >= "A" && c <= "Z" && i > 0 && name[i - 1]! >= "a" && name[i - 1]! <= "z";
    if ((!alnum || camel) && word) {
      words.push(word);
      word = "";
    }
    if (alnum) word += c.toLowerCase();
  }
  if (word) words.push(word);
  return words;
}

/** Whether a query parameter of this name (percent-decoded, any case) carries a credential. */
export function isCredentialParam(name: string): boolean {
  const words = nameWords(decoded(name));
  if (words.some((w) => CREDENTIAL_WORDS.has(w))) return true;
  const compact = words.join("");
  return CREDENTIAL_ENDINGS.some((ending) => compact.endsWith(ending));
}

/** The value as written and, when it differs, percent-decoded. */
function spellings(value: string): string[] {
  const plain = decoded(value);
  return plain === value ? [value] : [value, plain];
}

/** Length of a leading "scheme:" (a letter, then letters, digits, "+", "-", "."), 0 for none. */
function schemeLength(url: string): number {
  for (let i = 0; i < url.length; i++) {
    const c = url[i]!;
    const letter = (c >= "a" && c <= "z") || (c >= "A" && c <= "Z");
    if (c === ":") return i > 0 ? i + 1 : 0;
    if (!letter && (i === 0 || !((c >= "0" && c <= "9") || c === "+" || c === "-" || c === "."))) return 0;
  }
  return 0;
}

/** `text` without trailing slashes (a loop: /\/+$/ backtracks on long runs of slashes). */
function trimSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === "/") end--;
  return text.slice(0, end);
}

/**
 * Where the authority (user info, host, port) is: after the scheme and its slashes, up to the first
 * "/", "\", "?" or "#". Without a scheme the text is read as starting with the authority.
 */
function authoritySpan(url: string): [number, number] {
  const scheme = schemeLength(url);
  let start = scheme;
  while (scheme > 0 && (url[start] === "/" || url[start] === "\\")) start++;
  let end = start;
  while (end < url.length && !"/\\?#".includes(url[end]!)) end++;
  return [start, end];
}

/**
 * The user info's span [from, to), `to` at its "@": the authority's part before its last "@". A URL
 * that does not parse is read more warily: everything from the first "//" to the last "@".
 */
function userInfoSpan(url: string): [number, number] | undefined {
  if (!URL.canParse(url)) {
    const slashes = url.indexOf("//");
    const at = url.lastIndexOf("@");
    if (slashes >= 0 && at >= slashes + 2) return [slashes + 2, at];
  }
  const [start, end] = authoritySpan(url);
  const at = end > start ? url.lastIndexOf("@", end - 1) : -1;
  return at >= start ? [start, at] : undefined;
}

/** The user info's secrets: the password, and the username beside a password or when long enough to be a token. */
function userInfoSecrets(userInfo: string): string[] {
  const colon = userInfo.indexOf(":");
  const user = colon < 0 ? userInfo : userInfo.slice(0, colon);
  const password = colon < 0 ? "" : userInfo.slice(colon + 1);
  const found = password ? spellings(password) : [];
  if (user && (password || user.length >= TOKEN_USERNAME)) found.push(...spellings(user));
  return found;
}

/** `params` ("a=1&key=2") with each credential parameter's value redacted; the values go to `secrets`. */
function redactParams(params: string, secrets: string[]): string {
  return params
    .split("&")
    .map((param) => {
      const eq = param.indexOf("=");
      if (eq < 0) return param;
      const value = param.slice(eq + 1);
      if (!value || !isCredentialParam(param.slice(0, eq))) return param;
      secrets.push(...spellings(value));
      return `${param.slice(0, eq + 1)}${REDACTED}`;
    })
    .join("&");
}

/** A URL's text before its query, its query (from the first "?" to the first "#") and its fragment, without "?" and "#". */
function splitQuery(url: string): { path: string; query?: string; fragment?: string } {
  const hash = url.indexOf("#");
  const beforeHash = hash >= 0 ? url.slice(0, hash) : url;
  const question = beforeHash.indexOf("?");
  return {
    path: question >= 0 ? beforeHash.slice(0, question) : beforeHash,
    ...(question >= 0 && { query: beforeHash.slice(question + 1) }),
    ...(hash >= 0 && { fragment: url.slice(hash + 1) }),
  };
}

/** The URL as it may be shown, and the secrets in it (see UrlCredentials). Never throws. */
export function urlCredentials(url: string): UrlCredentials {
  const secrets: string[] = [];
  const span = userInfoSpan(url);
  let head = "";
  let rest = url;
  if (span && span[1] > span[0]) {
    secrets.push(...userInfoSecrets(url.slice(span[0], span[1])));
    head = url.slice(0, span[0]) + REDACTED;
    rest = url.slice(span[1]);
  }
  // A fragment ("#access_token=...") is read as a query is.
  const { path, query, fragment } = splitQuery(rest);
  let shown = head + path;
  if (query !== undefined) shown += `?${redactParams(query, secrets)}`;
  if (fragment !== undefined) shown += `#${redactParams(fragment, secrets)}`;
  return { shown, secrets: [...new Set(secrets)] };
}

/** What a request to a base URL needs: fetch takes no user info, and paths go before the query. */
export interface EndpointTarget {
  /** The base URL without user info, query or fragment (no trailing slash): request paths are added to it. */
  base: string;
  /** The base URL's query without its "?" ("" for none), added to every request's URL. */
  query: string;
  /** `Basic <base64 of user:password>` for user info in the URL. */
  authorization?: string;
}

/** The request form of a base URL that parses (the caller checked it with `new URL`). */
export function endpointTarget(baseUrl: string): EndpointTarget {
  const parsed = new URL(baseUrl);
  const hasUser = parsed.username !== "" || parsed.password !== "";
  const span = hasUser ? userInfoSpan(baseUrl) : undefined;
  // The user info is cut out of the text as written ("@" included), so the rest keeps its spelling.
  const text = span ? baseUrl.slice(0, span[0]) + baseUrl.slice(span[1] + 1) : baseUrl;
  const { path, query = "" } = splitQuery(text);
  // Should the cut text not parse as meant, the parser's own form without credentials.
  const base = hasUser && carriesUser(trimSlashes(path)) ? withoutUser(parsed) : trimSlashes(path);
  if (!hasUser) return { base, query };
  const pair = `${decoded(parsed.username)}:${decoded(parsed.password)}`;
  return { base, query, authorization: `Basic ${Buffer.from(pair, "utf8").toString("base64")}` };
}

/** Whether `url` does not parse or still has user info. */
function carriesUser(url: string): boolean {
  if (!URL.canParse(url)) return true;
  const parsed = new URL(url);
  return parsed.username !== "" || parsed.password !== "";
}

/** The parser's form of a URL without user info, query or fragment. */
function withoutUser(parsed: URL): string {
  const copy = new URL(parsed.href);
  copy.username = "";
  copy.password = "";
  copy.search = "";
  copy.hash = "";
  return trimSlashes(copy.href);
}

/** `url` with `query` ("a=1&b=2") added to its own query, if any. */
export function withQuery(url: string, query: string): string {
  if (!query) return url;
  return `${url}${url.includes("?") ? "&" : "?"}${query}`;
}
