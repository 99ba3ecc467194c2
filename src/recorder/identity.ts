import { sha256Hex } from "#src/cassette/frame-ref.js";
import type { ProbeCliRun } from "#src/probe/run-binary.js";
import { recordCliCall } from "#src/transports/cli/tap.js";
import type { RecordingParts } from "#src/transports/recording/recording-parts.js";
import { tap } from "#src/driver/stand-in.js";
import { binaryCliStandIn } from "#src/transports/cli/live.js";

export interface DriverIdentity {
  /** Parsed from `--version` (e.g. "0.21.0"), null when it could not be read. */
  version: string | null;
  versionOutput?: string;
  manifestSha256?: string;
  /** What went wrong, for the user (identity capture never stops a recording). */
  warnings: string[];
}

export const IDENTITY_TIMEOUT_MS = 15_000;

/** The two calls that say which driver spoke; recorded as events with origin "recorder". */
export const IDENTITY_ARGV = [["--version"], ["manifest"]] as const;

type IdentityParts = RecordingParts & { driver: string; env: Record<string, string> };

/**
 * Asks the driver who it is (`--version`, `manifest`) and records both calls as events with
 * origin "recorder", so a replay or a diff can tell exactly which driver spoke.
 */
export async function captureIdentity(options: IdentityParts): Promise<DriverIdentity> {
  const identity = startIdentity();
  for (const argv of IDENTITY_ARGV) await recordIdentityCall({ ...options, identity, argv: [...argv], timeoutMs: IDENTITY_TIMEOUT_MS });
  return identity;
}

export function startIdentity(): DriverIdentity {
  return { version: null, warnings: [] };
}

/**
 * Runs one identity call (`--version` or `manifest`) as the recorder, records it, fills in what
 * it says about the driver and returns the run as the prober reads it, so a probe taken at
 * recording time uses these calls instead of making its own.
 */
export async function recordIdentityCall(options: IdentityParts & { identity: DriverIdentity; argv: string[]; timeoutMs: number }): Promise<ProbeCliRun> {
  const { identity, argv, driver } = options;
  const signal = AbortSignal.timeout(options.timeoutMs);
  let spawnError: Error | undefined;
  // the binary's stand-in, watched for a driver that could not be started (no event is recorded for it)
  const live = tap(binaryCliStandIn({ driver, who: "cua-contract record" }), () => (reply) => {
    if (reply.type === "closed") spawnError = reply.cause;
  });
  const response = await recordCliCall({
    ...options,
    origin: "recorder",
    request: { argv, stdin: Buffer.alloc(0), cwd: process.cwd(), env: options.env, signal },
    live,
  });
  const shown = `\`${driver} ${argv.join(" ")}\``;
  if (spawnError) identity.warnings.push(`could not run ${shown}: ${spawnError.message}`);
  else if (signal.aborted) identity.warnings.push(`${shown} did not answer within ${options.timeoutMs / 1000} s and was stopped`);
  else if (response.exitCode !== 0) identity.warnings.push(`${shown} exited ${response.exitCode ?? response.signal}`);
  else if (argv[0] === "--version") {
    identity.versionOutput = response.stdout.toString("utf8");
    identity.version = /\b(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?)\b/.exec(identity.versionOutput)?.[1] ?? null;
  } else if (argv[0] === "manifest") {
    identity.manifestSha256 = sha256Hex(response.stdout);
  }
  return {
    exitCode: spawnError ? undefined : (response.exitCode ?? undefined),
    signal: response.signal,
    stdout: response.stdout.toString("utf8"),
    stderr: spawnError ? spawnError.message : response.stderr.toString("utf8"),
    timedOut: signal.aborted,
  };
}
