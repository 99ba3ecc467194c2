/**
 * `record --driver sdk[:VERSION]`: what the recorder needs to record from the published runtime
 * instead of a binary — the header's `driver` (source "sdk"), the identity calls, the backend.
 */
import type { DriverIdentity } from "#src/recorder/identity.js";
import type { RecordingParts } from "#src/transports/recording/recording-parts.js";
import { probeSdk } from "#src/probe/run-sdk.js";
import type { CassetteHeader } from "#src/schema/cassette.js";
import type { ProbeSnapshot } from "#src/schema/probe-snapshot.js";
import type { ShimBackend } from "#src/shim-server/backend.js";
import { chooseSdk, DEFAULT_SDK_VERSION } from "#src/runtime/load.js";
import { createSdkBackend } from "#src/transports/sdk/sdk-backend.js";
import { sdkMcpLines } from "#src/transports/sdk/probe-lines.js";
import { captureSdkIdentity, createSdkRecorderBackend, sdkDriverInfo } from "./sdk-recorder.js";

export type { RecordingParts };

export interface SdkRecordingDriver {
  info: CassetteHeader["driver"];
  identify(parts: RecordingParts): Promise<DriverIdentity>;
  backend(parts: RecordingParts): ShimBackend;
  /** The capability snapshot of this runtime, taken with the prober on the recording's own instance. */
  probe(): Promise<ProbeSnapshot>;
}

/** The version in `sdk` / `sdk:VERSION`, or undefined when `driver` names a binary. */
export function sdkDriverVersion(driver: string | undefined): string | undefined {
  const match = driver === undefined ? null : /^sdk(?::(.+))?$/.exec(driver);
  return match ? (match[1] ?? DEFAULT_SDK_VERSION) : undefined;
}

/** The version `sdk[:VERSION]` stands for here: a bare `sdk` is the project's own runtime when its version fits, else the pinned one. */
export async function resolvedSdkVersion(driver: string | undefined): Promise<string | undefined> {
  const match = driver === undefined ? null : /^sdk(?::(.+))?$/.exec(driver);
  if (!match) return undefined;
  return match[1] ?? (await chooseSdk()).version;
}

/** Loads the runtime for `--driver sdk[:VERSION]`; undefined when `driver` is not of that form. */
export async function sdkRecordingDriver(driver: string | undefined): Promise<SdkRecordingDriver | undefined> {
  const version = await resolvedSdkVersion(driver);
  if (version === undefined) return undefined;
  const sdk = await createSdkBackend({ version });
  const info = sdkDriverInfo(sdk);
  return {
    info,
    identify: async (parts) => {
      const identity = await captureSdkIdentity({ sdk, ...parts });
      return { version: sdk.metadata.driverVersion, versionOutput: identity.versionOutput, manifestSha256: identity.manifestSha256, warnings: [] };
    },
    backend: (parts) => createSdkRecorderBackend({ sdk, ...parts }),
    // with the era steps, over the runtime's MCP stand-in, as `probe --driver sdk:V` takes them
    probe: () => probeSdk({ version, driver: sdk.driver, flag: "--driver", mcpLines: sdkMcpLines }),
  };
}
