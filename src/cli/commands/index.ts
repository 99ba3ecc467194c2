import type { CliCommand } from "../command.js";

// Each command lives in its own file; add it here.
export const commands: CliCommand[] = [];
