import type { ToolResult } from "#src/driver/port.js";
import { classifyActionResult } from "#src/harness/core/verdict.js";
import { readReplyFields } from "#src/harness/core/reply-fields.js";
import type { ReportVerdict } from "./model.js";

const MAX = 140;

function clip(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > MAX ? `${one.slice(0, MAX - 1)}…` : one;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** One line saying what a tool result amounts to: refusal code, effect and route, or what was observed. */
export function summarizeResult(result: ToolResult): { summary: string; isError: boolean } {
  const fields = readReplyFields(result);
  const s = record(result.structuredContent) ?? {};
  if (fields.isError || fields.code) {
    const code = fields.code ? `${fields.code}: ` : "";
    return { summary: clip(`${fields.isError ? "error " : ""}${code}${fields.message ?? ""}`), isError: fields.isError };
  }
  if (typeof s.effect === "string") {
    const delivery = record(s.delivery)?.mode;
    const escalation = record(s.escalation);
    const parts = [`effect ${s.effect}`, `route ${String(s.route ?? "?")}`];
    if (typeof delivery === "string") parts.push(`delivery ${delivery}`);
    if (escalation) parts.push(`escalation ${String(escalation.reason ?? "?")} → ${String(escalation.target ?? escalation.recommended ?? "?")}`);
    return { summary: parts.join(", "), isError: false };
  }
  if (Array.isArray(s.windows)) return { summary: `${s.windows.length} window${s.windows.length === 1 ? "" : "s"}`, isError: false };
  if (typeof s.element_count === "number") {
    const size = typeof s.screenshot_width === "number" ? `, ${s.screenshot_width}×${String(s.screenshot_height)} image` : "";
    const title = typeof s.tree_markdown === "string" ? /^- \w[\w ]* = "([^"]*)"/.exec(s.tree_markdown)?.[1] : undefined;
    return { summary: `${s.element_count} elements${size}${title ? `, "${clip(title)}"` : ""}`, isError: false };
  }
  // MCP results that are not tool results: initialize and tools/list.
  const whole = result as unknown as Record<string, unknown>;
  if (Array.isArray(whole.tools)) return { summary: `${whole.tools.length} tools`, isError: false };
  const server = record(whole.serverInfo);
  if (server) return { summary: `${String(server.name)} ${String(server.version)}, protocol ${String(whole.protocolVersion)}`, isError: false };
  const keys = Object.keys(s);
  if (keys.length > 0) return { summary: clip(keys.map((k) => `${k}: ${short(s[k])}`).join(", ")), isError: false };
  const text = result.content.find((b) => b.type === "text" && typeof b.text === "string") as { text: string } | undefined;
  return { summary: text ? clip(text.text) : "(empty result)", isError: false };
}

function short(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  return Array.isArray(value) ? `[${value.length}]` : "{…}";
}

/** The reference harness's verdict on a mutation's result (harness/core `classifyActionResult`). */
export function verdictOf(result: Parameters<typeof classifyActionResult>[0], tool?: string): ReportVerdict {
  const v = classifyActionResult(result, tool ? { tool } : {});
  return { decision: v.decision, outcome: v.outcome, note: v.note };
}
