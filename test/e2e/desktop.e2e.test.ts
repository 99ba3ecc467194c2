// Throwaway desktops started at the same moment each get a display of their own.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { skipWithout } from "../helpers/system-packages.js";
import { startDesktop } from "#src/desktop/desktop.js";
import { runCli } from "../helpers/run-cli.js";

const skip = await skipWithout("desktop", "concurrent throwaway desktops");

describe.skipIf(skip)("startDesktop", () => {
  it("gives desktops started together different displays, each its own X server", { timeout: 60_000 }, async () => {
    // Same candidate numbers for all three: they race for :97 first, as parallel test files do.
    const started = await Promise.allSettled([0, 1, 2].map(() => startDesktop({ app: null, displays: [97, 98, 99] })));
    const desktops = started.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    try {
      expect(started.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
      expect(new Set(desktops.map((d) => d.display)).size).toBe(3);
      const xvfbs = desktops.map((d) => d.processes.filter((p) => p.name === "Xvfb"));
      for (const list of xvfbs) expect(list).toHaveLength(1);
    } finally {
      await Promise.all(desktops.map((d) => d.stop()));
    }
  });

  it("keeps the accessibility sockets in a private runtime directory of its own, removed with it", { timeout: 60_000 }, async () => {
    // without XDG_RUNTIME_DIR, at-spi puts them in ~/.cache (at-spi2-socket-<pid>, world-writable, never removed)
    const desktop = await startDesktop();
    const runtime = desktop.env.XDG_RUNTIME_DIR;
    try {
      expect(runtime).toBe(path.join(desktop.stateDir, "run"));
      expect(statSync(runtime!).mode & 0o777).toBe(0o700);
      expect(readdirSync(runtime!)).toContain("at-spi");
    } finally {
      await desktop.stop();
    }
    expect(existsSync(runtime!)).toBe(false);
  });

  it("an app that exits before it shows a window is bad input: exit 2 at once, naming --app and the fix", { timeout: 30_000 }, async () => {
    const started = Date.now();
    const r = await runCli(["desktop", "start", "--app", "false"]);
    expect([r.exitCode, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toMatch(/^cua-contract: --app: false exited with code 1 before it showed a window \(DISPLAY :\d+\)\. Pass a program that opens a window/);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
