/**
 * JSON as serde_json reads and writes it, without losing the original bytes of numbers and
 * strings: `cua-driver` re-emits results it parsed into `serde_json::Value`, so `1.0` must stay
 * `1.0` and keys come out sorted (serde_json is built without `preserve_order`).
 */
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
  constructor(what: string, readonly line: number, readonly column: number) {
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
export function serdePretty(node: SerdeNode, indent = ""): string {
  if (node.kind === "scalar") return node.raw;
  const inner = `${indent}  `;
  if (node.kind === "array") {
    if (node.items.length === 0) return "[]";
    return `[\n${node.items.map((item) => inner + serdePretty(item, inner)).join(",\n")}\n${indent}]`;
  }
  const entries = sortedEntries(node.entries);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map((e) => `${inner}${e.rawKey}: ${serdePretty(e.value, inner)}`).join(",\n")}\n${indent}}`;
}

/** `serde_json::to_string` of a parsed value: compact, sorted keys. */
export function serdeCompact(node: SerdeNode): string {
  if (node.kind === "scalar") return node.raw;
  if (node.kind === "array") return `[${node.items.map(serdeCompact).join(",")}]`;
  return `{${sortedEntries(node.entries).map((e) => `${e.rawKey}:${serdeCompact(e.value)}`).join(",")}}`;
}

/** A JSON string literal as serde_json escapes it (only `"`, `\`, and control characters). */
export function serdeString(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '"') out += '\\"';
    else if (char === "\\") out += "\\\\";
    else if (code < 0x20) out += CONTROL_ESCAPES[code] ?? `\\u${code.toString(16).padStart(4, "0")}`;
    else out += char;
  }
  return `${out}"`;
}

export function stringNode(value: string): SerdeNode {
  return { kind: "scalar", raw: serdeString(value) };
}

/** The decoded value of a string scalar, or undefined for anything else. */
export function stringValue(node: SerdeNode | undefined): string | undefined {
  if (!node || node.kind !== "scalar" || !node.raw.startsWith('"')) return undefined;
  return JSON.parse(node.raw) as string;
}

export function member(node: SerdeNode | undefined, key: string): SerdeNode | undefined {
  if (!node || node.kind !== "object") return undefined;
  let found: SerdeNode | undefined;
  for (const entry of node.entries) if (entry.key === key) found = entry.value;
  return found;
}

/** Sets `key` (replacing an existing one), as `Map::insert` does. */
export function setMember(node: SerdeNode & { kind: "object" }, key: string, value: SerdeNode): void {
  node.entries = node.entries.filter((e) => e.key !== key);
  node.entries.push({ key, rawKey: serdeString(key), value });
}

const CONTROL_ESCAPES: Record<number, string> = { 8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r" };

// BTreeMap<String, _> order: by UTF-8 bytes, which for strings is code point order.
function sortedEntries(entries: SerdeEntry[]): SerdeEntry[] {
  const last = new Map<string, SerdeEntry>();
  for (const entry of entries) last.set(entry.key, entry);
  return [...last.values()].sort((a, b) => compareCodePoints(a.key, b.key));
}

function compareCodePoints(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const diff = (left[i]!.codePointAt(0) ?? 0) - (right[i]!.codePointAt(0) ?? 0);
    if (diff !== 0) return diff;
  }
  return left.length - right.length;
}

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
    for (const word of ["true", "false", "null"]) {
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
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.pos));
    if (!match) this.fail("invalid number");
    this.pos += match[0].length;
    return match[0];
  }
}
