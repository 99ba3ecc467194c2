import { harnessOutput } from "#src/cli/run-context.js";
import { WRITE_SAFETY } from "#src/cli/write-safety.js";
import { record } from "#src/recorder/record-session.js";
import { cassetteAnswerWarnings } from "#src/cassette/answer-health-file.js";
import { readFaultPlan } from "#src/transports/run-replay.js";
import { UserError } from "#src/errors.js";
import { defineCommand } from "#src/cli/command.js";

export const recordCommand = defineCommand({
  // `[stray..]` only catches a harness command given without `--`, to say so.
  command: "record [stray..]",
  describe: "Run a harness with a recording cua-driver shim first on PATH and write every driver call to a cassette",
  builder: (y) =>
    y
      .parserConfiguration({ "populate--": true })
      .epilogue(WRITE_SAFETY.record)
      .positional("stray", { type: "string", array: true, hidden: true, describe: "(the harness command goes after --)" })
      .usage(
        "$0 record --out DIR [--driver PATH|sdk[:VERSION]] [--desktop] [--append|--force] [--redact REGEX]… [--no-redact] [--no-probe] [--faults PLAN [--seed N]] [--http-upstream URL [--http-port N]] -- CMD [ARGS…]",
      )
      .option("out", { type: "string", demandOption: true, describe: "Cassette directory to write" })
      .option("driver", {
        type: "string",
        describe: "The real cua-driver (default: cua-driver on PATH), or sdk[:VERSION] for the published runtime @trycua/cua-driver in process",
      })
      .option("desktop", { type: "boolean", default: false, describe: "Run on a throwaway X desktop (Xvfb, at-spi, openbox, gtk3-demo; see docs/desktop.md)" })
      .option("append", { type: "boolean", default: false, describe: "Add to an existing cassette in --out" })
      .option("force", { type: "boolean", default: false, describe: "Replace an existing cassette in --out" })
      .option("redact", { type: "string", array: true, describe: "Also redact every match of this regular expression (repeatable)" })
      .option("no-redact", { type: "boolean", default: false, describe: "Store typed text, clipboard text and tokens as they are" })
      .option("http-upstream", {
        type: "string",
        describe:
          "Also record MCP over HTTP: proxy to this `cua-driver serve` endpoint (http://127.0.0.1:PORT/mcp); the harness gets the proxy in CUA_DRIVER_RS_MCP_HTTP_PORT and CUA_CONTRACT_MCP_HTTP_URL",
      })
      .option("http-port", { type: "number", describe: "Port of the MCP-over-HTTP recording proxy on 127.0.0.1 (default: a free one)" })
      .option("driver-source", {
        type: "string",
        choices: ["binary", "synthetic"],
        describe: "Provenance for the header when --driver is an executable: binary (a real cua-driver, the default) or synthetic (a test double)",
      })
      .option("faults", {
        type: "string",
        describe:
          "Inject this fault plan (JSON, docs/faults.md) into the harness's calls while recording, so its real recovery reaches the driver; replay the cassette with the same plan",
      })
      .option("seed", { type: "number", describe: "Seed for the fault plan's probabilistic rules (default: the plan's seed, else 0)" })
      .option("probe", {
        type: "boolean",
        default: true,
        describe: "Store a capability probe of the driver as probe.json (--no-probe skips it; never taken when appending)",
      }),
  handler: async (args) => {
    const command = (args["--"] as string[] | undefined) ?? [];
    const stray = (args.stray ?? []).map(String);
    if (command.length === 0 || stray.length > 0) {
      throw new UserError(
        stray.length ? `the harness command must follow \`--\` (got ${JSON.stringify(stray.join(" "))} before it)` : "no harness command after `--`",
        { code: "USAGE", field: "--", fix: "Run it as `cua-contract record --out DIR -- CMD [ARGS…]`." },
      );
    }
    if (args.append && args.force) {
      throw new UserError("--append and --force cannot be used together", {
        code: "USAGE",
        field: "--append",
        fix: "Pass --append to add to the cassette, or --force to replace it.",
      });
    }
    if (args["driver-source"] !== undefined && String(args.driver ?? "").startsWith("sdk")) {
      throw new UserError("--driver-source is for an executable driver; a recording from --driver sdk is always source sdk", {
        code: "USAGE",
        field: "--driver-source",
        fix: "Drop --driver-source, or name the executable with --driver PATH.",
      });
    }
    // yargs reads `--no-redact` as the negation of `--redact` (redact: false among the patterns), not as its own flag
    const given = [args.redact ?? []].flat() as unknown[];
    const noRedact = Boolean(args["no-redact"]) || given.includes(false);
    const patterns = given.filter((p): p is string => typeof p === "string");
    if (noRedact && patterns.length > 0) {
      throw new UserError("--no-redact and --redact cannot be used together", {
        code: "USAGE",
        field: "--no-redact",
        fix: "Drop --no-redact to redact (with your patterns too), or drop the --redact patterns to store everything as it is.",
      });
    }
    if (args.seed !== undefined && !Number.isInteger(args.seed)) {
      throw new UserError(`--seed must be an integer (got ${String(args.seed)})`, { code: "USAGE", field: "--seed", fix: "Pass e.g. --seed 42." });
    }
    const faults = args.faults !== undefined ? readFaultPlan(String(args.faults)) : undefined;
    const result = await record({
      out: String(args.out),
      command,
      ...(args.driver !== undefined ? { driver: String(args.driver) } : {}),
      desktop: Boolean(args.desktop),
      append: Boolean(args.append),
      force: Boolean(args.force),
      redact: !noRedact,
      redactPatterns: patterns,
      probe: args.probe !== false,
      ...(faults ? { faults } : {}),
      ...(args.seed !== undefined ? { seed: args.seed } : {}),
      ...(args["driver-source"] !== undefined ? { driverSource: args["driver-source"] as "binary" | "synthetic" } : {}),
      ...(args["http-upstream"] !== undefined ? { httpUpstream: String(args["http-upstream"]) } : {}),
      ...(args["http-port"] !== undefined ? { httpPort: args["http-port"] as number } : {}),
      harness: { output: harnessOutput() },
    });
    const answers = await cassetteAnswerWarnings(result.cassetteDir).catch(() => []);
    for (const w of [...result.warnings, ...answers]) process.stderr.write(`cua-contract record: warning: ${w}\n`);
    if (process.stderr.isTTY)
      process.stderr.write(`cua-contract record: cassette written to ${result.cassetteDir} (check it with \`cua-contract inspect ${result.cassetteDir}\`)\n`);
    return result.exitCode;
  },
});
