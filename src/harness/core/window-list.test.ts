import { describe, expect, it } from "vitest";
import { captured, windowsReply } from "../../../test/helpers/scripted-driver.js";
import { checkFrameLease, layoutDifference, layoutOf } from "./frame-lease.js";
import { parseWindowRows, strictWindowListPolicy } from "./window-list.js";

describe("strictWindowListPolicy", () => {
  it("a real list is complete", () => {
    const list = strictWindowListPolicy.assess(captured("xvfb-01_list_windows"));
    expect(list.status).toBe("complete");
    expect(list.windows).toEqual([
      {
        window_id: 4194311,
        pid: 24132,
        title: "Application Class",
        app_name: "Gtk3-demo",
        x: 235,
        y: 72,
        width: 810,
        height: 656,
        z_index: 0,
        on_screen: true,
      },
    ]);
  });

  it("an empty list (the real headless reply) is partial, not 'no windows'", () => {
    const list = strictWindowListPolicy.assess(captured("headless-03_list_windows_no_display"));
    expect(list).toMatchObject({ status: "partial", windows: [] });
    expect(list.reason).toMatch(/not proof of no windows/);
  });

  it.each([
    [{ kind: "timeout", tool: "list_windows" } as const, /timeout/],
    [captured("headless-01_get_screen_size_no_display"), /returned an error/],
  ])("a failed list is failed (%#)", (reply, reason) => {
    const list = strictWindowListPolicy.assess(reply);
    expect(list.status).toBe("failed");
    expect(list.reason).toMatch(reason);
  });

  it("forgets observed windows after an incomplete list and keeps those of a complete one", () => {
    const before = new Set([1, 2]);
    expect([
      ...strictWindowListPolicy.windowsAfter(strictWindowListPolicy.assess(windowsReply([{ window_id: 3, x: 0, y: 0, width: 1, height: 1 }])), before),
    ]).toEqual([3]);
    expect(strictWindowListPolicy.windowsAfter({ status: "partial", windows: [] }, before).size).toBe(0);
  });

  it("drops rows without a positive window id and keeps X11 rows with a null pid", () => {
    const rows = parseWindowRows({
      content: [],
      structuredContent: {
        windows: [
          { window_id: 0, x: 1 },
          { window_id: 9, pid: null, x: 1, y: 2, width: 3, height: 4, is_on_screen: false },
        ],
      },
    });
    expect(rows).toEqual([{ window_id: 9, x: 1, y: 2, width: 3, height: 4, z_index: 0, on_screen: false }]);
  });
});

describe("frame lease", () => {
  const aimed = layoutOf(strictWindowListPolicy.assess(captured("xvfb-01_list_windows")).windows);

  it("passes when the live layout matches", () => {
    expect(checkFrameLease({ aimed, live: strictWindowListPolicy.assess(captured("xvfb-01_list_windows")) })).toEqual({ ok: true });
  });

  it("refuses when the window moved (the real set_window_frame capture)", () => {
    const r = checkFrameLease({ aimed, live: strictWindowListPolicy.assess(captured("xvfb-30_list_windows_pid_filter")) });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.note).toContain("window 4194311 moved or resized from 810x656+235+72 to 800x640+200+60");
    expect(!r.ok && r.note).toContain("No input was sent");
  });

  it.each([
    [
      "a window appeared",
      [
        { window_id: 4194311, x: 235, y: 72, width: 810, height: 656 },
        { window_id: 7, x: 0, y: 0, width: 10, height: 10, z_index: 1 },
      ],
      "window 7 appeared",
    ],
    ["the window is gone", [{ window_id: 8, x: 235, y: 72, width: 810, height: 656 }], "window 4194311 is gone"],
  ])("refuses when %s", (_name, windows, words) => {
    const r = checkFrameLease({ aimed, live: strictWindowListPolicy.assess(windowsReply(windows)) });
    expect(!r.ok && r.note).toContain(words);
  });

  it("refuses on a stacking-order or active-window change", () => {
    const a = layoutOf([
      { window_id: 1, x: 0, y: 0, width: 5, height: 5, z_index: 2, on_screen: true },
      { window_id: 2, x: 0, y: 0, width: 5, height: 5, z_index: 1, on_screen: true, active: true },
    ]);
    const b = layoutOf([
      { window_id: 1, x: 0, y: 0, width: 5, height: 5, z_index: 1, on_screen: true },
      { window_id: 2, x: 0, y: 0, width: 5, height: 5, z_index: 2, on_screen: true, active: true },
    ]);
    expect(layoutDifference(a, b)).toBe("the stacking order changed");
    const c = layoutOf([
      { window_id: 1, x: 0, y: 0, width: 5, height: 5, z_index: 2, on_screen: true, active: true },
      { window_id: 2, x: 0, y: 0, width: 5, height: 5, z_index: 1, on_screen: true },
    ]);
    expect(layoutDifference(a, c)).toBe("the active window changed");
  });

  it("an untrusted live list, a partial aimed frame or no frame cannot vouch for coordinates", () => {
    expect(checkFrameLease({ aimed, live: { status: "partial", windows: [], reason: "empty" } }).ok).toBe(false);
    expect(checkFrameLease({ aimed, live: { status: "failed", windows: [] } }).ok).toBe(false);
    expect(checkFrameLease({ aimed, aimedComplete: false, live: strictWindowListPolicy.assess(captured("xvfb-01_list_windows")) }).ok).toBe(false);
    expect(checkFrameLease({ aimed: undefined, live: strictWindowListPolicy.assess(captured("xvfb-01_list_windows")) }).ok).toBe(false);
  });
});
