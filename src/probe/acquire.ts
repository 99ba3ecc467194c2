import { UserError } from "#src/errors.js";
import type { ProbeSnapshot } from "#src/schema/probe-snapshot.js";
import { DEFAULT_STEP_TIMEOUT_MS, probeBinary } from "./run-binary.js";
import { probeSdk, type SdkMcpLines } from "./run-sdk.js";
import { readSnapshot } from "./read-snapshot.js";
import { DEFAULT_SDK_VERSION } from "#src/runtime/load.js";

export interface SnapshotSource {
  driver?: string | undefined;
  sdk?: string | undefined;
  from?: string | undefined;
  timeoutMs?: number | undefined;
  /** Asks a runtime probed in process for its MCP eras (run-sdk.ts); `probe` passes it. */
  mcpLines?: SdkMcpLines | undefined;
}

/** A snapshot from exactly one source: a driver binary, the published runtime, or a stored snapshot. */
export async function acquireSnapshot(source: SnapshotSource & { allowFrom?: boolean }): Promise<ProbeSnapshot> {
  const given = (["driver", "sdk", "from"] as const).filter((k) => source[k] !== undefined && (k !== "from" || source.allowFrom !== false));
  const flags = source.allowFrom === false ? "--driver PATH or --sdk VERSION" : "--driver PATH, --sdk VERSION or --from CASSETTE";
  if (given.length !== 1) {
    throw new UserError(given.length === 0 ? "no driver to probe" : `${given.map((g) => `--${g}`).join(" and ")} were both given`, {
      code: "USAGE",
      field: given.length === 0 ? "--driver" : `--${given[1]}`,
      fix: `Give exactly one of ${flags}.`,
    });
  }
  const timeoutMs = source.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
  if (!(timeoutMs > 0))
    throw new UserError(`${String(source.timeoutMs)} is not a timeout`, {
      code: "USAGE",
      field: "--timeout-ms",
      fix: "Give a positive number of milliseconds (default 10000).",
    });
  // `--driver sdk[:VERSION]` is the published runtime, probed in process like `--sdk VERSION`.
  const sdk = source.driver !== undefined ? /^sdk(?::(.+))?$/.exec(source.driver) : null;
  const eras = source.mcpLines ? { mcpLines: source.mcpLines } : {};
  if (sdk) return probeSdk({ version: sdk[1] ?? DEFAULT_SDK_VERSION, timeoutMs, flag: "--driver", ...eras });
  if (source.driver !== undefined) return probeBinary({ driver: source.driver, timeoutMs });
  if (source.sdk !== undefined) return probeSdk({ version: source.sdk, timeoutMs, ...eras });
  return readSnapshot(source.from!);
}
