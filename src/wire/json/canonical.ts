import { compareKeys, serdeString } from "./string.js";
import { parseSerdeJson, serdePretty } from "./tree.js";

/**
 * The canonical text of a JS value: serde_json's compact form, object keys in BTreeMap order at
 * every depth (so `{"10":…,"2":…}` stays in that order, unlike `JSON.stringify`, which puts
 * integer-like keys first), members whose value is `undefined` dropped. Equal values give equal
 * text, and a value built here is printed as cua-driver would print it.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += (i > 0 ? "," : "") + canonicalJson(value[i]);
    return `${out}]`;
  }
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).filter((k) => record[k] !== undefined);
    keys.sort(compareKeys);
    let out = "{";
    for (let i = 0; i < keys.length; i++) out += `${i > 0 ? "," : ""}${serdeString(keys[i]!)}:${canonicalJson(record[keys[i]!])}`;
    return `${out}}`;
  }
  if (typeof value === "string") return serdeString(value);
  return JSON.stringify(value) ?? "null";
}

/** `serde_json::to_string_pretty` of a JS value: the canonical form, re-indented as serde does. */
export function canonicalPretty(value: unknown): string {
  return serdePretty(parseSerdeJson(canonicalJson(value)));
}
