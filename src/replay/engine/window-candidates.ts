import type { WindowCandidate } from "#src/driver/refusals.js";
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
  let latest: { x: RecordedExchange; windows: Record<string, unknown>[] } | undefined;
  // epochs never decrease in recorded order: from the end, nothing before an earlier epoch can be later
  for (let i = exchanges.length - 1; i >= 0; i--) {
    const x = exchanges[i]!;
    if (latest && x.epoch < latest.x.epoch) break;
    if (x.request.method !== "call" || x.request.tool !== "list_windows" || x.epoch > epoch) continue;
    // the first found from the end is the latest in file order (seq is no position once record-missing has added calls)
    if (latest) break;
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
