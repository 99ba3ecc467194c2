/**
 * Reading what `cua-driver call` and `list-tools` printed back into results: the inverse of
 * `render-call.ts`, as far as the bytes allow (docs/decisions/0010, 0039). Two readers of the same
 * bytes for two users: `parseCallStdout` gives the CLI adapter a ToolResult as a harness sees it
 * (the merged image stays in structuredContent too), `resultFromCliStdout` gives the replay the raw
 * result the driver most likely returned (the merged image moved back into its own block).
 */
import type { Reply, ToolResult } from "#src/driver/port.js";
import { STRUCTURED_ON_SUCCESS } from "#src/driver/catalogue.js";
import { daemonFailureKind } from "#src/driver/messages.js";
import { isRefusalEnvelope } from "#src/driver/refusals.js";
import { canonicalJson } from "#src/wire/json/canonical.js";
import { compactRaw, objectSpans, rawMember, removeMembers } from "#src/wire/json/spans.js";

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * Rebuilds a tool result from `cua-driver call` stdout (exit 0): pretty structuredContent when the
 * result had one (with the last image merged as `screenshot_png_b64`), else the text blocks.
 */
export function parseCallStdout(tool: string, stdout: string): ToolResult {
  const text = stdout.replace(/\n$/, "");
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    try {
      const structured: unknown = JSON.parse(trimmed);
      if (isRecord(structured)) {
        const result: ToolResult = { content: [{ type: "text", text }], structuredContent: structured, raw: stdout };
        if (typeof structured.screenshot_png_b64 === "string") {
          const mimeType = typeof structured.screenshot_mime_type === "string" ? structured.screenshot_mime_type : "image/png";
          result.content.push({ type: "image", data: structured.screenshot_png_b64, mimeType });
        }
        if (isRefusalEnvelope(structured)) result.isError = true;
        return result;
      }
    } catch {
      // not JSON after all: the text blocks
    }
  }
  const result: ToolResult = { content: [{ type: "text", text }], raw: stdout };
  if (STRUCTURED_ON_SUCCESS.has(tool)) result.isError = true;
  return result;
}

/**
 * A tool result, as raw JSON text, rebuilt from `cua-driver call` stdout and classified as
 * `parseCallStdout` does: pretty JSON becomes `structuredContent` (compacted token by token), a
 * merged `screenshot_png_b64` becomes an image block, plain text one text block; a refusal
 * envelope, or text-only output from a tool that always answers with structuredContent on
 * success, is `isError`.
 */
export function resultFromCliStdout(options: { stdout: string; tool: string }): string {
  const { stdout, tool } = options;
  const trimmed = stdout.replace(/\n$/, "");
  let structured: string | undefined;
  if (trimmed.startsWith("{")) {
    try {
      JSON.parse(trimmed);
      structured = compactRaw(trimmed);
    } catch {
      structured = undefined;
    }
  }
  if (structured === undefined) {
    const content = trimmed === "" ? [] : [{ text: trimmed, type: "text" }];
    return canonicalJson({ content, ...(trimmed !== "" && STRUCTURED_ON_SUCCESS.has(tool) ? { isError: true } : {}) });
  }
  const spans = objectSpans(structured);
  const blocks: string[] = [];
  const image = spans.get("screenshot_png_b64");
  if (image) {
    const mime = rawMember(structured, "screenshot_mime_type") ?? '"image/png"';
    blocks.push(`{"data":${structured.slice(image.start, image.end)},"mimeType":${mime},"type":"image"}`);
    structured = removeMembers(structured, ["screenshot_png_b64"]);
  }
  blocks.unshift(canonicalJson({ text: trimmed, type: "text" }));
  const refused = isRefusalEnvelope(JSON.parse(structured) as Record<string, unknown>);
  return `{"content":[${blocks.join(",")}]${refused ? ',"isError":true' : ""},"structuredContent":${structured}}`;
}

/** A non-zero exit of `cua-driver call`, from its stderr (docs/reference/cua-driver-contract.md §1.6 exit-code table). */
export function parseCallFailure(tool: string, exitCode: number, stderr: string): Reply {
  const message = stderr.trim();
  const failure = daemonFailureKind(message);
  if (failure) return { kind: failure, tool, message };
  return {
    content: [{ type: "text", text: message || `cua-driver call ${tool} exited ${exitCode}` }],
    structuredContent: { exit_code: exitCode },
    isError: true,
  };
}

/** `cua-driver list-tools` lines (`name: first sentence`, or just `name`). */
export function parseListTools(stdout: string): { name: string; description?: string }[] {
  return stdout
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => /^[a-z_][a-z0-9_]*(:|$)/.test(line))
    .map((line) => {
      const at = line.indexOf(":");
      if (at < 0) return { name: line };
      const description = line.slice(at + 1).trim();
      return description ? { name: line.slice(0, at), description } : { name: line.slice(0, at) };
    });
}
