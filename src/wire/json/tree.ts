/**
 * JSON as serde_json reads and writes it, as a tree: `cua-driver` re-emits results it parsed into
 * `serde_json::Value`, so `1.0` must stay `1.0`, strings come out as serde escapes them and keys
 * in BTreeMap order (serde_json is built without `preserve_order`). Numbers keep their source text
 * (what the driver itself emitted is already in serde's spelling). `spans.ts` is the lazy side of
 * the same engine, for reading and editing large texts without building a tree.
 */
import { compareKeys, serdeString } from "./string.js";

export type SerdeNode =
  | { kind: "object"; entries: SerdeEntry[] }
  | { kind: "array"; items: SerdeNode[] }
  /** A string, number, true, false or null, kept as its source text. */
  | { kind: "scalar"; raw: string };

export interface SerdeEntry {
  key: string;
  /** The key's source text, quotes included. */
  rawKey: string;
  value: SerdeNode;
}

/** A parse failure worded like serde_json's `Error` Display (`<what> at line L column C`). */
export class SerdeJsonError extends Error {
  constructor(
    what: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${what} at line ${line} column ${column}`);
    this.name = "SerdeJsonError";
  }
}

/** Parses `text`; duplicate keys keep the last value, as a serde_json map does. */
export function parseSerdeJson(text: string): SerdeNode {
  const parser = new Parser(text);
  parser.skipWhitespace();
  const value = parser.value();
  parser.skipWhitespace();
  if (parser.pos < text.length) parser.fail("trailing characters");
  return value;
}

/** `serde_json::to_string_pretty` of a parsed value: 2-space indent, sorted keys. */
export function serdePretty(node: SerdeNode): string {
  const out: string[] = [];
  writePretty(node, "", out);
  return out.join("");
}

/** `serde_json::to_string` of a parsed value: compact, sorted keys. */
export function serdeCompact(node: SerdeNode): string {
  const out: string[] = [];
  writeCompact(node, out);
  return out.join("");
}

function writePretty(node: SerdeNode, indent: string, out: string[]): void {
  if (node.kind === "scalar") {
    out.push(node.raw);
    return;
  }
  const inner = `${indent}  `;
  if (node.kind === "array") {
    if (node.items.length === 0) return void out.push("[]");
    out.push("[\n");
    node.items.forEach((item, i) => {
      out.push(i === 0 ? inner : `,\n${inner}`);
      writePretty(item, inner, out);
    });
    out.push(`\n${indent}]`);
    return;
  }
  const entries = sortedEntries(node.entries);
  if (entries.length === 0) return void out.push("{}");
  out.push("{\n");
  entries.forEach((e, i) => {
    out.push(i === 0 ? inner : `,\n${inner}`, e.rawKey, ": ");
    writePretty(e.value, inner, out);
  });
  out.push(`\n${indent}}`);
}

function writeCompact(node: SerdeNode, out: string[]): void {
  if (node.kind === "scalar") return void out.push(node.raw);
  if (node.kind === "array") {
    out.push("[");
    node.items.forEach((item, i) => {
      if (i > 0) out.push(",");
      writeCompact(item, out);
    });
    return void out.push("]");
  }
  out.push("{");
  sortedEntries(node.entries).forEach((e, i) => {
    out.push(i > 0 ? "," : "", e.rawKey, ":");
    writeCompact(e.value, out);
  });
  out.push("}");
}

export function stringNode(value: string): SerdeNode {
  return { kind: "scalar", raw: serdeString(value) };
}

/** The decoded value of a string scalar, or undefined for anything else. */
export function stringValue(node: SerdeNode | undefined): string | undefined {
  if (node?.kind !== "scalar" || !node.raw.startsWith('"')) return undefined;
  return JSON.parse(node.raw) as string;
}

export function member(node: SerdeNode | undefined, key: string): SerdeNode | undefined {
  if (node?.kind !== "object") return undefined;
  let found: SerdeNode | undefined;
  for (const entry of node.entries) if (entry.key === key) found = entry.value;
  return found;
}

/** Sets `key` (replacing an existing one), as `Map::insert` does. */
export function setMember(node: SerdeNode & { kind: "object" }, key: string, value: SerdeNode): void {
  node.entries = node.entries.filter((e) => e.key !== key);
  node.entries.push({ key, rawKey: serdeString(key), value });
}

// BTreeMap order; what serde_json emitted is already sorted and unique, and is kept as it is.
function sortedEntries(entries: SerdeEntry[]): SerdeEntry[] {
  let ordered = true;
  const seen = new Set<string>();
  for (let i = 0; i < entries.length; i++) {
    if (seen.has(entries[i]!.key) || (i > 0 && compareKeys(entries[i - 1]!.key, entries[i]!.key) >= 0)) ordered = false;
    seen.add(entries[i]!.key);
  }
  if (ordered) return entries;
  const last = new Map<string, SerdeEntry>();
  for (const entry of entries) last.set(entry.key, entry);
  return [...last.values()].sort((a, b) => compareKeys(a.key, b.key));
}

const WORDS = ["true", "false", "null"] as const;
// Sticky, so a number is matched in place instead of on a copy of the rest of the text.
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// A run of string characters that need no attention: no quote, backslash or control character.
const PLAIN_RUN = /[^"\\\u0000-\u001f]+/y;

class Parser {
  pos = 0;
  constructor(private readonly text: string) {}

  // serde reports the position of the last character it read (1-based), or the end of input.
  fail(what: string, at = this.pos + 1): never {
    const before = this.text.slice(0, Math.min(at, this.text.length));
    const line = before.split("\n").length;
    throw new SerdeJsonError(what, line, before.length - before.lastIndexOf("\n") - 1);
  }

  skipWhitespace(): void {
    while (this.pos < this.text.length && " \t\n\r".includes(this.text[this.pos]!)) this.pos++;
  }

  value(): SerdeNode {
    const char = this.text[this.pos];
    if (char === undefined) this.fail("EOF while parsing a value");
    if (char === "{") return this.object();
    if (char === "[") return this.array();
    if (char === '"') return { kind: "scalar", raw: this.string() };
    if (char === "-" || (char >= "0" && char <= "9")) return { kind: "scalar", raw: this.number() };
    for (const word of WORDS) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return { kind: "scalar", raw: word };
      }
    }
    if ("tfn".includes(char)) this.fail("expected ident", this.pos + 2);
    this.fail("expected value");
  }

  object(): SerdeNode {
    this.pos++;
    const entries: SerdeEntry[] = [];
    this.skipWhitespace();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return { kind: "object", entries };
    }
    for (;;) {
      this.skipWhitespace();
      const char = this.text[this.pos];
      if (char === undefined) this.fail("EOF while parsing an object");
      if (char !== '"') this.fail("key must be a string");
      const rawKey = this.string();
      this.skipWhitespace();
      if (this.text[this.pos] === undefined) this.fail("EOF while parsing an object");
      if (this.text[this.pos] !== ":") this.fail("expected `:`");
      this.pos++;
      this.skipWhitespace();
      entries.push({ key: JSON.parse(rawKey) as string, rawKey, value: this.value() });
      this.skipWhitespace();
      const next = this.text[this.pos];
      if (next === ",") {
        this.pos++;
        continue;
      }
      if (next === "}") {
        this.pos++;
        return { kind: "object", entries };
      }
      if (next === undefined) this.fail("EOF while parsing an object");
      this.fail("expected `,` or `}`");
    }
  }

  array(): SerdeNode {
    this.pos++;
    const items: SerdeNode[] = [];
    this.skipWhitespace();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return { kind: "array", items };
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.pos] === undefined) this.fail("EOF while parsing a list");
      items.push(this.value());
      this.skipWhitespace();
      const next = this.text[this.pos];
      if (next === ",") {
        this.pos++;
        continue;
      }
      if (next === "]") {
        this.pos++;
        return { kind: "array", items };
      }
      if (next === undefined) this.fail("EOF while parsing a list");
      this.fail("expected `,` or `]`");
    }
  }

  // Returns the literal re-escaped the way serde_json writes it, so unusual input escapes
  // (`\/`, `\u00e9`) come out as serde would print the parsed value.
  string(): string {
    const start = this.pos;
    this.pos++;
    let simple = true;
    while (this.pos < this.text.length) {
      PLAIN_RUN.lastIndex = this.pos;
      if (PLAIN_RUN.exec(this.text)) this.pos = PLAIN_RUN.lastIndex;
      if (this.pos >= this.text.length) break;
      const char = this.text[this.pos]!;
      if (char === '"') {
        this.pos++;
        const raw = this.text.slice(start, this.pos);
        return simple ? raw : serdeString(this.decode(raw, start));
      }
      if (char === "\\") {
        simple = simple && /^\\["\\bfnrt]$/.test(this.text.slice(this.pos, this.pos + 2));
        this.pos += 2;
        continue;
      }
      if (char.charCodeAt(0) < 0x20) this.fail("control character (\\u0000-\\u001F) found while parsing a string");
      this.pos++;
    }
    this.fail("EOF while parsing a string");
  }

  decode(raw: string, start: number): string {
    try {
      return JSON.parse(raw) as string;
    } catch {
      this.fail("invalid escape", start + 2);
    }
  }

  number(): string {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (!match) this.fail("invalid number");
    this.pos += match[0].length;
    return match[0];
  }
}
