/**
 * `cua-driver` argv as the 0.21.0 binary reads it: flags anywhere, value flags consume the next
 * token (or `--flag=value`), the first positional picks the subcommand and an unknown first
 * positional is an implicit `call`.
 */
const VALUE_FLAGS = new Set([
  "--cursor-theme", "--cursor-reduced-motion", "--glide-ms", "--dwell-ms", "--idle-hide-ms",
  "--screenshot-out-file", "--client", "--socket", "--permission-mode", "--grant", "--session-policy",
  "--capability-manifest", "--pid-file", "--type", "--host-bundle-id", "--pid", "--strategy",
  "--window-id", "--session", "--profile-mode", "--profile-name", "--experimental-pip-geometry",
]);

const SUBCOMMANDS = new Set([
  "mcp", "list-tools", "describe", "call", "serve", "stop", "revoke", "status", "config", "telemetry",
  "recording", "update", "check-update", "doctor", "diagnose", "permissions", "autostart", "skills",
  "manifest", "channel", "cursor-theme", "sessions", "history", "mcp-config", "dump-docs",
]);

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
  if (argv.some((a) => a === "--version" || a === "-V")) return { command: "version" };
  if (argv.some((a) => a === "--help" || a === "-h")) return { command: "help" };
  const positionals = positionalArgs(argv);
  const [first, second, third] = positionals;
  if (first === undefined || first === "mcp") return { command: "mcp" };
  if (first === "list-tools") return { command: "list-tools" };
  if (first === "describe") return { command: "describe", tool: second ?? "" };
  if (first === "manifest") return { command: "manifest", pretty: argv.some((a) => a === "--pretty" || a === "-p") };
  const screenshotOutFile = flagValue(argv, "--screenshot-out-file");
  if (first === "call") return { command: "call", tool: second ?? "", json: third, implicit: false, screenshotOutFile };
  if (SUBCOMMANDS.has(first)) return { command: "other", name: first };
  return { command: "call", tool: first, json: second, implicit: true, screenshotOutFile };
}

export function positionalArgs(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (VALUE_FLAGS.has(arg)) i++;
    else if (!arg.startsWith("-")) out.push(arg);
  }
  return out;
}

/** `--flag value` or `--flag=value`; the first occurrence wins. */
export function flagValue(argv: readonly string[], flag: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === flag) return argv[i + 1];
    if (arg.startsWith(`${flag}=`)) return arg.slice(flag.length + 1);
  }
  return undefined;
}
