import { defineCommand } from "#src/cli/command.js";
import { UserError } from "#src/errors.js";
import { EXPECTED_FAILURES_FORMAT } from "#src/schema/gate-baseline.js";
import { appendHistory } from "#src/probe/gate/append-history.js";
import { gateSuites, renderGate } from "#src/probe/gate/render-gate.js";
import { historyEntry, matrixJson, matrixSuites, renderMatrix } from "#src/probe/gate/render-matrix.js";
import { runGate, type GateReport } from "#src/probe/gate/run-gate.js";
import { runMatrix } from "#src/probe/gate/run-matrix.js";
import { renderJunit } from "#src/util/junit.js";
import { writeOutputFile } from "#src/report/write-output.js";

export const gateCommand = defineCommand({
  command: "gate",
  describe: "Before bumping the pinned driver: probe the candidate, check the contract, diff, and check every recorded call",
  builder: (y) =>
    y
      .option("contract", { type: "string", demandOption: true, describe: "Driver contract (contracts/drivers/*.json)" })
      .option("driver", { type: "string", describe: "Candidate cua-driver executable, or sdk[:VERSION] for the published runtime" })
      .option("sdk", { type: "string", describe: "Candidate published runtime @trycua/cua-driver@VERSION" })
      .option("matrix", { type: "string", describe: "Gate every published version in RANGE (all, >=0.21.0, 0.28.x, or 0.21.0,0.28.2): one table" })
      .option("recordings", { type: "string", array: true, describe: "Directories of cassettes whose calls must still validate" })
      .option("expected-failures", { type: "string", describe: "Baseline of known failures (ids); new and stale ones fail" })
      .option("save-expected-failures", { type: "string", describe: "Write this run's failures as a baseline to FILE" })
      .option("snapshots", {
        type: "string",
        describe: "Directory of kept probe snapshots of published versions (sdk-VERSION.probe.json), used before the cache",
      })
      .option("source-snapshot", {
        type: "string",
        array: true,
        describe:
          "A snapshot read from the driver's source (contracts/snapshots/source-COMMIT.probe.json) as the candidate; with --matrix, one more row each (never a published version)",
      })
      .option("refresh", {
        type: "boolean",
        default: false,
        describe: "Probe published versions again (and ask the registry again) instead of using cached snapshots",
      })
      .option("history", { type: "string", describe: "With --matrix: append this run's verdicts to FILE (JSON Lines)" })
      .option("timeout-ms", { type: "number", default: 10_000, describe: "Deadline of each probe step" })
      .option("json", { type: "boolean", default: false, describe: "Print one JSON document" })
      .option("junit", { type: "string", describe: "Write JUnit XML to FILE (with --matrix: one suite per version)" }),
  handler: async (args) => {
    const common = {
      contract: String(args.contract),
      recordings: args.recordings,
      expectedFailures: args.expectedFailures,
      timeoutMs: args.timeoutMs,
      snapshots: args.snapshots,
      refresh: Boolean(args.refresh),
    };
    if (args.matrix !== undefined) {
      const clash = (["driver", "sdk", "saveExpectedFailures"] as const).find((k) => args[k] !== undefined);
      if (clash) {
        const flag = clash === "saveExpectedFailures" ? "--save-expected-failures" : `--${clash}`;
        throw new UserError(`--matrix and ${flag} were both given`, {
          code: "USAGE",
          field: flag,
          fix: "--matrix gates every published version itself; drop the other flag, or gate one candidate without --matrix.",
        });
      }
      const report = await runMatrix({ ...common, matrix: String(args.matrix).trim() || "all", sourceSnapshots: args.sourceSnapshot });
      if (args.junit)
        writeOutputFile({ file: String(args.junit), flag: "--junit", text: renderJunit({ name: "cua-contract gate --matrix", suites: matrixSuites(report) }) });
      if (args.history) appendHistory(String(args.history), historyEntry(report, new Date()));
      process.stdout.write(args.json ? `${JSON.stringify(matrixJson(report), null, 2)}\n` : renderMatrix(report));
      return report.ok ? 0 : 1;
    }
    if (args.history)
      throw new UserError("--history needs --matrix", { code: "USAGE", field: "--history", fix: "Add --matrix all (or a range) to record a versions table." });
    const sources = args.sourceSnapshot ?? [];
    if (sources.length > 1)
      throw new UserError("--source-snapshot was given more than once", {
        code: "USAGE",
        field: "--source-snapshot",
        fix: "Gate one candidate at a time, or add --matrix RANGE to gate each one as a row beside the published versions.",
      });
    const report = await runGate({ ...common, driver: args.driver, sdk: args.sdk, sourceSnapshot: sources[0] });
    if (args.junit)
      writeOutputFile({ file: String(args.junit), flag: "--junit", text: renderJunit({ name: "cua-contract gate", suites: gateSuites(report) }) });
    if (args.saveExpectedFailures) {
      const doc = { format: EXPECTED_FAILURES_FORMAT, version: 1, failures: report.failures.map((f) => ({ id: f.id, reason: f.message })) };
      writeOutputFile({ file: String(args.saveExpectedFailures), flag: "--save-expected-failures", text: `${JSON.stringify(doc, null, 2)}\n` });
    }
    if (args.json) process.stdout.write(`${JSON.stringify(gateJson(report), null, 2)}\n`);
    else process.stdout.write(renderGate(report, { expectedFile: args.expectedFailures }));
    if (!report.reachable) return 3;
    return report.ok ? 0 : 1;
  },
});

function gateJson(report: GateReport): unknown {
  const { check: _check, recordings, ...rest } = report;
  return {
    ...rest,
    recordings: {
      cassettes: recordings.cassettes,
      calls: recordings.calls,
      breaks: recordings.breaks,
      stale: recordings.stale,
      rerecord: recordings.rerecord,
      warnings: recordings.warnings,
    },
  };
}
