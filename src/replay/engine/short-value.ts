/**
 * A value as a message shows it: its JSON when short, else the first characters, the length and a
 * fingerprint of the whole (an unmatched 15 MB argument must not put 15 MB on stderr, and two
 * long values still compare by their fingerprints).
 */
export const SHORT_VALUE_CHARS = 80;

export function shortValue(value: unknown): string {
  if (value === undefined) return "(absent)";
  const json = JSON.stringify(value) ?? String(value);
  if (json.length <= SHORT_VALUE_CHARS) return json;
  return `${json.slice(0, SHORT_VALUE_CHARS - 20)}… (${json.length} chars, fnv1a ${fnv1a(json)})`;
}

/** FNV-1a, 32 bits, over the UTF-16 code units, as 8 hex digits. */
export function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}
