import { canonicalJson } from "#src/wire/json/canonical.js";
import { arrayItems, objectSpans, rawMember, removeMembers, setSortedMember } from "#src/wire/json/spans.js";

/**
 * The tool's own empty shape (docs/faults.md): list_windows with no windows, get_window_state
 * with no elements and no image, get_desktop_state with no image, anything else empty content.
 * Built from the recorded result where there is one, so the remaining fields stay real.
 */
export function emptyResult(options: { tool: string; recorded?: string }): string {
  const { tool, recorded } = options;
  if (tool === "list_windows") {
    return canonicalJson({ content: [{ text: "Found 0 windows:", type: "text" }], structuredContent: { windows: [] } });
  }
  if ((tool === "get_window_state" || tool === "get_desktop_state") && recorded && !isErrorResult(recorded)) {
    const content = rawMember(recorded, "content") ?? "[]";
    const texts = arrayItems(content).filter((item) => !isImageItem(item));
    let structured = rawMember(recorded, "structuredContent");
    if (structured) {
      const screenshotKeys = [...objectSpans(structured).keys()].filter((k) => k.startsWith("screenshot_"));
      structured = removeMembers(structured, screenshotKeys);
      if (tool === "get_window_state") {
        for (const key of ["element_count", "returned_element_count", "total_element_count"]) {
          if (objectSpans(structured).has(key)) structured = setSortedMember(structured, key, "0");
        }
        if (objectSpans(structured).has("elements")) structured = setSortedMember(structured, "elements", "[]");
        if (objectSpans(structured).has("tree_markdown")) structured = setSortedMember(structured, "tree_markdown", '""');
      }
    }
    let out = setSortedMember(recorded, "content", `[${tool === "get_window_state" ? "" : texts.join(",")}]`);
    if (structured) out = setSortedMember(out, "structuredContent", structured);
    return out;
  }
  if (tool === "get_window_state") {
    return canonicalJson({
      content: [],
      structuredContent: { element_count: 0, elements: [], returned_element_count: 0, total_element_count: 0, tree_markdown: "" },
    });
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
