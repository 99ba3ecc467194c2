import { describe, expect, it } from "vitest";
import { canonicalKeys, checkKeyCombo } from "./key-combo.js";

describe("checkKeyCombo", () => {
  it.each([
    "ctrl+alt+delete",
    "ctrl-alt-delete",
    "Ctrl+Alt+Del",
    "CONTROL + ALT + DELETE",
    "ctrl + option + del",
    "alt+ctrl+delete",
    "Control_L+Alt_L+Delete",
    "ctrl+alt+backspace",
    "ctrl-alt-BackSpace",
    "super+l",
    "super + L",
    "win+l",
    "meta-l",
    "cmd+l",
    "cmd+ctrl+q",
    "⌘+⌃+q",
    "cmd+option+esc",
    "command+option+escape",
    "cmd+opt+⎋",
    "ctrl+alt+f2",
    "alt+f4",
    "ctrl+alt+shift+delete",
    "super+shift+l",
  ])("blocks %s", (combo) => {
    const r = checkKeyCombo(combo);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.code).toBe("blocked_key_combo");
      expect(r.note).toMatch(/^Blocked key combo/);
    }
  });

  it("blocks arrays of keys too, in any order", () => {
    expect(checkKeyCombo(["delete", "ALT", "ctrl"]).ok).toBe(false);
    expect(checkKeyCombo(["Super_L", "l"]).ok).toBe(false);
  });

  it.each(["ctrl+c", "cmd+s", "ctrl+shift+t", "ctrl+alt+t", "alt+tab", "Return", "escape", "ctrl+-", "super", "delete", "ctrl+l", "shift+f4"])(
    "passes %s",
    (combo) => {
      expect(checkKeyCombo(combo)).toEqual({ ok: true });
    },
  );

  it("canonicalises spelling, aliases and order", () => {
    expect(canonicalKeys("Alt-Ctrl-Del")).toEqual(["ctrl", "alt", "delete"]);
    expect(canonicalKeys("cmd + option + Escape")).toEqual(["alt", "super", "escape"]);
    expect(canonicalKeys(["Meta", "L"])).toEqual(["super", "l"]);
  });

  it("names the blocked combo inside the longer one", () => {
    const r = checkKeyCombo("ctrl+alt+shift+delete");
    expect(!r.ok && r.note).toContain("ctrl+alt+delete (in ctrl+alt+shift+delete)");
  });
});

describe("blocked key combo sets (docs/guards.md, checkKeyCombo)", () => {
  it.each([
    "cmd+shift+backspace",
    "cmd+option+backspace",
    "cmd+ctrl+q",
    "cmd+shift+q",
    "cmd+option+shift+q",
    "win+l",
    "ctrl+option+delete",
    "ctrl+option+del",
    "option+f4",
  ])("hermes' %s is blocked", (combo) => expect(checkKeyCombo(combo).ok).toBe(false));
});
