import type { Argv } from "yargs";

/** One CLI command. The handler returns the exit code (0 when it returns nothing). */
export interface CliCommand {
  command: string | string[];
  describe: string;
  builder: (yargs: Argv) => Argv;
  handler: (args: Record<string, unknown>) => Promise<number | void>;
}
