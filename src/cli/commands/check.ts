import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineCommand } from "#src/cli/command.js";
import { UserError } from "#src/errors.js";
import { findScenarioFiles } from "#src/check/load-scenario.js";
import { CHECK_BLOB_FORMAT, checkShardFiles, writeCheckBlob } from "#src/check/blob.js";
import { parseShard } from "#src/fuzz/shard.js";
import { referenceRunner, runCheck, type ScenarioRunner } from "#src/check/run-check.js";
import { checkJunitSuites, renderCheckSummary, renderScenarioLine } from "#src/check/render.js";
import { MUTANTS, MUTANT_NAMES } from "#src/fuzz/mutants.js";
import { checkCommandExists } from "#src/check/find-command.js";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";
import type { LogSink } from "#src/check/run-check.js";
import { renderJunit } from "#src/util/junit.js";
import { progressTicker } from "#src/cli/progress.js";
import { writeOutputFile } from "#src/report/write-output.js";

const BUNDLED = fileURLToPath(new URL("../../../contracts/scenarios/", import.meta.url));

export const checkCommand = defineCommand({
  command: "check [scenarios..]",
  describe: "Run scenario contracts (cassette + faults + steps + expectations) against a harness",
  builder: (y) =>
    y
      .positional("scenarios", { type: "string", array: true, describe: "Scenario files or folders (default: the bundled contracts/scenarios/)" })
      .option("harness", {
        type: "string",
        default: "reference",
        describe: `The in-process harness: reference, or a deliberately broken variant (${MUTANT_NAMES.join(", ")})`,
      })
      .option("cmd", { type: "string", describe: "An external harness command line, run per scenario with a replaying cua-driver on PATH" })
      .option("json", { type: "boolean", default: false, describe: "Print one JSON document (the check result)" })
      .option("junit", { type: "string", describe: "Write JUnit XML to this file" })
      .option("progress-every", {
        type: "string",
        default: "10",
        describe: "On a non-TTY, print a progress line to stderr every N scenarios (and at least every 10 s)",
      })
      .option("report", { type: "string", describe: "Write a self-contained HTML report to this file" })
      .option("shard", { type: "string", describe: "Check only shard i of n of the scenarios (e.g. 2/4): every n-th file, starting at the i-th" })
      .option("blob", { type: "string", describe: "With --shard: write this shard's result into this folder, for merge-reports" }),
  handler: async (args) => {
    const all = findScenarioFiles({ args: args.scenarios ?? [], bundledDir: BUNDLED });
    if (all.length === 0) {
      throw new UserError("no scenario files found", { code: "USAGE", field: "scenarios", fix: "Name scenario .json files or a folder holding them." });
    }
    const shard = typeof args.shard === "string" ? parseShard(args.shard) : undefined;
    if (typeof args.blob === "string" && !shard)
      throw new UserError("--blob writes one shard's result for merge-reports; it needs --shard i/n", {
        code: "USAGE",
        field: "--blob",
        fix: "Run each shard with --shard i/n --blob DIR.",
      });
    const picked = shard ? checkShardFiles(all, shard) : all.map((f, i) => ({ f, i }));
    const files = picked.map((p) => p.f);
    const every = /^\d+$/.test(String(args["progress-every"])) ? Number(args["progress-every"]) : NaN;
    if (!Number.isInteger(every) || every < 1)
      throw new UserError(`--progress-every must be a positive integer, got ${String(args["progress-every"])}`, {
        code: "USAGE",
        field: "--progress-every",
        fix: "Pass e.g. --progress-every 5.",
      });
    const now = () => performance.now();
    const logs = new Map<string, ReplayLogEntry[]>();
    const onLog: LogSink | undefined = args.report ? (loaded, log) => logs.set(loaded.file, log) : undefined;
    const { runner, harness } = await pickRunner(args, now, onLog);
    const human = !args.json;
    const color = human && !process.env.NO_COLOR && process.stdout.isTTY === true;
    const ticker = process.stderr.isTTY === true ? undefined : progressTicker({ every, write: (line) => process.stderr.write(line) });
    let done = 0;
    let failing = 0;
    const result = await runCheck({
      files: files.map((f) => relative(f)),
      harness,
      runner,
      now,
      onResult: (s) => {
        if (human) process.stdout.write(renderScenarioLine(s, color));
        done += 1;
        if (!s.passed) failing += 1;
        ticker?.(done, () => `cua-contract check: ${done}/${files.length} scenarios, ${failing} failing`);
      },
    });
    if (typeof args.blob === "string" && shard)
      writeCheckBlob(args.blob, { format: CHECK_BLOB_FORMAT, version: 1, shard, files: all.map((f) => relative(f)), places: picked.map((p) => p.i), result });
    if (args.junit) {
      writeOutputFile({ file: String(args.junit), flag: "--junit", text: renderJunit({ name: "cua-contract check", suites: checkJunitSuites(result) }) });
      process.stderr.write(`cua-contract check: JUnit XML written to ${String(args.junit)}\n`);
    }
    if (args.report) {
      // The report needs sharp (image decoding): loaded only when a report is asked for.
      await (await import("#src/check/report.js")).writeCheckHtml({ file: String(args.report), result, logs });
      process.stderr.write(`cua-contract check: HTML report written to ${String(args.report)}\n`);
    }
    process.stdout.write(human ? renderCheckSummary(result, color) : `${JSON.stringify(result, null, 2)}\n`);
    return result.failed === 0 ? 0 : 1;
  },
});

async function pickRunner(args: Record<string, unknown>, now: () => number, onLog: LogSink | undefined): Promise<{ runner: ScenarioRunner; harness: string }> {
  const sink = onLog ? { onLog } : {};
  if (typeof args.cmd === "string") {
    if (args.harness !== "reference")
      throw new UserError("--cmd and --harness both name a harness", { code: "USAGE", field: "--cmd", fix: "Pass one of them." });
    checkCommandExists({ command: args.cmd, env: process.env, cwd: process.cwd() });
    // An external harness is run with execa: loaded only for --cmd.
    const { externalRunner } = await import("#src/check/run-external.js");
    return { runner: externalRunner({ command: args.cmd, now, ...sink }), harness: `external (${args.cmd})` };
  }
  const name = String(args.harness);
  if (name === "reference") return { runner: referenceRunner({ now, ...sink }), harness: "reference" };
  const mutant = MUTANTS.find((m) => m.name === name);
  if (!mutant) {
    throw new UserError(`unknown harness "${name}"`, {
      code: "USAGE",
      field: "--harness",
      fix: `Use reference or one of ${MUTANT_NAMES.join(", ")}, or --cmd "…" for an external harness.`,
    });
  }
  return { runner: referenceRunner({ parts: mutant.parts, now, ...sink }), harness: `mutant ${mutant.name}` };
}

function relative(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel.startsWith("..") ? file : rel;
}
