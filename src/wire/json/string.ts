/**
 * How serde_json writes a string and orders an object's keys. cua-driver's serde_json is built
 * without `preserve_order`, so every `serde_json::Value` object is a `BTreeMap<String, Value>`:
 * keys come out in `String`'s `Ord`, which compares UTF-8 bytes, which is code point order.
 */

/** A JSON string literal as serde_json escapes it (only `"`, `\`, and control characters). */
export function serdeString(value: string): string {
  // JSON.stringify escapes the same characters the same way, and lone surrogates besides
  // (which a Rust string cannot hold): take the slow path only when it wrote one of those.
  const quick = JSON.stringify(value);
  return LONE_SURROGATE_ESCAPE.test(quick) ? escapeEach(value) : quick;
}

const LONE_SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

function escapeEach(value: string): string {
  let out = '"';
  let from = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0x20 && code !== 0x22 && code !== 0x5c) continue;
    out += value.slice(from, i);
    out += code === 0x22 ? '\\"' : code === 0x5c ? "\\\\" : (CONTROL_ESCAPES[code] ?? `\\u${code.toString(16).padStart(4, "0")}`);
    from = i + 1;
  }
  return `${out}${value.slice(from)}"`;
}

const CONTROL_ESCAPES: Record<number, string> = { 8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r" };

/** BTreeMap<String, _> key order: by code point (UTF-8 byte order), not by UTF-16 code unit. */
export function compareKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // UTF-16 order equals code point order except where a surrogate meets U+E000..U+FFFF.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
