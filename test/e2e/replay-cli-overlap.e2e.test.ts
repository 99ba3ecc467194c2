import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";
import { tmpDir } from "../helpers/tmp-dir.js";

// A test suite starts `cua-driver serve` in the background, then runs `serve` again and expects
// "already running". Events are written when a call finishes, so the second call stands first in
// the cassette. The cassettes are hand-built (synthetic).
const ALREADY = "Error: a cua-driver daemon is already running on /tmp/cua-driver.sock\n";
const HEADER = {
  format: "cua-cassette",
  version: 1,
  transport: "cli",
  driver: { version: "0.21.0", platform: "linux-x64", source: "synthetic" },
  recorded_at: "2026-12-01T00:00:00.000Z",
  recorder: { name: "replay-cli-overlap.e2e.test.ts", version: "1" },
  notes: ["synthetic: two overlapping `serve` calls, written in the order they finished"],
};

function cassette(dir: string, withStartOrder: boolean): string {
  const events = [
    { seq: 0, t_ms: 520, duration_ms: 3, kind: "cli", argv: ["serve"], stdout: "", stderr: ALREADY, exit_code: 1, ...(withStartOrder ? { start_seq: 1 } : {}) },
    { seq: 1, t_ms: 10, duration_ms: 2000, kind: "cli", argv: ["serve"], stdout: "", stderr: "", exit_code: 0, ...(withStartOrder ? { start_seq: 0 } : {}) },
  ];
  const out = path.join(dir, withStartOrder ? "with-start" : "without-start");
  mkdirSync(out);
  writeFileSync(path.join(out, "cassette.jsonl"), `${[HEADER, ...events].map((e) => JSON.stringify(e)).join("\n")}\n`);
  return out;
}

// the daemon in the background, then the second `serve`: its stderr and exit code are what the suite checks
const SUITE = 'cua-driver serve >/dev/null 2>&1 & sleep 0.3; cua-driver serve; echo "second serve exited $?"; wait';

describe("overlapping per-call CLI calls over the shim", () => {
  it("are answered in the order they started: the second `serve` gets `already running`", async () => {
    await using dir = await tmpDir();
    const r = await runCliInProcess(["replay", cassette(dir.path, true), "--invariants", "none", "--", "sh", "-c", SUITE]);
    expect(r.stderr).toContain(ALREADY);
    expect(r.stdout + r.stderr).toContain("second serve exited 1");
    expect(r.stderr).not.toContain("note:");
  });

  it("without the start order, keep the order they finished in and say so", async () => {
    await using dir = await tmpDir();
    const r = await runCliInProcess(["replay", cassette(dir.path, false), "--invariants", "none", "--", "sh", "-c", SUITE]);
    expect(r.stdout + r.stderr).toContain("second serve exited 0");
    expect(r.stderr).toMatch(/cua-contract replay: note: 1 per-call CLI call\(s\) started before a call written ahead of them/);
  });
});
