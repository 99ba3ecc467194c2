import { closeSync, openSync } from "node:fs";
import { WRITE_SAFETY } from "#src/cli/write-safety.js";
import { defineCommand } from "#src/cli/command.js";
import { startRecordingDesktop } from "#src/desktop/recording-desktop.js";
import { renderJunit } from "#src/util/junit.js";
import { writeOutputFile } from "#src/report/write-output.js";
import { renderVerify, verifySuites } from "#src/verify/render-verify.js";
import { runVerify } from "#src/verify/run-verify.js";

export const verifyCommand = defineCommand({
  command: "verify <dir>",
  describe: "Send a recording's flow to the live candidate, in order, and diff every answer against the recorded one",
  builder: (y) =>
    y
      .epilogue(WRITE_SAFETY.verify)
      .positional("dir", { type: "string", demandOption: true, describe: "Cassette directory whose flow is sent" })
      .option("driver", { type: "string", default: "sdk", describe: "The candidate: sdk[:VERSION], the published runtime @trycua/cua-driver in process" })
      .option("desktop", {
        type: "boolean",
        default: false,
        describe: "Run on a fresh throwaway X desktop (as `record --desktop`); mutating calls are sent only then",
      })
      .option("tolerance", { type: "number", default: 8, describe: "Pixels geometry may move and still count as the same" })
      .option("timeout-ms", { type: "number", default: 30_000, describe: "Deadline of each call" })
      .option("update", { type: "string", describe: "Write the candidate's answers as a new cassette in DIR" })
      .option("force", { type: "boolean", default: false, describe: "With --update: replace a cassette already there" })
      .option("secret", {
        type: "string",
        array: true,
        describe: "What the harness typed where the recording holds a redaction placeholder (repeatable; used only where its hash matches)",
      })
      .option("json", { type: "boolean", default: false, describe: "Print one JSON document" })
      .option("json-out", { type: "string", describe: "Write that JSON document to FILE as well (what is printed stays text unless --json)" })
      .option("junit", { type: "string", describe: "Write JUnit XML to FILE (one case per recorded call)" }),
  handler: async (args) => {
    const desktop = args.desktop ? await startRecordingDesktop() : undefined;
    try {
      return await verify(args, Boolean(desktop));
    } finally {
      if (desktop) {
        // The runtime's native threads print to fd 1 when the X server goes away: the report is written, so send that to /dev/null.
        quietStdout();
        await desktop.stop();
      }
    }
  },
});

async function verify(args: Record<string, unknown>, desktop: boolean): Promise<number> {
  const report = await runVerify({
    dir: String(args.dir),
    driver: String(args.driver),
    desktop,
    tolerance: args.tolerance as number,
    timeoutMs: args.timeoutMs as number,
    update: args.update as string | undefined,
    force: Boolean(args.force),
    secrets: (args.secret as string[] | undefined) ?? [],
  });
  if (args.junit)
    writeOutputFile({ file: String(args.junit), flag: "--junit", text: renderJunit({ name: "cua-contract verify", suites: verifySuites(report) }) });
  const json = `${JSON.stringify(report, null, 2)}\n`;
  if (typeof args["json-out"] === "string") writeOutputFile({ file: args["json-out"], flag: "--json-out", text: json });
  const text = args.json ? json : renderVerify(report);
  // Wait until the pipe has taken it all: stdout is quieted right after (see below).
  await new Promise<void>((resolve, reject) => process.stdout.write(text, (error) => (error ? reject(error) : resolve())));
  return report.ok ? 0 : 1;
}

function quietStdout(): void {
  closeSync(1);
  const fd = openSync("/dev/null", "w");
  if (fd !== 1) closeSync(fd);
}
