// How cua-driver 0.21 reads its argv (docs/reference/cua-driver-contract.md §1.1): flags anywhere, value flags eat the next
// token (or `--flag=value`), the first positional picks the subcommand, an unknown one is an implicit `call`.
// Which flags take a value and which subcommands exist is the driver model's (src/driver/cli-surface.ts).
import { SUBCOMMANDS, VALUE_FLAGS } from "#src/driver/cli-surface.js";

export interface DriverArgv {
  /** `version`/`help` when those flags win, `mcp` for bare `cua-driver`, else the subcommand. */
  subcommand: string;
  positionals: string[];
  flags: Map<string, string | true>;
  /** For `call` (explicit or implicit): the tool and the positional JSON text, if any. */
  tool?: string;
  json?: string;
}

export function parseDriverArgv(argv: readonly string[]): DriverArgv {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token.startsWith("-") && token.length > 1) {
      const eq = token.indexOf("=");
      if (token.startsWith("--") && eq > 2) flags.set(token.slice(0, eq), token.slice(eq + 1));
      else if (VALUE_FLAGS.has(token)) flags.set(token, argv[++i] ?? "");
      else flags.set(token, true);
    } else {
      positionals.push(token);
    }
  }
  const result: DriverArgv = { subcommand: "", positionals, flags };
  if (flags.has("--version") || flags.has("-V")) result.subcommand = "version";
  else if (flags.has("--help") || flags.has("-h")) result.subcommand = "help";
  else if (positionals.length === 0) result.subcommand = "mcp";
  else if (SUBCOMMANDS.has(positionals[0]!)) result.subcommand = positionals[0]!;
  else result.subcommand = "call";
  if (result.subcommand === "call") {
    const rest = positionals[0] === "call" ? positionals.slice(1) : positionals;
    if (rest[0] !== undefined) result.tool = rest[0];
    if (rest[1] !== undefined) result.json = rest[1];
  }
  return result;
}

/** True when a `call` takes its JSON arguments from stdin (no positional JSON). */
export function callReadsStdin(parsed: DriverArgv): boolean {
  return parsed.subcommand === "call" && parsed.json === undefined;
}

/** An argv read by the rules above and narrowed to the commands a backend answers itself. */
export type DriverCommand =
  | { command: "version" }
  | { command: "help" }
  | { command: "mcp" }
  | { command: "list-tools" }
  | { command: "describe"; tool: string }
  | { command: "manifest"; pretty: boolean }
  | { command: "call"; tool: string; json?: string | undefined; implicit: boolean; screenshotOutFile?: string | undefined }
  | { command: "other"; name: string };

export function driverCommand(argv: readonly string[]): DriverCommand {
  const parsed = parseDriverArgv(argv);
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
