import { defineCommand } from "#src/cli/command.js";
import { diffSurfaces } from "#src/contract/diff.js";
import { loadSurface } from "#src/probe/load-surface.js";
import { renderDiff } from "#src/probe/render.js";

export const diffCommand = defineCommand({
  command: "diff <a> <b>",
  describe: "Classify every difference between two drivers (snapshots, tools/list results or cassettes)",
  builder: (y) =>
    y
      .positional("a", { type: "string", describe: "The driver you have: snapshot, tools/list JSON, or cassette directory holding probe.json" })
      .positional("b", { type: "string", describe: "The candidate" })
      .option("json", { type: "boolean", default: false, describe: "Print one JSON document" }),
  handler: async (args) => {
    const [a, b] = await Promise.all([loadSurface(String(args.a)), loadSurface(String(args.b))]);
    const diff = diffSurfaces(a, b);
    process.stdout.write(args.json ? `${JSON.stringify(diff, null, 2)}\n` : renderDiff(diff));
    return diff.ok ? 0 : 1;
  },
});
