/** Names models commonly reach for, mapped to the action they mean (checked before spelling distance). */
const SYNONYMS: Record<string, readonly string[]> = {
  observe: ["screenshot", "capture", "look", "see", "get_screen", "get_desktop_state", "snapshot"],
  hotkey: ["key_combo", "shortcut", "keys", "keyboard_shortcut", "key"],
  press_key: ["keypress", "key_press", "press", "key"],
  type_text: ["type", "input_text", "write", "enter_text", "typing"],
  click: ["left_click", "mouse_click", "tap", "press_button"],
  wait: ["sleep", "pause", "delay"],
};

/** Whether an action name is known, and if not the nearest known one to suggest. */
export interface NearestAction {
  known: boolean;
  suggestion?: string;
  note: string;
}

/** Levenshtein distance between two names, for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/** "Did you mean" for an unknown action name; never aliases it silently. */
export function nearestAction(name: string, known: readonly string[]): NearestAction {
  const wanted = name.trim().toLowerCase();
  if (known.includes(wanted)) return { known: true, note: `${wanted} is a known action.` };
  let suggestion = Object.keys(SYNONYMS).find((k) => known.includes(k) && SYNONYMS[k]!.includes(wanted));
  if (!suggestion) {
    let best = Infinity;
    for (const k of known) {
      const d = editDistance(wanted, k);
      if (d < best && d <= Math.max(2, Math.floor(k.length / 3))) [best, suggestion] = [d, k];
    }
  }
  const base = `Unknown action '${name}'.`;
  return suggestion
    ? { known: false, suggestion, note: `${base} Did you mean '${suggestion}'? The action was not run.` }
    : { known: false, note: `${base} Known actions: ${known.join(", ")}. The action was not run.` };
}
