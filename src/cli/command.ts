import type { Argv } from "yargs";

/** One CLI command. The handler returns the exit code (0 when it returns nothing). */
export interface CliCommand {
  command: string | string[];
  describe: string;
  builder: (yargs: Argv) => Argv;
  handler: (args: Record<string, unknown>) => Promise<number | undefined>;
}

/**
 * A command as the CLI lists it: usage and description (for `--help`, without loading anything)
 * and the module that holds it, loaded only when the command runs. `command` and `describe` are
 * the loaded command's own (a test holds them equal).
 */
export interface CommandEntry {
  command: string;
  describe: string;
  load: () => Promise<CliCommand>;
}

/** The command's name: the first word of its usage. */
export const commandName = (entry: { command: string | string[] }): string => String([entry.command].flat()[0]).split(" ")[0]!;
