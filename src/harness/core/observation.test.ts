import { describe, expect, it } from "vitest";
import { captured } from "../../../test/helpers/scripted-driver.js";
import { formatObservation } from "./observation.js";
import { strictWindowListPolicy } from "./window-list.js";
import { parseWindowState } from "./window-state.js";

describe("formatObservation", () => {
  it("one line per element from a real get_window_state, each once", () => {
    const window = parseWindowState(captured("xvfb-07_get_window_state_max40"));
    expect(window.image?.mimeType).toBe("image/png");
    const obs = formatObservation({ window, windows: strictWindowListPolicy.assess(captured("xvfb-01_list_windows")) });
    const lines = obs.text.split("\n");
    expect(lines[0]).toBe("windows: 1");
    expect(lines[1]).toBe('  window 4194311 pid 24132 "Application Class" 810x656+235+72');
    expect(lines[2]).toBe('window 4194311 snapshot s00000001 (act by element_token "s00000001:<index>"): 29 elements');
    expect(lines).toContain('[0] push button "Minimize" @ 938,99');
    expect(lines.filter((l) => /^\[\d+\]/.test(l))).toHaveLength(29);
    expect(obs).toMatchObject({ partial: false, listed: 29, omitted: 0 });
  });

  it("a filtered read lists what came back and says how many were not listed", () => {
    const obs = formatObservation({ window: parseWindowState(captured("xvfb-08_get_window_state_no_screenshot_query")) });
    expect(obs.listed).toBe(12);
    expect(obs.omitted).toBe(159);
    expect(obs.text).toContain("+159 more not listed");
    expect(obs.partial).toBe(true);
    expect(obs.text.split("\n")[0]).toBe("(partial: the driver returned 12 of 171 elements; a missing entry is not proof)");
  });

  it("caps elements at 120 and labels at 60 characters, never listing an element twice", () => {
    const elements = Array.from({ length: 130 }, (_, i) => ({
      element_index: i,
      role: "label",
      label: `${"x".repeat(70)}\n${i}`,
      frame: { x: 0, y: 0, w: 2, h: 2 },
    }));
    const obs = formatObservation({ window: { window_id: 1, elements: [...elements, elements[0]!] } });
    const lines = obs.text.split("\n");
    expect(lines.filter((l) => l.startsWith("[0] "))).toHaveLength(1);
    expect(obs.listed).toBe(120);
    expect(lines.at(-1)).toBe("+10 more not listed (narrow with query to see them)");
    expect(lines[1]).toBe(`[0] label "${"x".repeat(59)}…" @ 1,1`);
  });

  it("budgets are configurable", () => {
    const elements = Array.from({ length: 5 }, (_, i) => ({ element_index: i, label: "abcdef" }));
    const obs = formatObservation({ window: { elements } }, { maxElements: 2, maxLabelChars: 3 });
    expect(obs.text).toContain('[0] element "ab…" @ bounds-unknown');
    expect(obs.text).toContain("+3 more not listed");
  });

  it.each([
    ["headless-03_list_windows_no_display", "list_windows came back empty; that is not proof of no windows"],
    ["headless-01_get_screen_size_no_display", "list_windows failed (the driver returned an error)"],
  ])("a %s window list marks the observation partial", (file, reason) => {
    const obs = formatObservation({ windows: strictWindowListPolicy.assess(captured(file)) });
    expect(obs.partial).toBe(true);
    expect(obs.text).toContain(`(partial: ${reason}`);
  });

  it("a failed window read is partial and names the error", () => {
    const obs = formatObservation({ window: parseWindowState(captured("headless-05_get_window_state_unknown_window")) });
    expect(obs.partial).toBe(true);
    expect(obs.text).toContain("Window target pid 1, window_id 1 is stale or no longer running");
  });
});
