/** The shim's argv, read by the shared cua-driver argv rules, narrowed to what the SDK backend answers. */
import { parseDriverArgv as readDriverArgv } from "../../cassette/driver-argv.js";

export type ParsedArgv =
  | { command: "version" }
  | { command: "help" }
  | { command: "mcp" }
  | { command: "list-tools" }
  | { command: "describe"; tool: string }
  | { command: "manifest"; pretty: boolean }
  | { command: "call"; tool: string; json?: string; implicit: boolean; screenshotOutFile?: string }
  | { command: "other"; name: string };

export function parseDriverArgv(argv: readonly string[]): ParsedArgv {
  const parsed = readDriverArgv(argv);
  switch (parsed.subcommand) {
    case "version":
    case "help":
    case "mcp":
    case "list-tools":
      return { command: parsed.subcommand };
    case "describe":
      return { command: "describe", tool: parsed.positionals[1] ?? "" };
    case "manifest":
      return { command: "manifest", pretty: parsed.flags.has("--pretty") || parsed.flags.has("-p") };
    case "call": {
      const outFile = parsed.flags.get("--screenshot-out-file");
      return {
        command: "call",
        tool: parsed.tool ?? "",
        json: parsed.json,
        implicit: parsed.positionals[0] !== "call",
        screenshotOutFile: typeof outFile === "string" ? outFile : undefined,
      };
    }
    default:
      return { command: "other", name: parsed.subcommand };
  }
}
