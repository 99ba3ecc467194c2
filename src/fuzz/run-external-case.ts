import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runExternalHarness } from "#src/check/external-run.js";
import { knownToolsOptions } from "#src/replay/engine/known-tools.js";
import { runInvariants } from "#src/invariants/run.js";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";
import type { FuzzCase } from "./arbitraries/fuzz-case.js";
import type { LoadedBase } from "./bases.js";
import type { FuzzViolation } from "./run-case.js";

/**
 * A case runner for an external harness: each case is written as a scenario file (the harness
 * reads its steps from CUA_CONTRACT_SCENARIO) and run through the replaying shim. Judged: the
 * invariants, over the log up to the first unmatched request, and a non-zero exit.
 */
export function externalCaseRunner(options: { command: string; bases: readonly LoadedBase[]; dir: string; timeoutMs?: number }) {
  // cases may run side by side (`--jobs`): each gets its own scenario file, as it gets its own shim and replay session
  let cases = 0;
  return async (fcase: FuzzCase): Promise<{ violations: FuzzViolation[] }> => {
    const file = path.join(options.dir, `case-${cases++}.json`);
    const base = options.bases[fcase.base]!;
    writeFileSync(
      file,
      JSON.stringify({ id: "fuzz-case", title: "fuzz case", cassette: base.cassetteDir, faults: { rules: fcase.rules }, steps: fcase.steps }),
    );
    const run = await runExternalHarness({
      command: options.command,
      cassette: base.cassette,
      faults: { rules: fcase.rules },
      scenarioFile: file,
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
    rmSync(file, { force: true });
    const report = runInvariants(upToFirstUnmatched(run.log), { options: knownToolsOptions(base.cassette.knownTools) });
    const violations: FuzzViolation[] = report.results.flatMap((r) => r.violations.map((v) => ({ check: r.id, message: v.message })));
    if (run.timedOut || run.exitCode !== 0) {
      const tail = run.output.trim().split("\n").slice(-2).join(" | ");
      violations.push({
        check: "harness-exit",
        message: `the harness ${run.timedOut ? "timed out" : `exited ${run.exitCode ?? run.signal}`}${tail ? ` (${tail})` : ""}`,
      });
    }
    return { violations };
  };
}

function upToFirstUnmatched(log: readonly ReplayLogEntry[]): ReplayLogEntry[] {
  const cut = log.findIndex((e) => e.type === "request" && e.outcome === "unmatched");
  return cut < 0 ? [...log] : log.slice(0, cut + 1);
}
