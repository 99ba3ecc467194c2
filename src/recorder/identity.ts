import { sha256Hex } from "../cassette/frame-ref.js";
import type { Redactor } from "../cassette/redact.js";
import { buildCliEvent } from "./cli-event.js";
import type { RecordingClock } from "./recording-parts.js";
import type { RecordingSink } from "./recording-sink.js";
import { runDriverOnce } from "./run-driver.js";

export interface DriverIdentity {
  /** Parsed from `--version` (e.g. "0.21.0"), null when it could not be read. */
  version: string | null;
  versionOutput?: string;
  manifestSha256?: string;
  /** What went wrong, for the user (identity capture never stops a recording). */
  warnings: string[];
}

const IDENTITY_TIMEOUT_MS = 15_000;

/**
 * Asks the driver who it is (`--version`, `manifest`) and records both calls as events with
 * origin "recorder", so a replay or a diff can tell exactly which driver spoke.
 */
export async function captureIdentity(options: {
  driver: string;
  env: Record<string, string>;
  sink: RecordingSink;
  redactor: Redactor;
  clock: RecordingClock;
}): Promise<DriverIdentity> {
  const identity: DriverIdentity = { version: null, warnings: [] };
  const ask = async (argv: string[]) => {
    const started = options.clock();
    const signal = AbortSignal.timeout(IDENTITY_TIMEOUT_MS);
    const run = await runDriverOnce({ driver: options.driver, argv, stdin: Buffer.alloc(0), cwd: process.cwd(), env: options.env, signal });
    if (run.spawnError) {
      identity.warnings.push(`could not run \`${options.driver} ${argv.join(" ")}\`: ${run.spawnError.message}`);
      return undefined;
    }
    if (signal.aborted) identity.warnings.push(`\`${options.driver} ${argv.join(" ")}\` did not answer within ${IDENTITY_TIMEOUT_MS / 1000} s and was stopped`);
    else if (run.exitCode !== 0) identity.warnings.push(`\`${options.driver} ${argv.join(" ")}\` exited ${run.exitCode ?? run.signal}`);
    options.sink.append(
      buildCliEvent({
        call: {
          argv,
          stdin: Buffer.alloc(0),
          stdout: run.stdout,
          stderr: run.stderr,
          exitCode: run.exitCode,
          ...(run.signal ? { signal: run.signal } : {}),
          t_ms: started,
          duration_ms: options.clock() - started,
          origin: "recorder",
        },
        redactor: options.redactor,
        putFrame: options.sink.putFrame,
      }),
    );
    return run.exitCode === 0 ? run : undefined;
  };
  const version = await ask(["--version"]);
  if (version) {
    identity.versionOutput = version.stdout.toString("utf8");
    identity.version = /\b(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?)\b/.exec(identity.versionOutput)?.[1] ?? null;
  }
  const manifest = await ask(["manifest"]);
  if (manifest) identity.manifestSha256 = sha256Hex(manifest.stdout);
  return identity;
}
