/** Argument keys that name a session or a file path rather than what the call does. */
const VOLATILE_KEYS = new Set(["session", "screenshot_out_file"]);

// Two calls are "the same call" when their arguments are equal after sorting keys and dropping
// volatile keys; this is the identity the retry and replay invariants compare.
export function callKey(tool: string | undefined, args: unknown): string {
  return `${tool ?? "?"} ${canonical(args, true)}`;
}

function canonical(value: unknown, top: boolean): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, false)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value as Record<string, unknown>)
      .filter((k) => !(top && VOLATILE_KEYS.has(k)))
      .sort();
    const parts = keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k], false)}`);
    return `{${parts.join(",")}}`;
  }
  return value === undefined ? "{}" : JSON.stringify(value);
}
