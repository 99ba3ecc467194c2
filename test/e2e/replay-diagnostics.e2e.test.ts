// A harness that calls `check-update` at start and sends default fields the bundled MCP recording
// never had: the update check is answered as the binary answers it, and the first unmatched message
// names every differing field and the whole --ignore set, which then makes the run match.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/run-cli.js";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";

const harness = path.join(repoRoot, "test/fixtures/harnesses/extra-fields-harness.py");
const recording = path.join(repoRoot, "recordings/gtk3-demo-mcp");

describe("replay diagnostics against the bundled MCP recording", () => {
  it("answers check-update, then names all three extra fields and the --ignore set in one message", { timeout: 60_000 }, async () => {
    const run = await runCliInProcess(["replay", recording, "--", "python3", harness]);
    expect(run.exitCode).toBe(1);
    const first = String(run.stdout).split("\n")[0]!;
    const update = JSON.parse(first) as { check_update: string };
    expect(JSON.parse(update.check_update)).toMatchObject({ current_version: "0.21.0", update_available: false });
    const unmatched = String(run.stderr)
      .split("\n")
      .filter((l) => l.includes("UNMATCHED"));
    expect(unmatched).toHaveLength(1);
    expect(unmatched[0]).toContain("differs from #10 (list_windows) at 3 paths");
    for (const field of ["button", "element_index", "on_screen_only"]) expect(unmatched[0]).toContain(`$.${field}:`);
    expect(unmatched[0]).toContain("Ignore the fields with --ignore button --ignore element_index --ignore on_screen_only");

    const ignored = await runCliInProcess([
      "replay",
      recording,
      "--ignore",
      "button",
      "--ignore",
      "element_index",
      "--ignore",
      "on_screen_only",
      "--json",
      "--",
      "python3",
      harness,
    ]);
    const summary = JSON.parse(String(ignored.stdout).trim().split("\n").at(-1)!) as { unmatched: number; exitCode: number };
    expect(summary).toMatchObject({ unmatched: 0, exitCode: 0 });
  });
});
