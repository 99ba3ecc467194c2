import { mcpConfigGuidance } from "#src/driver/mcp-config.js";
import type { RenderedText } from "./render-static.js";

/** `cua-driver mcp-config [--client NAME]` on stdout (exit 0), or its error on stderr (exit 2). */
export function renderMcpConfig(options: { client: string | undefined; binary: string }): RenderedText {
  const guidance = mcpConfigGuidance(options);
  return guidance.ok ? { stdout: `${guidance.text}\n`, stderr: "", exitCode: 0 } : { stdout: "", stderr: `${guidance.error}\n`, exitCode: 2 };
}
