/** Canonical JSON: object keys sorted at every depth, so equal requests compare equal as text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/** JSON text in serde_json's compact form for values we build ourselves (keys sorted). */
export function serdeJson(value: unknown): string {
  return canonicalJson(value);
}
