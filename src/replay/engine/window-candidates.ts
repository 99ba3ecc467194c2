import type { WindowCandidate } from "#src/faults/refusal.js";
import type { RecordedExchange } from "./exchanges.js";
import { recordedOutcome } from "./tool-result.js";

const CANDIDATE_KEYS = ["app_name", "is_on_screen", "title", "window_id"] as const;

/**
 * The windows of `pid` a target-style refusal lists, taken from the cassette alone: the latest
 * recorded `list_windows` answer (highest epoch, then latest in file order: seq is no position once
 * record-missing has added calls) at or before `epoch`. Nothing
 * is invented: no such answer, or no window of that pid in it, gives `[]`.
 */
export function windowCandidates(options: { exchanges: readonly RecordedExchange[]; epoch: number; pid: number }): WindowCandidate[] {
  const { exchanges, epoch, pid } = options;
  // epochs never decrease in recorded order: the list_windows calls at or before `epoch` end at a
  // place found by binary search; from there back, the first that lists windows is the latest
  const calls = listWindowsCalls(exchanges);
  let lo = 0;
  let hi = calls.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (calls[mid]!.epoch <= epoch) lo = mid + 1;
    else hi = mid;
  }
  let latest: { x: RecordedExchange; windows: Record<string, unknown>[] } | undefined;
  for (let i = lo - 1; i >= 0 && !latest; i--) {
    const x = calls[i]!;
    const windows = listedWindows(x);
    if (windows) latest = { x, windows };
  }
  if (!latest) return [];
  return latest.windows
    .filter((w) => w.pid === pid)
    .map((w) => {
      const out: WindowCandidate = {};
      for (const key of CANDIDATE_KEYS) if (w[key] !== undefined) out[key] = w[key];
      return out;
    });
}

const listCalls = new WeakMap<readonly RecordedExchange[], { length: number; calls: RecordedExchange[] }>();

/** The recorded list_windows calls in recorded order (found once per list of exchanges). */
function listWindowsCalls(exchanges: readonly RecordedExchange[]): RecordedExchange[] {
  const known = listCalls.get(exchanges);
  if (known && known.length === exchanges.length) return known.calls;
  const calls = exchanges.filter((x) => x.request.method === "call" && x.request.tool === "list_windows");
  listCalls.set(exchanges, { length: exchanges.length, calls });
  return calls;
}

/** The `windows` of a successful recorded list_windows result, or undefined when it has none. */
function listedWindows(x: RecordedExchange): Record<string, unknown>[] | undefined {
  const outcome = recordedOutcome(x);
  if (outcome.type !== "result") return undefined;
  try {
    const value = JSON.parse(outcome.raw) as { isError?: boolean; structuredContent?: { windows?: unknown } };
    const windows = value.structuredContent?.windows;
    if (value.isError || !Array.isArray(windows)) return undefined;
    return windows.filter((w): w is Record<string, unknown> => w !== null && typeof w === "object");
  } catch {
    return undefined;
  }
}
