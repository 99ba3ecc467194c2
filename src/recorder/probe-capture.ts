import { probeBinary, runProbeCli, type ProbeCliRunner } from "#src/probe/run-binary.js";
import type { ProbeSnapshot } from "#src/schema/probe-snapshot.js";
import { IDENTITY_ARGV, IDENTITY_TIMEOUT_MS, recordIdentityCall, startIdentity, type DriverIdentity } from "./identity.js";
import type { RecordingParts } from "#src/transports/recording/recording-parts.js";

/**
 * Identity and capability probe of a driver binary in one pass: the prober's `--version` and
 * `manifest` steps are the identity calls the recorder records, so neither runs twice.
 */
export async function probeAndIdentify(
  options: RecordingParts & { driver: string; env: Record<string, string> },
): Promise<{ identity: DriverIdentity; snapshot: ProbeSnapshot }> {
  const identity = startIdentity();
  const runCli: ProbeCliRunner = async (step) => {
    if (!isIdentityCall(step.args)) return runProbeCli(step);
    return recordIdentityCall({ ...options, env: definedOnly(step.env), identity, argv: step.args, timeoutMs: step.timeoutMs });
  };
  const snapshot = await probeBinary({ driver: options.driver, timeoutMs: IDENTITY_TIMEOUT_MS, env: options.env, runCli });
  return { identity, snapshot };
}

function isIdentityCall(args: string[]): boolean {
  return IDENTITY_ARGV.some((argv) => argv.length === args.length && argv.every((a, i) => a === args[i]));
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}
