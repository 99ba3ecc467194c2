import type { ArgumentsCamelCase, Argv } from "yargs";

/**
 * One CLI command. The handler returns the exit code (0 when it returns nothing) and sees the
 * arguments its builder declares, typed (`defineCommand` infers them from the builder).
 */
// biome-ignore lint/complexity/noBannedTypes: a command that declares no options has the empty options type, as yargs has
export interface CliCommand<T = {}> {
  command: string | string[];
  describe: string;
  builder(yargs: Argv): Argv<T>;
  handler(args: ArgumentsCamelCase<T>): Promise<number | undefined>;
}

/** A command, its handler's arguments typed from what its builder declares. */
export function defineCommand<T>(command: CliCommand<T>): CliCommand<T> {
  return command;
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
