import { defineCommand } from "#src/cli/command.js";
import { WRITE_SAFETY } from "#src/cli/write-safety.js";
import { UserError } from "#src/errors.js";
import { mergeCassettes } from "#src/cassette/merge.js";
import { pruneCassette } from "#src/cassette/prune.js";
import { readReplayLogs } from "#src/cassette/read-replay-logs.js";
import { readCassetteSync } from "#src/cassette/reader.js";
import { lockCassette } from "#src/cassette/safe-files.js";
import path from "node:path";
import { judgeStaleness, parseMaxAge } from "#src/cassette/stale.js";
import { readContract } from "#src/probe/read-contract.js";
import { rangeProblem } from "#src/util/versions.js";
import { progressTicker } from "#src/cli/progress.js";
import { signFrames } from "#src/harness/screen/sign-frames.js";

const ACTIONS = ["prune", "merge", "stale", "sign"] as const;

export const cassetteCommand = defineCommand({
  command: "cassette <action> [dirs..]",
  describe: "Tidy cassettes: prune what no replay used, merge two, list the stale ones, sign their frames (docs/cassettes.md)",
  builder: (y) =>
    y
      .epilogue(WRITE_SAFETY.cassette)
      .usage(
        "$0 cassette prune DIR --log LOG… [--out DIR] [--dry-run]\n$0 cassette merge A B --out C\n$0 cassette stale DIR… [--max-age 30d] [--contract FILE | --driver-versions RANGE]\n$0 cassette sign DIR… [--force]",
      )
      .positional("action", { type: "string", choices: ACTIONS, describe: "prune | merge | stale | sign" })
      .positional("dirs", { type: "string", array: true, describe: "Cassette directories" })
      .option("log", { type: "string", array: true, describe: "prune: replay logs (replay --log) whose used events are kept" })
      .option("out", { type: "string", describe: "prune: write the pruned copy here (default: in place); merge: the new cassette" })
      .option("dry-run", { type: "boolean", default: false, describe: "prune: say what would go, change nothing" })
      .option("max-age", { type: "string", describe: "stale: older than this is stale (30d, 12h, 2w)" })
      .option("contract", { type: "string", describe: "stale: a driver contract whose driver.versions the cassette's driver must satisfy" })
      .option("driver-versions", { type: "string", describe: "stale: the driver versions a cassette must come from (0.21.x, >=0.21.0 <0.23.0)" })
      .option("force", { type: "boolean", default: false, describe: "sign: compute every signature again, even those already stored" })
      .option("json", { type: "boolean", default: false, describe: "Print one JSON document" }),
  handler: async (args) => {
    const action = String(args.action) as (typeof ACTIONS)[number];
    const dirs = (args.dirs ?? []).map(String);
    const json = Boolean(args.json);
    const print = (doc: unknown, human: string) => process.stdout.write(json ? `${JSON.stringify(doc, null, 2)}\n` : human);
    if (action === "prune") {
      if (dirs.length !== 1)
        throw new UserError(`prune takes one cassette directory, got ${dirs.length}`, {
          code: "USAGE",
          field: "dirs",
          fix: "Run `cua-contract cassette prune DIR --log LOG…`.",
        });
      const logs = (args.log ?? []).map(String);
      if (logs.length === 0)
        throw new UserError("prune needs the replay logs that say what was used", {
          code: "USAGE",
          field: "--log",
          fix: "Replay with `--log FILE`, then pass each log with --log.",
        });
      const r = pruneCassette({
        dir: dirs[0]!,
        logs: readReplayLogs(logs),
        ...(typeof args.out === "string" ? { out: args.out } : {}),
        dryRun: Boolean(args["dry-run"]),
      });
      for (const w of r.warnings) process.stderr.write(`cua-contract cassette prune: warning: ${w}\n`);
      const verb = args["dry-run"] ? "would keep" : "kept";
      print(
        r,
        `${verb} ${r.events.after} of ${r.events.before} events and ${r.frames.after} of ${r.frames.before} frames${args["dry-run"] ? "" : ` in ${r.out}`}${r.dropped.length ? `; dropped seq ${r.dropped.join(", ")}` : ""}\n`,
      );
      return 0;
    }
    if (action === "merge") {
      if (dirs.length !== 2 || typeof args.out !== "string")
        throw new UserError("merge takes two cassette directories and --out", {
          code: "USAGE",
          field: dirs.length !== 2 ? "dirs" : "--out",
          fix: "Run `cua-contract cassette merge A B --out C`.",
        });
      const r = mergeCassettes({ a: dirs[0]!, b: dirs[1]!, out: args.out });
      for (const w of r.warnings) process.stderr.write(`cua-contract cassette merge: warning: ${w}\n`);
      print(r, `merged ${r.events} events and ${r.frames} frames into ${r.out}\n`);
      return 0;
    }
    if (action === "sign") {
      if (dirs.length === 0)
        throw new UserError("sign takes one or more cassette directories", {
          code: "USAGE",
          field: "dirs",
          fix: "Run `cua-contract cassette sign DIR…`.",
        });
      const results = [];
      for (const dir of dirs) {
        readCassetteSync(dir, { frames: "skip" });
        // signatures are written under the cassette's lock, like every other write to it
        using _lock = lockCassette(path.resolve(dir));
        const ticker = process.stderr.isTTY === true ? undefined : progressTicker({ every: 100, write: (line) => process.stderr.write(line) });
        const r = await signFrames({
          dir,
          force: Boolean(args.force),
          ...(ticker
            ? { onProgress: (done: number, total: number) => ticker(done, () => `cua-contract cassette sign: ${dir}: ${done} of ${total} frames`) }
            : {}),
        });
        for (const u of r.unsigned) process.stderr.write(`cua-contract cassette sign: warning: ${dir}: ${u.ref} left unsigned: ${u.why}\n`);
        results.push({ dir, ...r });
      }
      print(
        { cassettes: results },
        results
          .map(
            (r) =>
              `signed ${r.signed} of ${r.frames} frame${r.frames === 1 ? "" : "s"} in ${r.dir} (${r.kept} already signed${r.unsigned.length ? `, ${r.unsigned.length} left unsigned` : ""})\n`,
          )
          .join(""),
      );
      return results.some((r) => r.unsigned.length > 0) ? 1 : 0;
    }
    if (dirs.length === 0)
      throw new UserError("stale takes one or more cassette directories", {
        code: "USAGE",
        field: "dirs",
        fix: "Run `cua-contract cassette stale DIR… --max-age 30d`.",
      });
    const limits = await stalenessLimits(args);
    if (limits.maxAgeMs === undefined && limits.versions === undefined) {
      throw new UserError("stale needs a limit to judge by", {
        code: "USAGE",
        field: "--max-age",
        fix: "Pass --max-age 30d, --contract FILE or --driver-versions RANGE.",
      });
    }
    const now = Date.now();
    const results = dirs.map((dir) => ({ dir, ...judgeStaleness({ header: readCassetteSync(dir, { frames: "skip" }).header, now, ...limits }) }));
    const stale = results.filter((r) => r.stale);
    print(
      { stale: stale.length, cassettes: results },
      results.map((r) => `${r.stale ? "stale" : "fresh"}  ${r.dir}${r.reasons.length ? `: ${r.reasons.join("; ")}` : ""}\n`).join("") +
        `${stale.length} of ${results.length} cassette${results.length === 1 ? "" : "s"} stale\n`,
    );
    return stale.length === 0 ? 0 : 1;
  },
});

/** `--max-age`, and the version range from `--driver-versions` or a contract's `driver.versions`. */
export async function stalenessLimits(args: Record<string, unknown>): Promise<{ maxAgeMs?: number; versions?: string }> {
  const maxAgeMs = typeof args["max-age"] === "string" ? parseMaxAge(args["max-age"]) : undefined;
  let versions: string | undefined;
  if (typeof args["driver-versions"] === "string") {
    const problem = rangeProblem(args["driver-versions"]);
    if (problem)
      throw new UserError(problem, {
        code: "USAGE",
        field: "--driver-versions",
        fix: "Write a version (0.21.0), a series (0.21.x) or comparators (>=0.21.0 <0.23.0).",
      });
    versions = args["driver-versions"];
  } else if (typeof args.contract === "string") versions = (await readContract(args.contract)).driver.versions;
  return { ...(maxAgeMs !== undefined ? { maxAgeMs } : {}), ...(versions !== undefined ? { versions } : {}) };
}
