import { ELEMENT_TOKEN } from "#src/driver/element-token.js";
import type { ReplayRequest } from "./request.js";

/**
 * Which element tokens the driver still honours, as the replay has served snapshots. The driver keeps
 * only the newest snapshot per (pid, window_id), and tokens are scoped per runtime (docs/reference/cua-driver-contract.md §3.5):
 * an MCP process in direct mode owns its runtime, so a new `cua-driver mcp` stream starts with no
 * snapshot; the per-call CLI, HTTP and in-process calls share one runtime. A stale refusal (recorded,
 * or injected by a fault) retires its snapshot for good: the driver never honours a token of a look it
 * refused as stale, and every later read gives a new look (unless the recording itself shows a look
 * with that id again). Only tokens of snapshots this replay served
 * are judged: a token the harness did not learn here is left to the recording.
 */
export interface TokenState {
  /** Note a served result: a `get_window_state` answer makes its snapshot the window's newest in that runtime. */
  served(request: ReplayRequest, raw: string): void;
  /**
   * Note a refusal that retires the look a token-bearing request named (injected or recorded; the
   * codes are `TOKEN_RETIRING_CODES`): the driver never honours a token of that look again.
   */
  refused(request: ReplayRequest): void;
  /** Why the driver would refuse this request's element token now, or undefined when it would honour it. */
  staleReason(request: ReplayRequest): string | undefined;
  /** The element a token names in a snapshot this replay served: `[index] role "label"`. */
  servedElement(token: string): ElementIdentity | undefined;
}

/** What makes two elements of two snapshots the same element: its index, role and label. */
export interface ElementIdentity {
  index: number;
  role: string;
  label: string;
}

export const describeElement = (e: ElementIdentity): string => `[${e.index}] ${e.role} "${e.label}"`;

/** The elements of a get_window_state structured answer, by token. */
export function elementsOf(structuredContent: Record<string, unknown>): Map<string, ElementIdentity> {
  const out = new Map<string, ElementIdentity>();
  const elements = structuredContent.elements;
  if (!Array.isArray(elements)) return out;
  for (const e of elements as Record<string, unknown>[]) {
    if (typeof e?.element_token !== "string" || typeof e.element_index !== "number") continue;
    out.set(e.element_token, { index: e.element_index, role: String(e.role ?? ""), label: String(e.label ?? "") });
  }
  return out;
}

/** The runtime a request runs in: an MCP stdio stream owns one; every other transport shares the driver's. */
export function runtimeOf(request: ReplayRequest): string {
  return request.transport === "mcp" && request.stream !== undefined ? `mcp:${request.stream}` : "driver";
}

/** The snapshot an element-targeted request names (`element_token` `sXXXXXXXX:i`, or `snapshot_id`), and its window. */
export function snapshotOf(request: ReplayRequest): { snapshot: string; window: string } | undefined {
  const args = request.args;
  if (request.method !== "call" || !args || typeof args !== "object") return undefined;
  const a = args as Record<string, unknown>;
  const token = typeof a.element_token === "string" ? ELEMENT_TOKEN.exec(a.element_token)?.[1] : undefined;
  const snapshot = token ?? (typeof a.snapshot_id === "string" ? a.snapshot_id : undefined);
  if (snapshot === undefined) return undefined;
  return { snapshot, window: windowKey(a) };
}

function windowKey(a: Record<string, unknown>): string {
  const target = a.target && typeof a.target === "object" ? (a.target as Record<string, unknown>) : {};
  return `${String(a.pid ?? target.pid ?? "?")}:${String(a.window_id ?? target.window_id ?? "?")}`;
}

export function createTokenState(): TokenState {
  /** runtime → window → newest snapshot served there. */
  const newest = new Map<string, Map<string, string>>();
  /** snapshot → runtimes it was served in. */
  const servedIn = new Map<string, Set<string>>();
  /** snapshot → window, for every snapshot refused as stale (retired for good). */
  const retired = new Map<string, string>();
  /** token → element, for every snapshot served. */
  const elements = new Map<string, ElementIdentity>();

  return {
    served(request, raw) {
      if (request.method !== "call" || request.tool !== "get_window_state") return;
      const s = structured(raw);
      if (!s || typeof s.snapshot_id !== "string") return;
      const window = windowKey({ pid: s.pid, window_id: s.window_id });
      const runtime = runtimeOf(request);
      let windows = newest.get(runtime);
      if (!windows) newest.set(runtime, (windows = new Map()));
      windows.set(window, s.snapshot_id);
      let runtimes = servedIn.get(s.snapshot_id);
      if (!runtimes) servedIn.set(s.snapshot_id, (runtimes = new Set()));
      runtimes.add(runtime);
      // a recorded look that carries a retired id again (a driver that reuses ids) is the recording's truth
      retired.delete(s.snapshot_id);
      for (const [token, element] of elementsOf(s)) elements.set(token, element);
    },
    servedElement: (token) => elements.get(token),
    refused(request) {
      const named = snapshotOf(request);
      if (named) retired.set(named.snapshot, named.window);
    },
    staleReason(request) {
      const named = snapshotOf(request);
      if (!named) return undefined;
      const { snapshot, window } = named;
      if (retired.has(snapshot)) {
        return `snapshot ${snapshot} of window ${retired.get(snapshot)} was refused as stale earlier in this replay, and the driver never honours a token of a look it refused`;
      }
      const runtimes = servedIn.get(snapshot);
      if (!runtimes) return undefined;
      const runtime = runtimeOf(request);
      if (!runtimes.has(runtime)) {
        return `snapshot ${snapshot} was served by the runtime of ${[...runtimes].map(describe).join(", ")}, not by ${describe(runtime)} (tokens are scoped per runtime, and a new \`cua-driver mcp\` process starts with none)`;
      }
      const current = newest.get(runtime)?.get(window);
      if (current !== undefined && current !== snapshot) {
        return `the newest snapshot of window ${window} served since is ${current}, not ${snapshot} (the driver honours the newest snapshot of a window only)`;
      }
      return undefined;
    },
  };
}

function describe(runtime: string): string {
  return runtime.startsWith("mcp:") ? `MCP stream ${runtime.slice(4)}` : "the driver";
}

function structured(raw: string): Record<string, unknown> | undefined {
  try {
    const s = (JSON.parse(raw) as { structuredContent?: unknown }).structuredContent;
    return s && typeof s === "object" ? (s as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
