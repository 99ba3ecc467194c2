import { EMPTIED_LOOKS, EMPTY_WINDOW_LIST, EMPTY_WINDOW_STATE_FIELDS, isScreenshotKey } from "#src/driver/result-shapes.js";
import { canonicalJson } from "#src/wire/json/canonical.js";
import { arrayItems, objectSpans, rawMember, removeMembers, setSortedMember } from "#src/wire/json/spans.js";

/**
 * The tool's own empty shape (docs/faults.md; the shapes are the driver model's, `src/driver/result-shapes.ts`): list_windows with no windows, get_window_state
 * with no elements and no image, get_desktop_state with no image, anything else empty content.
 * Built from the recorded result where there is one, so the remaining fields stay real.
 */
export function emptyResult(options: { tool: string; recorded?: string }): string {
  const { tool, recorded } = options;
  if (tool === "list_windows") return canonicalJson(EMPTY_WINDOW_LIST);
  if (EMPTIED_LOOKS.has(tool) && recorded && !isErrorResult(recorded)) {
    const content = rawMember(recorded, "content") ?? "[]";
    const texts = arrayItems(content).filter((item) => !isImageItem(item));
    let structured = rawMember(recorded, "structuredContent");
    if (structured) {
      const screenshotKeys = [...objectSpans(structured).keys()].filter(isScreenshotKey);
      structured = removeMembers(structured, screenshotKeys);
      if (tool === "get_window_state") {
        for (const [key, value] of Object.entries(EMPTY_WINDOW_STATE_FIELDS)) {
          if (objectSpans(structured).has(key)) structured = setSortedMember(structured, key, canonicalJson(value));
        }
      }
    }
    let out = setSortedMember(recorded, "content", `[${tool === "get_window_state" ? "" : texts.join(",")}]`);
    if (structured) out = setSortedMember(out, "structuredContent", structured);
    return out;
  }
  if (tool === "get_window_state") {
    return canonicalJson({ content: [], structuredContent: EMPTY_WINDOW_STATE_FIELDS });
  }
  return canonicalJson({ content: [] });
}

export function isImageItem(item: string): boolean {
  try {
    return rawMember(item, "type") === '"image"';
  } catch {
    return false;
  }
}

export function isErrorResult(raw: string): boolean {
  try {
    return rawMember(raw, "isError") === "true";
  } catch {
    return false;
  }
}
