import type { HarnessParts } from "./session-parts.js";
import type { WindowState } from "./window-state.js";

function elementSignature(state: WindowState): string {
  return state.elements
    .map((e) => `${e.role ?? ""}|${e.label ?? ""}|${e.enabled ?? ""}|${e.frame ? `${e.frame.x},${e.frame.y},${e.frame.w},${e.frame.h}` : ""}`)
    .join("\n");
}

/**
 * Whether a window visibly changed between two reads of it: screenshots when both reads have one
 * (perceptually, when a comparator is given), else the element list (tokens and snapshot ids
 * excluded: they change on every read).
 */
export async function windowChanged(before: WindowState, after: WindowState, compareFrames: HarnessParts["compareFrames"]): Promise<boolean> {
  if (before.image && after.image) {
    if (before.image.data === after.image.data) return false;
    return compareFrames ? compareFrames(before.image, after.image) : true;
  }
  return elementSignature(before) !== elementSignature(after) || (before.tree ?? "") !== (after.tree ?? "");
}
