import { gzipSync } from "node:zlib";
import { defineCommand } from "#src/cli/command.js";
import { checkContract, probeFailed, type CheckReport } from "#src/contract/check.js";
import { acquireSnapshot } from "#src/probe/acquire.js";
import { sdkMcpLines } from "#src/transports/sdk/probe-lines.js";
import { readContract } from "#src/probe/read-contract.js";
import { checkSuite, renderCheck, renderSnapshot } from "#src/probe/render.js";
import { renderJunit } from "#src/util/junit.js";
import { writeOutputFile } from "#src/report/write-output.js";
import { UserError } from "#src/errors.js";

export const probeCommand = defineCommand({
  command: "probe",
  describe: "Probe a cua-driver (read-only) and, with --contract, name every gap",
  builder: (y) =>
    y
      .option("driver", { type: "string", describe: "Path (or PATH name) of a cua-driver executable, or sdk[:VERSION] for the published runtime" })
      .option("sdk", { type: "string", describe: "Probe the published runtime @trycua/cua-driver@VERSION" })
      .option("from", { type: "string", describe: "Read the snapshot stored in a cassette (or a snapshot file)" })
      .option("contract", { type: "string", describe: "Check the probe against this driver contract" })
      .option("save", { type: "string", describe: "Write the probe snapshot to FILE (gzip-compressed when FILE ends in .gz)" })
      .option("timeout-ms", { type: "number", default: 10_000, describe: "Deadline of each probe step" })
      .option("json", { type: "boolean", default: false, describe: "Print one JSON document" })
      .option("junit", { type: "string", describe: "Write JUnit XML (one case per contract item) to FILE" }),
  handler: async (args) => {
    if (args.junit && !args.contract) {
      throw new UserError("JUnit output has one test case per contract item, and no --contract was given", {
        code: "USAGE",
        field: "--junit",
        fix: "Add --contract FILE (e.g. contracts/drivers/cua-driver-0.21.json), or drop --junit.",
      });
    }
    const contract = args.contract ? await readContract(String(args.contract)) : undefined;
    const snapshot = await acquireSnapshot({
      driver: args.driver,
      sdk: args.sdk,
      from: args.from,
      timeoutMs: args.timeoutMs,
      mcpLines: sdkMcpLines,
    });
    if (args.save) {
      const file = String(args.save);
      const text = `${JSON.stringify(snapshot, null, 2)}\n`;
      // FILE.gz is written gzip-compressed, as every reader of a snapshot file reads it
      writeOutputFile({ file, flag: "--save", text: file.endsWith(".gz") ? gzipSync(text, { level: 9 }) : text });
    }
    const unreachable = probeFailed(snapshot);
    const report: CheckReport | undefined = contract && !unreachable ? checkContract({ snapshot, contract }) : undefined;
    if (args.junit && report)
      writeOutputFile({ file: String(args.junit), flag: "--junit", text: renderJunit({ name: "cua-contract probe", suites: [checkSuite(report)] }) });
    const ok = !unreachable && (report?.ok ?? true);
    if (args.json) {
      const doc = {
        ok,
        version: snapshot.driver.version,
        driver: snapshot.driver,
        reachable: !unreachable,
        steps: snapshot.steps,
        gaps: report?.gaps ?? [],
        ...(report ? { items: report.items } : {}),
        tools: snapshot.tools_list?.tools.map((t) => t.name) ?? snapshot.list_tools ?? [],
      };
      process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    } else {
      process.stdout.write(renderSnapshot(snapshot));
      if (unreachable) process.stdout.write("FAIL: the driver could not be probed at all (no step succeeded)\n");
      if (report && contract) process.stdout.write(renderCheck(report, String(args.contract)));
    }
    if (unreachable) return 3;
    return ok ? 0 : 1;
  },
});
