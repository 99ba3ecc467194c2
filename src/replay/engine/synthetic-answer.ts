import { refusalResult } from "../../faults/refusal.js";
import type { Decision, SyntheticAnswer } from "./engine.js";

/** The raw tool result (`{"content":…,"isError":true,"structuredContent":…}`) of an answer the driver gives by rule. */
export function syntheticResult(options: { synthetic: SyntheticAnswer; decision: Decision }): string {
  const { decision } = options;
  const tool = decision.request.tool ?? "";
  const args = decision.request.args && typeof decision.request.args === "object" ? (decision.request.args as Record<string, unknown>) : {};
  return refusalResult({ code: "session_ended", tool, args });
}
