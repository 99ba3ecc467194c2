import { renderCallResult } from "../transports/sdk/render-call.js";

/** Sorts object keys recursively, as serde_json (built without preserve_order) emits them. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/**
 * What `cua-driver call` prints for a rebuilt result: the tool result is assembled as the runtime
 * returns it (text block, optional PNG block, structuredContent, isError) and rendered by the same
 * code that renders live SDK results.
 */
export function cliStdout(options: { structured?: Record<string, unknown>; text?: string; isError?: boolean; imageBase64?: string }): string {
  const content: Array<Record<string, unknown>> = [];
  if (options.text !== undefined) content.push({ type: "text", text: options.text });
  if (options.imageBase64) content.push({ type: "image", data: options.imageBase64, mimeType: "image/png" });
  const result = {
    content,
    ...(options.isError ? { isError: true } : {}),
    ...(options.structured ? { structuredContent: options.structured } : {}),
  };
  return renderCallResult({ rawJson: JSON.stringify(sortKeys(result)) }).stdout;
}
