/**
 * The per-run identifiers of cua-driver in a JSON text, found and rewritten in place: every other
 * byte stays as it was (the driver's sorted keys, pretty printing and `1.0` floats are kept).
 */
import { ELEMENT_TOKEN, SNAPSHOT_ID } from "#src/driver/element-token.js";

/** The identifier kinds a desktop run assigns afresh: process ids, window ids, snapshot ids. */
export type IdKind = "pid" | "window" | "snapshot";

/** Keys whose value is an identifier; an element token (`s00000001:18`) is a snapshot id and an index. */
const KEYS: Readonly<Record<string, IdKind | "token">> = { pid: "pid", window_id: "window", snapshot_id: "snapshot", element_token: "token" };

/** Keys whose string holds image bytes, never text to look into. */
const OPAQUE = new Set(["screenshot_png_b64", "data"]);

const TOKEN = ELEMENT_TOKEN;
const SNAPSHOT = SNAPSHOT_ID;

/**
 * Identifiers inside text (the tree text `window_id=… pid=…`, `[xid=…] pid=Some(…)`, `Clicked
 * element [18] (pid 29390).`, `Window target pid 1, window_id 1 is stale`).
 */
const TEXT_PATTERNS: readonly { kind: IdKind; re: RegExp }[] = [
  { kind: "pid", re: /\b(pid(?:=Some\(|=| ))(\d+)/g },
  { kind: "window", re: /\b((?:window_id|xid)(?:=| ))(\d+)/g },
  { kind: "snapshot", re: /\b()(s[0-9a-f]{8})\b/g },
];

/**
 * What to put in place of an identifier: the new value (digits, or `sXXXXXXXX`), or undefined to
 * keep it. `where` says whether it was the value of its key or a mention inside text.
 */
export type IdMapper = (kind: IdKind, value: string, where: "key" | "text") => string | undefined;

/** Rewrites the identifiers of a JSON text (or, when it is not JSON, of plain text). */
export function rewriteIds(text: string, map: IdMapper): string {
  const edits: { start: number; end: number; text: string }[] = [];
  try {
    const end = scanValue({ text, at: skip(text, 0), key: undefined, map, edits });
    if (skip(text, end) !== text.length) throw new SyntaxError("trailing text");
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return rewriteText(text, map);
  }
  let out = "";
  let at = 0;
  for (const e of edits) {
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

/** The identifiers a text names, by kind (keys and mentions in text alike). */
export function collectIds(text: string, into: Record<IdKind, Set<string>>): void {
  rewriteIds(text, (kind, value) => {
    into[kind].add(value);
    return undefined;
  });
}

export const emptyIdSets = (): Record<IdKind, Set<string>> => ({ pid: new Set(), window: new Set(), snapshot: new Set() });

function rewriteText(raw: string, map: IdMapper): string {
  let out = raw;
  for (const { kind, re } of TEXT_PATTERNS) {
    out = out.replace(re, (whole, prefix: string, value: string) => {
      const next = map(kind, value, "text");
      return next === undefined ? whole : `${prefix}${next}`;
    });
  }
  return out;
}

interface Scan {
  text: string;
  at: number;
  key: string | undefined;
  map: IdMapper;
  edits: { start: number; end: number; text: string }[];
}

function skip(text: string, at: number): number {
  while (at < text.length && (text[at] === " " || text[at] === "\n" || text[at] === "\r" || text[at] === "\t")) at++;
  return at;
}

/** Scans one JSON value starting at `at` (no leading space) and returns the index after it. */
function scanValue(s: Scan): number {
  const { text } = s;
  const c = text[s.at];
  if (c === "{") return scanObject(s);
  if (c === "[") {
    let at = skip(text, s.at + 1);
    if (text[at] === "]") return at + 1;
    for (;;) {
      at = skip(text, scanValue({ ...s, at }));
      if (text[at] === "]") return at + 1;
      if (text[at] !== ",") throw new SyntaxError("expected , or ]");
      at = skip(text, at + 1);
    }
  }
  if (c === '"') {
    const end = stringEnd(text, s.at);
    const raw = text.slice(s.at + 1, end - 1);
    const kind = s.key !== undefined ? KEYS[s.key] : undefined;
    let next: string | undefined;
    if (kind === "snapshot" && SNAPSHOT.test(raw)) next = s.map("snapshot", raw, "key");
    else if (kind === "token") {
      const m = TOKEN.exec(raw);
      const snapshot = m ? s.map("snapshot", m[1]!, "key") : undefined;
      if (snapshot !== undefined) next = `${snapshot}:${m![2]}`;
    } else if (!(s.key !== undefined && OPAQUE.has(s.key))) {
      const rewritten = rewriteText(raw, s.map);
      if (rewritten !== raw) next = rewritten;
    }
    if (next !== undefined && next !== raw) s.edits.push({ start: s.at + 1, end: end - 1, text: next });
    return end;
  }
  const m = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|^true|^false|^null/.exec(text.slice(s.at, s.at + 400));
  if (!m) throw new SyntaxError(`unexpected ${c ?? "end"}`);
  const kind = s.key !== undefined ? KEYS[s.key] : undefined;
  if ((kind === "pid" || kind === "window") && /^\d+$/.test(m[0])) {
    const next = s.map(kind, m[0], "key");
    if (next !== undefined && next !== m[0]) s.edits.push({ start: s.at, end: s.at + m[0].length, text: next });
  }
  return s.at + m[0].length;
}

function scanObject(s: Scan): number {
  const { text } = s;
  let at = skip(text, s.at + 1);
  if (text[at] === "}") return at + 1;
  for (;;) {
    if (text[at] !== '"') throw new SyntaxError("expected a key");
    const keyEnd = stringEnd(text, at);
    const key = JSON.parse(text.slice(at, keyEnd)) as string;
    at = skip(text, keyEnd);
    if (text[at] !== ":") throw new SyntaxError("expected :");
    at = skip(text, scanValue({ ...s, at: skip(text, at + 1), key }));
    if (text[at] === "}") return at + 1;
    if (text[at] !== ",") throw new SyntaxError("expected , or }");
    at = skip(text, at + 1);
  }
}

/** Index after the closing quote of the string opening at `at`. */
function stringEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === '"') return i + 1;
  }
  throw new SyntaxError("unterminated string");
}
