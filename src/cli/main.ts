import yargs, { type Argv } from "yargs";
import { isUserError, userErrorFromSystemError } from "../errors.js";
import { commands } from "./commands/index.js";
import { version } from "../version.js";
import { USAGE_STRINGS, UsageFailure, checkNumbers, commandMessage, describedBuilder, usageMessage } from "./usage.js";

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
      throw error ?? new UsageFailure(usageMessage({ message: message ?? "bad usage", argv, parser, commands }));
    })
    .middleware((args) => checkNumbers(argv, parser, args))
    .help();
  for (const command of commands) {
    parser.command({
      ...command,
      builder: describedBuilder(command.describe, command.builder),
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
      const { message, help } = commandMessage({ message: error.message, argv, commands });
      process.stderr.write(`cua-contract: ${message}\nRun \`${help}\` for usage.\n`);
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
