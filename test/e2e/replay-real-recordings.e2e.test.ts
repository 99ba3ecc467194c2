import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";

const HARNESS = path.join(repoRoot, "scripts/record-fixtures.harness.mjs");

// recordings/ were made from the real 0.21.0 runtime (driver.source "sdk") with redaction on.
describe("replaying the bundled real recordings to the harness that made them", () => {
  for (const [dir, transport, served] of [
    ["gtk3-demo-cli", "cli", 22],
    ["gtk3-demo-mcp", "mcp", 23],
  ] as const) {
    it(`${dir}: every request matched (typed text through its redaction placeholder, the ended session's refusal as recorded), nothing unused`, async () => {
      const r = await runCliInProcess([
        "replay",
        path.join(repoRoot, "recordings", dir),
        "--fail-on-unused",
        "--json",
        "--",
        process.execPath,
        HARNESS,
        transport,
      ]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain("harness: session fixture-harness active");
      expect(r.stderr).toContain("harness: old token: refused stale_element_token");
      expect(r.stderr).toContain("harness: readback: 900x680+120+60");
      expect(r.stderr).toContain("harness: click on the ended session: refused session_ended");
      expect(r.stderr).toContain("harness: session revived");
      expect(JSON.parse(r.stdout.trim().split("\n").at(-1)!)).toEqual({
        served,
        unmatched: 0,
        faults: 0,
        synthesized: 0,
        unanswered: 0,
        unused: 0,
        unusedMutations: [],
        violations: [],
        harnessExitCode: 0,
        exitCode: 0,
      });
    });
  }
});
