import { PASS, type GuardResult } from "./guard-result.js";

/** Spellings folded onto one canonical key name. Modifiers: ctrl, alt, shift, super. */
const ALIASES: Record<string, string> = {
  control: "ctrl",
  ctl: "ctrl",
  control_l: "ctrl",
  control_r: "ctrl",
  ctrl_l: "ctrl",
  ctrl_r: "ctrl",
  "^": "ctrl",
  "⌃": "ctrl",
  option: "alt",
  opt: "alt",
  alt_l: "alt",
  alt_r: "alt",
  altgr: "alt",
  "⌥": "alt",
  cmd: "super",
  command: "super",
  "⌘": "super",
  meta: "super",
  meta_l: "super",
  meta_r: "super",
  win: "super",
  windows: "super",
  super_l: "super",
  super_r: "super",
  logo: "super",
  mod4: "super",
  shift_l: "shift",
  shift_r: "shift",
  "⇧": "shift",
  del: "delete",
  "⌦": "delete",
  bksp: "backspace",
  back_space: "backspace",
  "⌫": "backspace",
  esc: "escape",
  "⎋": "escape",
  return: "enter",
  "↵": "enter",
};

const MODIFIER_ORDER = ["ctrl", "alt", "shift", "super"];

/**
 * Session-killing or destructive combos, as canonical key sets. A combo is blocked when any of
 * these is a subset of it, so extra keys do not help.
 */
export const BLOCKED_KEY_COMBOS: readonly (readonly string[])[] = [
  ["ctrl", "alt", "delete"],
  ["ctrl", "alt", "backspace"],
  ["ctrl", "alt", "l"],
  ["super", "l"],
  ["super", "ctrl", "q"],
  ["super", "alt", "escape"],
  ["super", "shift", "q"],
  ["super", "shift", "backspace"],
  ["super", "alt", "backspace"],
  ["alt", "f4"],
  ...Array.from({ length: 12 }, (_, i) => ["ctrl", "alt", `f${i + 1}`]),
];

/** Canonical key list: split on `+` and `-`, lower-cased, aliases folded, modifiers first. */
export function canonicalKeys(keys: string | readonly string[]): string[] {
  const parts = (typeof keys === "string" ? [keys] : keys).flatMap((k) => k.split(/\s*[+-]\s*/));
  const canon = new Set<string>();
  for (const raw of parts) {
    const k = raw.trim().toLowerCase();
    if (k) canon.add(ALIASES[k] ?? k);
  }
  const mods = MODIFIER_ORDER.filter((m) => canon.has(m));
  const rest = [...canon].filter((k) => !MODIFIER_ORDER.includes(k)).sort();
  return [...mods, ...rest];
}

/** Blocks session-killing and destructive key combos however they are spelled. */
export function checkKeyCombo(keys: string | readonly string[]): GuardResult {
  const canon = canonicalKeys(keys);
  const have = new Set(canon);
  const hit = BLOCKED_KEY_COMBOS.find((combo) => combo.every((k) => have.has(k)));
  if (!hit) return PASS;
  return {
    ok: false,
    code: "blocked_key_combo",
    note: `Blocked key combo ${hit.join("+")}${hit.length === canon.length ? "" : ` (in ${canon.join("+")})`}: it can end or lock the session or destroy data. Destructive system shortcuts are never sent.`,
  };
}
