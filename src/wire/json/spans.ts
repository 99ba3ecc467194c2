/**
 * The lazy side of the JSON engine: reads and edits JSON *text* by spans without parsing it into
 * a tree or JS values, so key order, float formatting (`1.0`) and string escapes survive and a
 * long base64 string is jumped over, not walked: the bytes a driver sent are the bytes a harness
 * gets. Printing as serde_json does (sorted, re-indented) is `tree.ts`'s job.
 */
import { compareKeys, serdeString } from "./string.js";

export interface Span {
  start: number;
  end: number;
}

const WS: ReadonlySet<string> = new Set([" ", "\t", "\n", "\r"]);

function skipWs(text: string, i: number): number {
  while (i < text.length && WS.has(text[i] as string)) i++;
  return i;
}

// text[i] is the opening quote; jumps from quote to quote (long base64 strings are the norm here)
function stringEnd(text: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q < 0) throw new SyntaxError("unterminated string in JSON text");
    let backslashes = 0;
    for (let k = q - 1; k > i && text.charCodeAt(k) === 92; k--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** Index just past the JSON value starting at or after `i` (leading whitespace skipped). */
export function valueEnd(text: string, i: number): number {
  i = skipWs(text, i);
  const c = text[i];
  if (c === '"') return stringEnd(text, i);
  if (c === "{" || c === "[") {
    let depth = 0;
    while (i < text.length) {
      const d = text[i];
      if (d === '"') {
        i = stringEnd(text, i);
        continue;
      }
      if (d === "{" || d === "[") depth++;
      else if (d === "}" || d === "]") {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    throw new SyntaxError("unterminated container in JSON text");
  }
  let j = i;
  while (j < text.length && !WS.has(text[j] as string) && text[j] !== "," && text[j] !== "}" && text[j] !== "]") j++;
  if (j === i) throw new SyntaxError(`unexpected ${c === undefined ? "end" : JSON.stringify(c)} in JSON text`);
  return j;
}

/** The value spans of a top-level JSON object's keys, in the order they appear. */
export function objectSpans(text: string, from = 0): Map<string, Span> {
  const spans = new Map<string, Span>();
  let i = skipWs(text, from);
  if (text[i] !== "{") throw new SyntaxError("JSON text is not an object");
  i = skipWs(text, i + 1);
  if (text[i] === "}") return spans;
  while (i < text.length) {
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipWs(text, keyEnd);
    if (text[i] !== ":") throw new SyntaxError("expected ':' in JSON object");
    const start = skipWs(text, i + 1);
    const end = valueEnd(text, start);
    spans.set(key, { start, end });
    i = skipWs(text, end);
    if (text[i] === "}") return spans;
    if (text[i] !== ",") throw new SyntaxError("expected ',' in JSON object");
    i = skipWs(text, i + 1);
  }
  throw new SyntaxError("unterminated JSON object");
}

/** The raw text of a top-level key's value, or undefined. */
export function rawMember(text: string, key: string): string | undefined {
  const span = objectSpans(text).get(key);
  return span ? text.slice(span.start, span.end) : undefined;
}

/** The elements of a top-level JSON array, as raw texts. */
export function arrayItems(text: string): string[] {
  let i = skipWs(text, 0);
  if (text[i] !== "[") throw new SyntaxError("JSON text is not an array");
  const items: string[] = [];
  i = skipWs(text, i + 1);
  if (text[i] === "]") return items;
  while (i < text.length) {
    const end = valueEnd(text, i);
    items.push(text.slice(skipWs(text, i), end));
    i = skipWs(text, end);
    if (text[i] === "]") return items;
    if (text[i] !== ",") throw new SyntaxError("expected ',' in JSON array");
    i = skipWs(text, i + 1);
  }
  throw new SyntaxError("unterminated JSON array");
}

/** Replace one span of `text`. */
export function spliceSpan(text: string, span: Span, replacement: string): string {
  return text.slice(0, span.start) + replacement + text.slice(span.end);
}

/** Drop insignificant whitespace, copying every token verbatim (key order included). */
export function compactRaw(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (WS.has(c)) {
      i++;
      continue;
    }
    if (c === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/**
 * Set a top-level key of a raw JSON object, keeping serde_json's sorted key order: an existing
 * key's value is replaced in place, a new key is inserted before the first larger key (in
 * BTreeMap order, `compareKeys`). The text's own keys are taken to be sorted already.
 */
export function setSortedMember(text: string, key: string, rawValue: string): string {
  const spans = objectSpans(text);
  const existing = spans.get(key);
  if (existing) return spliceSpan(text, existing, rawValue);
  const member = `${serdeString(key)}:${rawValue}`;
  for (const [k, span] of spans) {
    if (compareKeys(k, key) > 0) {
      const keyStart = text.lastIndexOf(`"${escapeForSearch(k)}"`, span.start);
      return `${text.slice(0, keyStart) + member},${text.slice(keyStart)}`;
    }
  }
  const close = text.lastIndexOf("}");
  return text.slice(0, close) + (spans.size > 0 ? "," : "") + member + text.slice(close);
}

/** Remove top-level keys from a raw JSON object. */
export function removeMembers(text: string, keys: readonly string[]): string {
  let out = text;
  for (const key of keys) {
    const spans = objectSpans(out);
    const span = spans.get(key);
    if (!span) continue;
    const keyStart = out.lastIndexOf(`"${escapeForSearch(key)}"`, span.start);
    let start = keyStart;
    let end = span.end;
    const after = skipWs(out, end);
    if (out[after] === ",") end = skipWs(out, after + 1);
    else {
      // last member: eat the comma before it instead
      let before = start - 1;
      while (before >= 0 && WS.has(out[before] as string)) before--;
      if (out[before] === ",") start = before;
    }
    out = out.slice(0, start) + out.slice(end);
  }
  return out;
}

function escapeForSearch(key: string): string {
  return JSON.stringify(key).slice(1, -1);
}
