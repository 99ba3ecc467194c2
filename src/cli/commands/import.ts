import { importTrajectory } from "#src/import/import-trajectory.js";
import { defineCommand } from "#src/cli/command.js";

export const importCommand = defineCommand({
  command: "import <trajectory>",
  describe: "Turn a cua-driver trajectory folder (turn-NNNNN/, from start_recording) into a cassette",
  builder: (y) =>
    y
      .positional("trajectory", { type: "string", describe: "the folder start_recording wrote (holds turn-00001/, …)", demandOption: true })
      .option("out", { type: "string", demandOption: true, describe: "cassette directory to write" })
      .option("driver-source", {
        choices: ["binary", "sdk"] as const,
        default: "binary",
        describe: "which driver recorded it: the cua-driver binary or the npm runtime (@trycua/cua-driver)",
      })
      .option("driver-version", { type: "string", describe: "driver version, when known (a trajectory does not record it)" })
      .option("redact", { type: "boolean", default: true, describe: "redact typed text and set_value values (--no-redact to keep them)" })
      .option("force", { type: "boolean", default: false, describe: "replace an existing cassette at --out" })
      .option("json", { type: "boolean", default: false, describe: "print one JSON document" }),
  handler: async (args) => {
    const summary = await importTrajectory({
      from: String(args.trajectory),
      out: String(args.out),
      source: args["driver-source"] as "binary" | "sdk",
      driverVersion: typeof args["driver-version"] === "string" ? args["driver-version"] : null,
      redact: Boolean(args.redact),
      force: Boolean(args.force),
    });
    if (args.json) {
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      return 0;
    }
    process.stdout.write(
      `Imported ${summary.turns} turns into ${summary.cassette}: ${summary.mutations} mutations, ${summary.observations} reconstructed get_window_state observations (${summary.events} events).\n`,
    );
    for (const part of summary.unmapped) process.stdout.write(`  not rebuilt: ${part}\n`);
    return 0;
  },
});
