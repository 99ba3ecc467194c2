import { REFUSAL, type WindowCandidate } from "#src/driver/refusals.js";
import { assertNever } from "#src/util/assert-never.js";
import { corruptResultImages } from "./corrupt-image.js";
import { emptyResult } from "./empty.js";
import { oversizeResult } from "./oversized.js";
import type { ResultFault } from "./fault-table.js";
import { refusalResult } from "./refusal.js";

export { isResultFault, type ResultFault } from "./fault-table.js";

/**
 * The raw result a harness gets under a result fault, built from the recorded one where useful;
 * `candidates` fills a target-style refusal (the engine's `Decision.candidates`).
 */
export function applyResultFault(options: {
  fault: ResultFault;
  tool: string;
  args: unknown;
  recorded?: string;
  candidates?: readonly WindowCandidate[];
}): string {
  const { fault, tool, recorded } = options;
  const args = options.args && typeof options.args === "object" ? (options.args as Record<string, unknown>) : {};
  switch (fault.kind) {
    case "refusal":
      return refusalResult({
        code: fault.code,
        tool,
        args,
        ...(fault.message !== undefined ? { message: fault.message } : {}),
        ...(options.candidates ? { candidates: options.candidates } : {}),
      });
    case "empty":
      return emptyResult({ tool, ...(recorded !== undefined ? { recorded } : {}) });
    case "corrupt_image":
      return recorded === undefined ? '{"content":[]}' : corruptResultImages(recorded).raw;
    case "oversized":
      return oversizeResult(recorded ?? '{"content":[]}', fault.bytes);
    case "session_expired":
      // the driver ended the session on its own (idle): the refusal an ended session gets
      return refusalResult({ code: REFUSAL.session_ended, tool, args });
    default:
      return assertNever(fault, "result fault");
  }
}

/** Cut text mid-way (default: keep half), the way a dying writer leaves it. */
export function truncateText(text: string, keep = 0.5): string {
  const n = Math.max(1, Math.floor(text.length * keep));
  return text.slice(0, Math.min(n, Math.max(0, text.length - 1)));
}

/** The daemon client's overall deadline before `call` gives up on a silent daemon (docs/reference/cua-driver-contract.md §6). */
export const CLI_DAEMON_DEADLINE_MS = 120_000;
