import type { WindowList } from "./window-list.js";
import type { ElementInfo, WindowState } from "./window-state.js";

/** How much of an observation is shown to a model (docs/budgets.md). */
export interface ObservationBudget {
  /** Elements listed before `+N more not listed` (default 120). */
  maxElements?: number;
  /** Characters of a label before it is cut (default 60). */
  maxLabelChars?: number;
}

/** What an observation is formatted from: a window list, a window state, or both. */
export interface ObservationInput {
  windows?: WindowList;
  window?: WindowState;
}

/** An observation as text for a model, and whether it is partial. */
export interface FormattedObservation {
  text: string;
  partial: boolean;
  listed: number;
  omitted: number;
}

/** The default observation budget: elements listed and characters per label. */
export const OBSERVATION_BUDGET = { maxElements: 120, maxLabelChars: 60 } as const;

function label(raw: string | undefined, max: number): string {
  const flat = (raw ?? "").replace(/\s+/g, " ").trim();
  const cut = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  return JSON.stringify(cut);
}

function elementLine(e: ElementInfo, max: number): string {
  const at = e.frame ? ` @ ${Math.round(e.frame.x + e.frame.w / 2)},${Math.round(e.frame.y + e.frame.h / 2)}` : " @ bounds-unknown";
  const off = e.enabled === false ? " (disabled)" : "";
  return `[${e.element_index}] ${e.role ?? "element"} ${label(e.label, max)}${at}${off}`;
}

/**
 * The model-facing observation: one line per element, labels and element count capped, each
 * element listed once, and a partial marker whenever the observation cannot prove absence.
 */
export function formatObservation(state: ObservationInput, budget: ObservationBudget = {}): FormattedObservation {
  const maxElements = budget.maxElements ?? OBSERVATION_BUDGET.maxElements;
  const maxLabel = budget.maxLabelChars ?? OBSERVATION_BUDGET.maxLabelChars;
  const lines: string[] = [];
  const partial: string[] = [];
  if (state.windows) {
    if (state.windows.status !== "complete") partial.push(state.windows.reason ?? "the window list is incomplete");
    const visible = state.windows.windows.filter((w) => w.on_screen);
    lines.push(`windows: ${visible.length}`);
    for (const w of visible) {
      lines.push(
        `  window ${w.window_id}${w.pid ? ` pid ${w.pid}` : ""} ${label(w.title, maxLabel)} ${w.width}x${w.height}+${w.x}+${w.y}${w.active ? " (active)" : ""}`,
      );
    }
  }
  let listed = 0;
  let omitted = 0;
  const win = state.window;
  if (win?.failed) partial.push(`the window could not be read: ${win.failed}`);
  else if (win) {
    const seen = new Set<number>();
    const unique = win.elements.filter((e) => !seen.has(e.element_index) && seen.add(e.element_index));
    const total = Math.max(win.total ?? unique.length, unique.length);
    if (total > unique.length) partial.push(`the driver returned ${unique.length} of ${total} elements`);
    const head = `window ${win.window_id ?? "?"}${win.snapshot_id ? ` snapshot ${win.snapshot_id} (act by element_token "${win.snapshot_id}:<index>")` : ""}: ${unique.length} elements`;
    lines.push(head);
    const shown = unique.slice(0, maxElements);
    for (const e of shown) lines.push(elementLine(e, maxLabel));
    listed = shown.length;
    omitted = unique.length - shown.length + (total - unique.length);
    if (omitted > 0) lines.push(`+${omitted} more not listed (narrow with query to see them)`);
  }
  if (partial.length > 0) lines.unshift(`(partial: ${partial.join("; ")}; a missing entry is not proof)`);
  return { text: lines.join("\n"), partial: partial.length > 0, listed, omitted };
}
