import { fileURLToPath } from "node:url";
import { defineCommand } from "#src/cli/command.js";
import { UserError } from "#src/errors.js";
import { basesFromCassettes, bundledBases, type LoadedBase } from "#src/fuzz/bases.js";
import { runCampaign, type CampaignFailure } from "#src/fuzz/campaign.js";
import { runMutants, type MutantResult } from "#src/fuzz/mutant-campaign.js";
import { MUTANTS, MUTANT_NAMES } from "#src/fuzz/mutants.js";
import { reproduceCommand } from "#src/fuzz/reproduce.js";
import { saveFailure } from "#src/fuzz/save.js";
import { parseShard } from "#src/fuzz/shard.js";
import { fuzzBlob, writeFuzzBlob } from "#src/fuzz/blob.js";
import { baseNamer, distinctFailures, fuzzDocument } from "#src/fuzz/document.js";
import { externalCaseRunner } from "#src/fuzz/run-external-case.js";
import { checkCommandExists } from "#src/check/find-command.js";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { progressLine, renderFailure, renderMutants, renderSummary } from "#src/fuzz/render.js";
import { fuzzJunitSuites, mutantJunitSuites } from "#src/fuzz/junit.js";
import { renderJunit } from "#src/util/junit.js";
import { writeOutputFile } from "#src/report/write-output.js";
import { parseEnvPairs, toolInvocation } from "#src/cli/invocation.js";
import { progressTicker } from "#src/cli/progress.js";

const BUNDLED = fileURLToPath(new URL("../../../contracts/scenarios/", import.meta.url));
export const DEFAULT_FUZZ_RUNS = 500;

export const fuzzCommand = defineCommand({
  command: "fuzz",
  describe: "Generate fault plans and step scripts over cassettes, check the harness, shrink and save failures",
  builder: (y) =>
    y
      .option("runs", { type: "number", default: DEFAULT_FUZZ_RUNS, describe: "Generated cases to run (per mutant with --mutants)" })
      .option("seed", { type: "number", describe: "Base seed (run k uses seed + k); random when not given" })
      .option("shard", { type: "string", describe: "Run only shard i of n (e.g. 2/4): disjoint slices that together cover all runs" })
      .option("jobs", {
        type: "string",
        default: "1",
        describe: "Run this many cases side by side, each with its own shim and replay session (the findings are the same for any number)",
      })
      .option("blob", {
        type: "string",
        describe: "With --shard: write this shard's result into this folder, for merge-reports (one verdict, JUnit and report for all shards)",
      })
      .option("path", { type: "string", describe: "Replay one shrunk case (from a failure's reproduce command)" })
      .option("cassette", {
        type: "string",
        array: true,
        describe: "Fuzz these cassettes (their recorded calls are the base flow) instead of the bundled scenarios",
      })
      .option("harness", { type: "string", default: "reference", describe: `reference, or a broken variant: ${MUTANT_NAMES.join(", ")}` })
      .option("cmd", {
        type: "string",
        describe: "Fuzz an external harness command line instead (each case through the replaying shim; slow: one process per run)",
      })
      .option("mutants", { type: "boolean", default: false, describe: "Hunt every broken variant of the reference harness; exit 1 if one survives" })
      .option("env", { type: "string", array: true, describe: "KEY=VALUE set for the harness (repeatable); repeated in each reproduce line" })
      .option("junit", { type: "string", describe: "Write JUnit XML here: one test case per run (per mutant with --mutants)" })
      .option("progress-every", { type: "string", default: "50", describe: "On a non-TTY, print a progress line every N runs (and at least every 10 s)" })
      .option("save", { type: "string", describe: "Write each shrunk failure as a scenario file in this folder" })
      .option("field-faults", {
        type: "boolean",
        default: false,
        describe: "Also draw the field fault kinds (stall, freeze, no_effect, oversized, session_expired) and the named profiles (docs/faults.md)",
      })
      .option("json", { type: "boolean", default: false, describe: "Print one JSON document" }),
  handler: async (args) => {
    const runs = Number(args.runs);
    if (!Number.isInteger(runs) || runs < 1)
      throw new UserError(`--runs must be a positive integer, got ${String(args.runs)}`, { code: "USAGE", field: "--runs", fix: "Pass e.g. --runs 1000." });
    const seed = args.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(args.seed);
    if (!Number.isSafeInteger(seed))
      throw new UserError(`--seed must be an integer, got ${String(args.seed)}`, { code: "USAGE", field: "--seed", fix: "Pass e.g. --seed 42." });
    if (typeof args.path === "string" && !/^\d+(:\d+)*$/.test(args.path)) {
      throw new UserError(`--path must be colon-separated numbers as a failure's reproduce command prints it, got ${args.path}`, {
        code: "USAGE",
        field: "--path",
        fix: "Copy --seed, --runs 1 and --path from the reproduce line.",
      });
    }
    const shard = typeof args.shard === "string" ? parseShard(args.shard) : undefined;
    const jobs = /^\d+$/.test(String(args.jobs)) ? Number(args.jobs) : NaN;
    if (!Number.isInteger(jobs) || jobs < 1)
      throw new UserError(`--jobs must be a positive integer, got ${String(args.jobs)}`, { code: "USAGE", field: "--jobs", fix: "Pass e.g. --jobs 4." });
    const cassettes = args.cassette ?? [];
    const bases: LoadedBase[] = cassettes.length > 0 ? basesFromCassettes(cassettes) : bundledBases(BUNDLED);
    if (bases.every((b) => b.steps.length === 0)) {
      throw new UserError("the cassettes hold no tool calls to vary", {
        code: "BAD_CASSETTE",
        field: "--cassette",
        fix: "Fuzz a cassette with recorded tools/call requests or CLI calls.",
      });
    }
    const every = /^\d+$/.test(String(args["progress-every"])) ? Number(args["progress-every"]) : NaN;
    if (!Number.isInteger(every) || every < 1)
      throw new UserError(`--progress-every must be a positive integer, got ${String(args["progress-every"])}`, {
        code: "USAGE",
        field: "--progress-every",
        fix: "Pass e.g. --progress-every 100.",
      });
    const env = parseEnvPairs(args.env ?? []);
    for (const [k, v] of env) process.env[k] = v;
    const json = Boolean(args.json);
    const tty = !json && process.stderr.isTTY === true;
    const ciLog = process.stderr.isTTY !== true;
    const ticker = ciLog ? progressTicker({ every, write: (line) => process.stderr.write(line) }) : undefined;
    const color = !json && !process.env.NO_COLOR && process.stdout.isTTY === true;

    const external = typeof args.cmd === "string" ? args.cmd : undefined;
    if (external !== undefined) {
      if (args.harness !== "reference" || args.mutants)
        throw new UserError("--cmd names the harness; it cannot be combined with --harness or --mutants", {
          code: "USAGE",
          field: "--cmd",
          fix: "Pass one of them.",
        });
      checkCommandExists({ command: external, env: process.env, cwd: process.cwd() });
    }
    if (args.mutants) {
      const mutants = await runMutants({
        bases,
        runs,
        seed,
        // one line per mutant: on a TTY with the human output, and always in a CI log (each can take hundreds of runs)
        ...(tty || ciLog
          ? {
              onMutant: (m: MutantResult) =>
                process.stderr.write(`${ciLog ? "cua-contract fuzz: " : ""}${m.name}: ${m.caught ? `caught after ${m.runs} runs` : "not caught"}\n`),
            }
          : {}),
      });
      const survived = mutants.filter((m) => !m.caught).length;
      if (typeof args.junit === "string")
        writeOutputFile({
          file: args.junit,
          flag: "--junit",
          text: renderJunit({ name: "cua-contract fuzz", suites: mutantJunitSuites({ mutants, runs, seed }) }),
        });
      if (json) {
        const doc = {
          runs,
          seed,
          violations: mutants.filter((m) => m.caught).length,
          failures: [],
          mutants: mutants.map(({ failure: _f, ...m }) => ({ ...m, ...(_f ? { seed: _f.seed, path: _f.path } : {}) })),
        };
        process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
      } else process.stdout.write(renderMutants({ mutants, runs, seed, color }));
      return survived === 0 ? 0 : 1;
    }

    const harness = external !== undefined ? "external" : String(args.harness);
    const mutant = MUTANTS.find((m) => m.name === harness);
    if (harness !== "reference" && harness !== "external" && !mutant) {
      throw new UserError(`unknown harness "${harness}"`, { code: "USAGE", field: "--harness", fix: `Use reference or one of ${MUTANT_NAMES.join(", ")}.` });
    }
    if (typeof args.blob === "string" && (!shard || typeof args.path === "string"))
      throw new UserError("--blob writes one shard's result for merge-reports; it needs --shard i/n (and no --path)", {
        code: "USAGE",
        field: "--blob",
        fix: "Run each shard with --shard i/n --blob DIR, e.g. --shard 1/4 --blob blob-report.",
      });
    await using scratch = await privateDir();
    const campaignStarted = performance.now();
    const result = await runCampaign({
      bases,
      ...(external !== undefined ? { runCase: externalCaseRunner({ command: external, bases, dir: scratch.path }) } : {}),
      runs,
      seed,
      ...(args["field-faults"] ? { fieldFaults: true } : {}),
      ...(mutant ? { parts: mutant.parts } : {}),
      ...(shard ? { shard } : {}),
      ...(jobs > 1 ? { jobs } : {}),
      ...(typeof args.path === "string" ? { path: args.path } : {}),
      ...(tty ? { onProgress: (done: number, total: number, v: number) => process.stderr.write(progressLine(done, total, v, done === total)) } : {}),
      ...(ticker
        ? { onProgress: (done: number, total: number, v: number) => ticker(done, () => `cua-contract fuzz: ${done}/${total} runs, ${v} failing`) }
        : {}),
    });
    const invocation = toolInvocation();
    const reproduce = (f: CampaignFailure) =>
      reproduceCommand({
        seed: f.seed,
        path: f.path,
        harness,
        cassettes,
        invocation,
        env,
        ...(args["field-faults"] ? { fieldFaults: true } : {}),
        ...(external !== undefined ? { cmd: external } : {}),
      });
    if (typeof args.junit === "string")
      writeOutputFile({
        file: args.junit,
        flag: "--junit",
        text: renderJunit({ name: "cua-contract fuzz", suites: fuzzJunitSuites({ result, harness, seed, reproduce }) }),
      });
    if (typeof args.blob === "string" && shard) {
      writeFuzzBlob(
        args.blob,
        fuzzBlob({
          result,
          seed,
          runs,
          shard,
          harness,
          bases: bases.map((b) => b.name),
          reproduce,
          durationMs: performance.now() - campaignStarted,
        }),
      );
    }
    const saved: string[] = [];
    if (typeof args.save === "string") {
      for (const { failure: f } of distinctFailures(result.failures))
        saved.push(await saveFailure({ dir: args.save, failure: f, bases, reproduce: reproduce(f) }));
    }
    if (json) {
      const doc = fuzzDocument({ result, seed, shard, harness, reproduce, baseName: baseNamer(bases), saved });
      process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    } else {
      for (const [i, { failure: f }] of distinctFailures(result.failures).entries())
        process.stdout.write(renderFailure({ failure: f, base: bases[f.fcase.base]!, reproduce: reproduce(f), saved: saved[i], color }));
      process.stdout.write(renderSummary({ result, seed, harness, ...(shard ? { shard } : {}), bases: bases.length, color }));
    }
    return result.violations === 0 ? 0 : 1;
  },
});

/** A 0700 scratch directory for case files, removed when the command ends. */
async function privateDir(): Promise<{ path: string } & AsyncDisposable> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "cua-contract-fuzz-"));
  return { path: dir, [Symbol.asyncDispose]: () => rm(dir, { recursive: true, force: true }) };
}
