import type { Argv } from "yargs";
import { isUserError, userErrorFromSystemError } from "../errors.js";
import { commandName, type CliCommand } from "./command.js";
import { commands } from "./commands/index.js";
import { renderTopHelp } from "./top-help.js";
import { quickArgs } from "./quick-args.js";
import { version } from "../version.js";

const SCRIPT = "cua-contract";
const TAGLINE = "Record, probe, replay and fuzz cua-driver traffic without a desktop.";

/**
 * Runs the CLI and resolves to the process exit code. Only src/cli prints or chooses exit codes.
 * Only the named command's module loads; `--help` and `--version` load none, and a command with
 * plain arguments runs without yargs (quick-args.ts). Anything else goes through yargs.
 */
export async function main(argv: string[]): Promise<number> {
  const first = argv[0] ?? "";
  const entry = commands.find((c) => commandName(c) === first);
  const width = Math.min(110, process.stdout.columns ?? 100);
  try {
    if (!entry) {
      if (argv.length === 1 && (first === "--help" || first === "-h")) {
        process.stdout.write(renderTopHelp({ script: SCRIPT, tagline: TAGLINE, commands, width }));
        return 0;
      }
      if (argv.length === 1 && first === "--version") {
        process.stdout.write(`${version}\n`);
        return 0;
      }
      // Usage errors and unusual orders (options before the command) get yargs with every command.
      return await runYargs(argv, await Promise.all(commands.map((c) => c.load())), width);
    }
    const command = await entry.load();
    const quick = quickArgs(command, argv.slice(1), SCRIPT);
    if (quick) return (await command.handler(quick)) ?? 0;
    return await runYargs(argv, [command], width);
  } catch (error) {
    return reportFailure(argv, error);
  }
}

async function runYargs(argv: string[], loaded: CliCommand[], width: number): Promise<number> {
  const { default: yargs } = await import("yargs");
  let exitCode = 0;
  const parser: Argv = yargs(argv)
    .scriptName(SCRIPT)
    .usage(`$0 <command> [options]\n\n${TAGLINE}`)
    .version(version)
    .strict()
    .demandCommand(1, "Name a command; `cua-contract --help` lists them.")
    .recommendCommands()
    .updateStrings(USAGE_STRINGS)
    .wrap(width)
    .fail((message, error) => {
      if (error && !isUserError(error)) throw error;
      throw error ?? new UsageFailure(message ?? "bad usage");
    })
    .help();
  for (const command of loaded) {
    parser.command({
      ...command,
      handler: async (args: Record<string, unknown>) => {
        exitCode = (await command.handler(args)) ?? 0;
      },
    } as never);
  }
  await parser.parseAsync();
  return exitCode;
}

function reportFailure(argv: string[], error: unknown): number {
  if (error instanceof UsageFailure) {
    const names = commands.map(commandName);
    const first = argv[0] ?? "";
    const known = names.includes(first);
    const suggestion = /^Did you mean/.test(error.message) ? error.message : `Commands: ${names.join(", ")}.`;
    const message = !known && first !== "" && !first.startsWith("-") ? `Unknown command: ${first}. ${suggestion}` : oneLine(error.message);
    process.stderr.write(`cua-contract: ${message}\nRun \`${known ? `cua-contract ${first} --help` : "cua-contract --help"}\` for usage.\n`);
    return 2;
  }
  const userError = isUserError(error) ? error : userErrorFromSystemError(error);
  if (userError) {
    process.stderr.write(`cua-contract: ${userError.message}\n`);
    return userError.exitCode;
  }
  throw error;
}

class UsageFailure extends Error {}

/** yargs' multi-line usage messages, reworded so each fits one line and names the fix. */
const USAGE_STRINGS = {
  "Argument: %s, Given: %s, Choices: %s": "%s: %s is not a valid value; choose one of %s.",
  "Not enough non-option arguments: got %s, need at least %s": {
    one: "Missing arguments: got %s, need at least %s.",
    other: "Missing arguments: got %s, need at least %s.",
  },
  "Missing required argument: %s": { one: "Missing required option: --%s.", other: "Missing required options: %s." },
} as unknown as Record<string, string>;

const oneLine = (message: string) =>
  message
    .replace(/^Invalid values:\s*/, "")
    .replace(/\s*\n\s*/g, " ")
    .trim();
