import yargs, { type Argv } from "yargs";
import { isUserError, userErrorFromSystemError } from "../errors.js";
import { commands } from "./commands/index.js";
import { version } from "../version.js";

/** Runs the CLI and resolves to the process exit code. Only src/cli prints or chooses exit codes. */
export async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const parser: Argv = yargs(argv)
    .scriptName("cua-contract")
    .usage("$0 <command> [options]\n\nRecord, probe, replay and fuzz cua-driver traffic without a desktop.")
    .version(version)
    .strict()
    .demandCommand(1, "Name a command; `cua-contract --help` lists them.")
    .recommendCommands()
    .updateStrings(USAGE_STRINGS)
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .fail((message, error) => {
      if (error && !isUserError(error)) throw error;
      throw error ?? new UsageFailure(message ?? "bad usage");
    })
    .help();
  const commandNames = new Set(commands.map((c) => String([c.command].flat()[0]).split(" ")[0]));
  for (const command of commands) {
    parser.command({
      ...command,
      handler: async (args: Record<string, unknown>) => {
        exitCode = (await command.handler(args)) ?? 0;
      },
    } as never);
  }
  try {
    await parser.parseAsync();
    return exitCode;
  } catch (error) {
    if (error instanceof UsageFailure) {
      const first = argv[0] ?? "";
      const known = commandNames.has(first);
      const suggestion = /^Did you mean/.test(error.message) ? error.message : `Commands: ${[...commandNames].join(", ")}.`;
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
