import { screenChange } from "#src/harness/screen/screen-change.js";
import { writeReport } from "#src/report/write-report.js";
import { defineCommand } from "#src/cli/command.js";

export const reportCommand = defineCommand({
  command: "report <input>",
  describe: "Write one self-contained HTML report of a cassette, a replay log or a check result",
  builder: (y) =>
    y
      .positional("input", { type: "string", demandOption: true, describe: "cassette directory, replay log (.jsonl) or check result (.json)" })
      .option("out", { type: "string", demandOption: true, describe: "the HTML file to write" })
      .option("cassette", { type: "string", describe: "for a replay log: the cassette it replayed (shows its screenshots)" })
      .option("json", { type: "boolean", default: false, describe: "print one JSON document" }),
  handler: async (args) => {
    const stats = await writeReport({
      from: String(args.input),
      out: String(args.out),
      ...(typeof args.cassette === "string" ? { cassetteDir: args.cassette } : {}),
      screen: { screenChange },
    });
    if (args.json) {
      process.stdout.write(`${JSON.stringify(stats, null, 2)}\n`);
      return 0;
    }
    const kb = (stats.bytes / 1024).toFixed(0);
    process.stdout.write(
      `Wrote ${stats.file} (${kb} KiB) from a ${stats.kind}: ${stats.rows} calls, ${stats.problems} failures, ${stats.screenshots} screenshots, ${stats.pairs} consecutive pairs compared (${stats.changed} changed).\n`,
    );
    return 0;
  },
});
