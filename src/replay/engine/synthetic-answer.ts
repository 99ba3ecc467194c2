import { refusalResult } from "../../faults/refusal.js";
import { permissionDeniedText } from "../../transports/sdk/tool-names.js";
import { serdeJson } from "./canonical-json.js";
import type { Decision, SyntheticAnswer } from "./engine.js";

/** The raw tool result (`{"content":…,"isError":true,"structuredContent":…}`) of an answer the driver gives by rule. */
export function syntheticResult(options: { synthetic: SyntheticAnswer; decision: Decision }): string {
  const { decision, synthetic } = options;
  const tool = decision.request.tool ?? "";
  if (synthetic.kind === "permission_denied") {
    // MCP direct (CONTRACT.md §0.5): authorization runs before the tool lookup
    return serdeJson({ content: [{ text: permissionDeniedText(tool), type: "text" }], isError: true, structuredContent: { code: "permission_denied" } });
  }
  const args = decision.request.args && typeof decision.request.args === "object" ? (decision.request.args as Record<string, unknown>) : {};
  return refusalResult({ code: "session_ended", tool, args });
}

/** What `cua-driver call` prints for an unclassified tool: stderr and exit 1, nothing on stdout. */
export function permissionDeniedCli(tool: string): { stderr: string; exitCode: number } {
  return { stderr: `${permissionDeniedText(tool)}\n`, exitCode: 1 };
}
