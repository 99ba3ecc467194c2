// Runs in `npm test`: replays the committed cassette (no desktop needed). With
// CUA_CONTRACT_MODE=record it re-records that cassette from the real runtime on a throwaway
// desktop instead; the last test records afresh whenever the desktop programs are installed.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect } from "vitest";
import { test } from "cua-contract/vitest";
import { openButtonBoxes } from "./open-button-boxes.js";

const CASSETTE = fileURLToPath(new URL("./cassettes/button-boxes", import.meta.url));
const appPid = () => Number(process.env.CUA_DESKTOP_APP_PID) || undefined;
const replaying = (process.env.CUA_CONTRACT_MODE ?? "replay") === "replay";

describe("openButtonBoxes (vitest example)", () => {
  test("clicks Button Boxes and reads again", { timeout: 120_000 }, async ({ cassette }) => {
    const c = await cassette(CASSETTE, { desktop: true }); // the desktop starts only in record mode
    const outcome = await openButtonBoxes(c.driver, { ...(appPid() ? { appPid: appPid()! } : {}) });
    expect(outcome.rebuilt).toBe(false);
    expect(["confirmed", "unverifiable", "partial"]).toContain(outcome.effect);
    expect(c).toPassInvariants();
    expect(c).toHaveServedAll();
    if (replaying) expect(c).toHaveDecision({ tool: "click" }, { outcome: "replayed", tool: "click" });
  });

  test.skipIf(!replaying)("a click that times out after its effect: the session is rebuilt, the click never re-sent", async ({ cassette }) => {
    const c = await cassette(CASSETTE, { faults: { rules: [{ match: { tool: "click" }, fault: { kind: "timeout_after_effect" } }] } });
    const outcome = await openButtonBoxes(c.driver, { timeoutMs: 5_000 });
    expect(outcome).toMatchObject({ effect: "unknown", rebuilt: true });
    expect(c).toHaveDecision({ tool: "click" }, { outcome: "faulted", fault: "timeout_after_effect" });
    expect(c).toHaveDecision({ tool: "start_session", nth: 2 }, { tool: "start_session" });
    expect(c).toPassInvariants();
    expect(c.log().filter((e) => e.type === "request" && e.tool === "click")).toHaveLength(1);
  });
});

// the throwaway desktop's programs (docs/desktop.md)
const found = (name: string) =>
  name.includes("/") ? existsSync(name) : (process.env.PATH ?? "").split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, name)));
const missing = ["Xvfb", "dbus-daemon", "openbox", "xdotool", "gtk3-demo", "/usr/libexec/at-spi-bus-launcher"].filter((p) => !found(p));
describe.skipIf(missing.length > 0 || !replaying)(`record mode on a desktop${missing.length ? ` (skipped: ${missing.join(", ")} missing)` : ""}`, () => {
  test("records afresh from the real runtime, and the recording replays to the same harness", { timeout: 180_000 }, async ({ cassette }) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "vitest-example-"));
    try {
      const live = await cassette(dir, { mode: "record", desktop: true });
      const recorded = await openButtonBoxes(live.driver, { ...(appPid() ? { appPid: appPid()! } : {}) });
      await live.close();
      const replayed = await cassette(dir);
      expect(await openButtonBoxes(replayed.driver)).toEqual(recorded);
      expect(replayed).toHaveServedAll();
      expect(replayed).toPassInvariants();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
