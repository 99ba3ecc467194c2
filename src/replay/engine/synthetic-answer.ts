import { refusalResult } from "#src/faults/refusal.js";
import { permissionDeniedText } from "#src/driver/messages.js";
import { REFUSAL } from "#src/driver/refusals.js";
import { canonicalJson } from "#src/wire/json/canonical.js";
import { sessionEndedGuardText } from "./session-lifecycle.js";
import type { Decision, SyntheticAnswer } from "./engine.js";

/** The raw tool result (`{"content":…,"isError":true,"structuredContent":…}`) of an answer the driver gives by rule. */
export function syntheticResult(options: { synthetic: SyntheticAnswer; decision: Decision }): string {
  const { decision, synthetic } = options;
  const tool = decision.request.tool ?? "";
  if (synthetic.kind === "permission_denied") {
    // MCP direct (docs/reference/cua-driver-contract.md §0.5): authorization runs before the tool lookup
    return canonicalJson({ content: [{ text: permissionDeniedText(tool), type: "text" }], isError: true, structuredContent: { code: "permission_denied" } });
  }
  const args = decision.request.args && typeof decision.request.args === "object" ? (decision.request.args as Record<string, unknown>) : {};
  return refusalResult({ code: REFUSAL.session_ended, tool, args });
}

/**
 * What `cua-driver call` prints for an answer by rule: the daemon's `ok:false` as stderr and exit 1
 * (an unclassified tool; a call on an ended session is stopped by the daemon's guard first).
 */
export function cliRuleFailure(options: { synthetic: SyntheticAnswer; tool: string }): { stderr: string; exitCode: number } {
  const { synthetic, tool } = options;
  const text = synthetic.kind === "permission_denied" ? permissionDeniedText(tool) : sessionEndedGuardText(synthetic.label, tool);
  return { stderr: `${text}\n`, exitCode: 1 };
}
