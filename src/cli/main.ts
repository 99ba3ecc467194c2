import yargs, { type Argv } from "yargs";
import { isUserError } from "../errors.js";
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
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .fail((message, error) => {
      if (error && !isUserError(error)) throw error;
      throw error ?? new UsageFailure(message ?? "bad usage");
    })
    .help();
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
      process.stderr.write(`cua-contract: ${error.message}\nRun \`cua-contract --help\` for usage.\n`);
      return 2;
    }
    if (isUserError(error)) {
      process.stderr.write(`cua-contract: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}

class UsageFailure extends Error {}
