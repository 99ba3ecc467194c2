import type { CliCommand } from "../command.js";
import { EXPECTED_FAILURES_FORMAT } from "../../schema/gate-baseline.js";
import { gateSuites, renderGate } from "../../probe/gate/render-gate.js";
import { runGate } from "../../probe/gate/run-gate.js";
import { renderJunit } from "../../report/junit.js";
import { writeOutputFile } from "../../report/write-output.js";

export const gateCommand: CliCommand = {
  command: "gate",
  describe: "Before bumping the pinned driver: probe the candidate, check the contract, diff, and check every recorded call",
  builder: (y) =>
    y
      .option("contract", { type: "string", demandOption: true, describe: "Driver contract (contracts/drivers/*.json)" })
      .option("driver", { type: "string", describe: "Candidate cua-driver executable, or sdk[:VERSION] for the published runtime" })
      .option("sdk", { type: "string", describe: "Candidate published runtime @trycua/cua-driver@VERSION" })
      .option("recordings", { type: "string", array: true, describe: "Directories of cassettes whose calls must still validate" })
      .option("expected-failures", { type: "string", describe: "Baseline of known failures (ids); new and stale ones fail" })
      .option("save-expected-failures", { type: "string", describe: "Write this run's failures as a baseline to FILE" })
      .option("timeout-ms", { type: "number", default: 10_000, describe: "Deadline of each probe step" })
      .option("json", { type: "boolean", default: false, describe: "Print one JSON document" })
      .option("junit", { type: "string", describe: "Write JUnit XML to FILE" }),
  handler: async (args) => {
    const report = await runGate({
      contract: String(args.contract),
      driver: args.driver as string | undefined,
      sdk: args.sdk as string | undefined,
      recordings: args.recordings as string[] | undefined,
      expectedFailures: args.expectedFailures as string | undefined,
      timeoutMs: args.timeoutMs as number,
    });
    if (args.junit) writeOutputFile({ file: String(args.junit), flag: "--junit", text: renderJunit({ name: "cua-contract gate", suites: gateSuites(report) }) });
    if (args.saveExpectedFailures) {
      const doc = { format: EXPECTED_FAILURES_FORMAT, version: 1, failures: report.failures.map((f) => ({ id: f.id, reason: f.message })) };
      writeOutputFile({ file: String(args.saveExpectedFailures), flag: "--save-expected-failures", text: `${JSON.stringify(doc, null, 2)}\n` });
    }
    if (args.json) {
      const { check: _check, recordings, ...rest } = report;
      const doc = { ...rest, recordings: { cassettes: recordings.cassettes, calls: recordings.calls, breaks: recordings.breaks, warnings: recordings.warnings } };
      process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    } else process.stdout.write(renderGate(report, { expectedFile: args.expectedFailures as string | undefined }));
    if (!report.reachable) return 3;
    return report.ok ? 0 : 1;
  },
};
