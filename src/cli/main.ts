import type { ArgumentsCamelCase, Argv } from "yargs";
import { isUserError, userErrorFromSystemError } from "#src/errors.js";
import { commandName, type CliCommand } from "./command.js";
import { commands } from "./commands/index.js";
import { renderTopHelp } from "./top-help.js";
import { quickArgs } from "./quick-args.js";
import { type MainOptions, withMainOptions } from "./run-context.js";
import { version } from "#src/version.js";
import { USAGE_STRINGS, UsageFailure, checkNumbers, commandMessage, describedBuilder, usageMessage } from "./usage.js";

const SCRIPT = "cua-contract";
const TAGLINE = "Record, probe, replay and fuzz cua-driver traffic without a desktop.";

/**
 * Runs the CLI and resolves to the process exit code. Only src/cli prints or chooses exit codes.
 * Only the named command's module loads; `--help` and `--version` load none, and a command with
 * plain arguments runs without yargs (quick-args.ts). Anything else goes through yargs.
 */
export function main(argv: string[], options: MainOptions = {}): Promise<number> {
  return withMainOptions(options, () => run(argv));
}

/** Flags whose value may look like an option (`--max-age -1d`): joined as `--flag=value`, so the value reaches the flag's own check. */
const VALUE_FLAGS = new Set(["--max-age"]);

function joinDashValues(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") return [...out, ...argv.slice(i)];
    const next = argv[i + 1];
    if (VALUE_FLAGS.has(a) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

async function run(given: string[]): Promise<number> {
  const argv = joinDashValues(given);
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
    // `--driver sdk[:V]` / `--sdk V`: the runtime is chosen (and fetched) first; the module loads only then
    const own = argv.indexOf("--") === -1 ? argv : argv.slice(0, argv.indexOf("--"));
    const args = own.some((a) => a === "--sdk" || a.startsWith("--sdk=") || /^(--driver=)?sdk(:|$)/.test(a))
      ? await (await import("./sdk-flag.js")).prepareSdkFlag(argv, { write: (text) => process.stderr.write(text), isTTY: Boolean(process.stderr.isTTY) })
      : argv;
    const quick = quickArgs(command, args.slice(1), SCRIPT);
    if (quick) return (await command.handler(quick)) ?? 0;
    return await runYargs(args, [command], width);
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
      throw error ?? new UsageFailure(usageMessage({ message: message ?? "bad usage", argv, parser, commands }));
    })
    .middleware((args) => checkNumbers(argv, parser, args))
    .help()
    // `main` resolves to the exit code and never ends the process itself (--help and --version included)
    .exitProcess(false);
  for (const command of loaded) {
    parser.command({
      ...command,
      builder: describedBuilder(command.describe, command.builder),
      handler: async (args: ArgumentsCamelCase) => {
        exitCode = (await command.handler(args)) ?? 0;
      },
    } as never);
  }
  await parser.parseAsync();
  return exitCode;
}

function reportFailure(argv: string[], error: unknown): number {
  if (error instanceof UsageFailure) {
    const { message, help } = commandMessage({ message: error.message, argv, commands });
    process.stderr.write(`cua-contract: ${message}
Run \`${help}\` for usage.
`);
    return 2;
  }
  const userError = isUserError(error) ? error : userErrorFromSystemError(error);
  if (userError) {
    process.stderr.write(`cua-contract: ${userError.message}\n`);
    return userError.exitCode;
  }
  throw error;
}
