import { refusalHas, refusalMessage, refusalStructured, type WindowCandidate } from "#src/driver/refusals.js";
import { canonicalJson } from "#src/wire/json/canonical.js";

/**
 * A tool-result refusal in the envelope the driver uses for its code (the refusal table,
 * `src/driver/refusals.ts`). Always `isError: true`.
 */

/** Whether a code's envelope lists the pid's candidate windows. */
export function listsCandidates(code: string): boolean {
  return refusalHas(code, "lists-candidates");
}

/**
 * The raw result JSON (`{"content":…,"isError":true,"structuredContent":…}`) of a refusal.
 * `candidates`: the requested pid's windows as last known (target-style codes only; default none).
 */
export function refusalResult(options: {
  code: string;
  tool: string;
  args: Record<string, unknown>;
  message?: string;
  candidates?: readonly WindowCandidate[];
}): string {
  const { code, tool, args } = options;
  const message = options.message ?? refusalMessage(code, tool, args);
  const structured = refusalStructured({ code, message, args, candidates: options.candidates });
  return canonicalJson({ content: [{ text: message, type: "text" }], isError: true, structuredContent: structured });
}
