import { VOLATILE_ARG_KEYS } from "#src/driver/catalogue.js";
import type { RequestEntry } from "#src/schema/replay-log.js";
import { canonicalJson } from "#src/wire/json/canonical.js";

/** Argument keys that name a session or a file path rather than what the call does (the driver model's list). */
const VOLATILE_KEYS: ReadonlySet<string> = new Set(VOLATILE_ARG_KEYS);

/**
 * Requests that ask the driver what it is (version, tool list, help, update check) rather than act
 * or observe: a client may send them on every start, so repeating them is never a retry.
 */
export const DISCOVERY_METHODS: ReadonlySet<string> = new Set([
  "--version",
  "--help",
  "initialize",
  "tools/list",
  "manifest",
  "list-tools",
  "describe",
  "check-update",
  "mcp-config",
  "status",
]);

export function isDiscovery(r: Pick<RequestEntry, "method">): boolean {
  return DISCOVERY_METHODS.has(r.method);
}

// Two requests are "the same request" when their method, tool and arguments are equal after sorting
// keys and dropping volatile keys; this is the identity the retry and replay invariants compare.
export function requestKey(r: Pick<RequestEntry, "method" | "tool" | "args">): string {
  return `${r.method} ${r.tool ?? ""} ${canonicalJson(withoutVolatile(r.args))}`;
}

/** The identity of a tool call by name and arguments (a `call` request's key). */
export function callKey(tool: string | undefined, args: unknown): string {
  return requestKey({ method: "call", tool, args });
}

// absent arguments are the empty object; only top-level keys are volatile
function withoutVolatile(args: unknown): unknown {
  if (args === undefined) return {};
  if (args === null || typeof args !== "object" || Array.isArray(args)) return args;
  return Object.fromEntries(Object.entries(args).filter(([k]) => !VOLATILE_KEYS.has(k)));
}
