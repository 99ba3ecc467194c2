import { harnessOutput } from "#src/cli/run-context.js";
import { WRITE_SAFETY } from "#src/cli/write-safety.js";
import { UserError } from "#src/errors.js";
import { replay, type ReplayRunSummary } from "#src/transports/run-replay.js";
import { profileNames } from "#src/faults/profiles.js";
import { defineCommand } from "#src/cli/command.js";
import { replayJunitSuites } from "#src/replay/junit.js";
import { renderJunit } from "#src/util/junit.js";
import { writeOutputFile } from "#src/report/write-output.js";
import { stalenessLimits } from "./cassette.js";

const MATCH_MODES = ["per-key", "strict-order"] as const;
const SPEEDS = ["fast", "recorded"] as const;

export const replayCommand = defineCommand({
  command: "replay <dir>",
  describe: "Run a harness against a cassette: a cua-driver shim on PATH answers every call from the recording",
  builder: (y) =>
    y
      .epilogue(WRITE_SAFETY.replay)
      .parserConfiguration({ "populate--": true })
      .usage(
        "$0 replay DIR [--faults PLAN.json] [--seed N] [--match per-key|strict-order] [--ignore PATH…] [--log FILE] [--fail-on-unused] [--json] [--json-out FILE] [--junit FILE] [--speed fast|recorded] [--max-age 30d] [--record-missing --driver sdk[:V] [--desktop] [--allow-in-ci]] -- CMD [ARGS…]",
      )
      .positional("dir", { type: "string", describe: "Cassette directory (holds cassette.jsonl)" })
      .option("faults", {
        type: "string",
        describe: `Fault plan (JSON, docs/faults.md), or profile:NAME, a named profile of field failures: ${profileNames()}`,
      })
      .option("seed", { type: "number", describe: "Seed for the fault plan's random rules (default: the plan's seed, else 0)" })
      .option("match", { type: "string", choices: MATCH_MODES, default: "per-key" as const, describe: "How requests are matched to recorded ones" })
      .option("ignore", { type: "string", array: true, describe: "Argument JSON path ignored when matching (repeatable), e.g. x or target.pid" })
      .option("log", { type: "string", describe: "Write the replay log (JSONL) here" })
      .option("fail-on-unused", { type: "boolean", default: false, describe: "Exit 1 when a recorded mutation was never requested" })
      .option("invariants", { type: "string", array: true, describe: "Invariant ids to check, comma-separated (default: all; --no-invariants for none)" })
      .option("max-repeats", {
        type: "number",
        describe: "bounded-retries: identical calls in a row allowed while every answer shows no progress (default 6)",
      })
      .option("max-identical", {
        type: "number",
        describe: "bounded-retries, opt-in policy: identical calls in a row allowed whatever the driver answered (default: off)",
      })
      .option("json", {
        type: "boolean",
        default: false,
        describe: "Print the summary as one JSON document: the last line of stdout, after whatever the harness itself printed there",
      })
      .option("json-out", { type: "string", describe: "Write the JSON summary to this file (apart from the harness's stdout)" })
      .option("junit", { type: "string", describe: "Write JUnit XML here: one test case per served request, plus the harness's exit" })
      .option("speed", {
        type: "string",
        choices: SPEEDS,
        default: "fast" as const,
        describe: "fast: answer at once; recorded: each answer takes as long as the recorded call did",
      })
      .option("max-age", { type: "string", describe: "Warn at start when the cassette is older than this (30d, 12h, 2w)" })
      .option("contract", { type: "string", describe: "Warn at start when the cassette's driver is outside this contract's driver.versions" })
      .option("driver-versions", { type: "string", describe: "Warn at start when the cassette's driver is outside this range (0.21.x)" })
      .option("record-missing", {
        type: "boolean",
        default: false,
        describe: "Answer what the cassette has, forward what it lacks to the live --driver and add it to the cassette (docs/replay.md)",
      })
      .option("driver", {
        type: "string",
        describe: "--record-missing: the live driver, sdk[:VERSION] (the published runtime in process) or a cua-driver path",
      })
      .option("driver-source", {
        type: "string",
        choices: ["binary", "synthetic"],
        describe: "--record-missing: provenance of an executable --driver for the added events: binary (default) or synthetic (a test double)",
      })
      .option("desktop", { type: "boolean", default: false, describe: "--record-missing: run on a throwaway X desktop (docs/desktop.md)" })
      .option("allow-in-ci", { type: "boolean", default: false, describe: "--record-missing: run even when CI=true" }),
  handler: async (args) => {
    const command = (args["--"] as string[] | undefined) ?? [];
    if (command.length === 0) {
      throw new UserError("no harness command after `--`", { code: "USAGE", field: "--", fix: "Run it as `cua-contract replay DIR -- CMD [ARGS…]`." });
    }
    if (args.seed !== undefined && !Number.isInteger(args.seed)) {
      throw new UserError(`--seed must be an integer (got ${String(args.seed)})`, { code: "USAGE", field: "--seed", fix: "Pass e.g. --seed 42." });
    }
    if (args["record-missing"]) return (await import("./replay-record-missing.js")).replayRecordMissingCommand(args, command);
    for (const flag of ["driver", "driver-source", "desktop", "allow-in-ci"] as const) {
      if (args[flag] !== undefined && args[flag] !== false) {
        throw new UserError(`--${flag} only goes with --record-missing`, {
          code: "USAGE",
          field: `--${flag}`,
          fix: "Replay never reaches a driver; add --record-missing to forward what the cassette lacks.",
        });
      }
    }
    // `--no-invariants` arrives as [false]: check none
    const invariants = (args.invariants as unknown[] | undefined)
      ?.flatMap((s) => (s === false || s === "false" ? ["none"] : String(s).split(",")))
      .filter(Boolean);
    const limits = {
      ...(args["max-repeats"] !== undefined ? { maxRepeats: positiveCount(args["max-repeats"], "--max-repeats") } : {}),
      ...(args["max-identical"] !== undefined ? { maxIdentical: positiveCount(args["max-identical"], "--max-identical") } : {}),
    };
    const stale = await stalenessLimits(args);
    const dir = String(args.dir);
    const summary = await replay({
      dir,
      command,
      speed: args.speed,
      ...(stale.maxAgeMs !== undefined || stale.versions !== undefined
        ? {
            stale,
            onStale: (reasons: string[]) =>
              process.stderr.write(`cua-contract replay: warning: ${dir} is stale: ${reasons.join("; ")}; re-record it (docs/cassettes.md)\n`),
          }
        : {}),
      ...(args.faults !== undefined ? { faultsFile: String(args.faults) } : {}),
      ...(args.seed !== undefined ? { seed: Number(args.seed) } : {}),
      match: args.match,
      ignore: (args.ignore ?? []).map(String),
      ...(args.log !== undefined ? { logFile: String(args.log) } : {}),
      failOnUnused: Boolean(args["fail-on-unused"]),
      ...(invariants ? { invariants: invariants.includes("none") ? [] : invariants } : {}),
      ...(Object.keys(limits).length > 0 ? { invariantOptions: limits } : {}),
      onNotice: (message) => process.stderr.write(`cua-contract replay: UNMATCHED: ${message}\n`),
      onNote: (message) => process.stderr.write(`cua-contract replay: note: ${message}\n`),
      harness: { output: harnessOutput() },
    });
    if (typeof args["json-out"] === "string")
      writeOutputFile({ file: args["json-out"], flag: "--json-out", text: `${JSON.stringify(jsonSummary(summary), null, 2)}\n` });
    if (typeof args.junit === "string") {
      const suites = replayJunitSuites({
        dir,
        entries: summary.entries,
        violations: summary.violations,
        unused: summary.unused,
        failOnUnused: Boolean(args["fail-on-unused"]),
        harnessExitCode: summary.harnessExitCode,
      });
      writeOutputFile({ file: args.junit, flag: "--junit", text: renderJunit({ name: "cua-contract replay", suites }) });
    }
    if (args.json) process.stdout.write(`${JSON.stringify(jsonSummary(summary))}\n`);
    else process.stderr.write(humanSummary(summary));
    return summary.exitCode;
  },
});

function jsonSummary(s: ReplayRunSummary) {
  return {
    served: s.served,
    unmatched: s.unmatched,
    faults: s.faults,
    synthesized: s.synthesized,
    unanswered: s.unanswered,
    unused: s.unused.length,
    unusedMutations: s.unused,
    violations: s.violations,
    harnessExitCode: s.harnessExitCode,
    exitCode: s.exitCode,
  };
}

function humanSummary(s: ReplayRunSummary): string {
  const lines = [
    `cua-contract replay: served ${s.served}, unmatched ${s.unmatched}, faults injected ${s.faults}, synthesized ${s.synthesized}, unanswered ${s.unanswered}, unused recorded mutations ${s.unused.length}`,
  ];
  for (const u of s.unused) lines.push(`  unused: #${u.seq} ${u.tool ?? ""} (${u.kind})`);
  for (const v of s.violations) lines.push(`  violation ${v.id}: ${v.message}`);
  lines.push(`  exit ${s.exitCode}${s.harnessExitCode !== 0 ? ` (the harness exited ${s.harnessExitCode})` : ""}`);
  return `${lines.join("\n")}\n`;
}

/** A whole number of calls, at least 1; anything else is a usage error naming the flag. */
function positiveCount(value: unknown, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new UserError(`${flag} must be a whole number of calls, at least 1 (got ${String(value)})`, {
      code: "USAGE",
      field: flag,
      fix: `Pass e.g. ${flag} 6.`,
    });
  }
  return n;
}
