/**
 * The `cua-driver` 0.21 command line as the binary defines it (cli.rs, docs/reference/cua-driver-contract.md §1.1): the flags that take a value
 * and the subcommands it knows (an unknown first positional is an implicit `call`).
 * `src/transports/cli/wire/argv.ts` reads argv with them.
 */

/** Flags that take a value (the next token, or `--flag=value`). */
export const VALUE_FLAGS: ReadonlySet<string> = new Set([
  "--cursor-theme",
  "--cursor-reduced-motion",
  "--glide-ms",
  "--dwell-ms",
  "--idle-hide-ms",
  "--screenshot-out-file",
  "--client",
  "--socket",
  "--permission-mode",
  "--grant",
  "--session-policy",
  "--capability-manifest",
  "--pid-file",
  "--type",
  "--host-bundle-id",
  "--pid",
  "--strategy",
  "--window-id",
  "--session",
  "--profile-mode",
  "--profile-name",
  "--experimental-pip-geometry",
]);

/** The subcommands the binary knows. */
export const SUBCOMMANDS: ReadonlySet<string> = new Set([
  "mcp",
  "list-tools",
  "describe",
  "call",
  "serve",
  "stop",
  "revoke",
  "status",
  "config",
  "telemetry",
  "recording",
  "update",
  "check-update",
  "doctor",
  "diagnose",
  "permissions",
  "autostart",
  "skills",
  "manifest",
  "channel",
  "cursor-theme",
  "sessions",
  "history",
  "mcp-config",
  "dump-docs",
]);

/** Flags whose values differ from run to run (a socket path, an out-file path): never part of what a call is. */
export const VOLATILE_FLAGS: ReadonlySet<string> = new Set(["--socket", "--screenshot-out-file"]);

/** The default daemon socket on Linux, under the user's home (`/tmp` without one; docs/reference/cua-driver-contract.md §1.7). */
export function defaultSocket(home: string | undefined): string {
  return `${home || "/tmp"}/.cache/cua-driver/cua-driver.sock`;
}
