import type { CliCommand } from "../command.js";
import { importCommand } from "./import.js";

// Each command lives in its own file; add it here.
export const commands: CliCommand[] = [importCommand];
