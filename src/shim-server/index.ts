// The session server behind the `cua-driver` shim; recorder and replayer plug in as a ShimBackend.
export type { ShimBackend, CliRequest, CliResponse, McpIo, McpSessionHandler } from "./backend.js";
export { startShimServer, type ShimServer, type StartShimServerOptions } from "./server.js";
export { installShim, type ShimKind } from "./shim-files.js";
export { nativeShimBinary } from "./native-shim.js";
export { runHarness, harnessExitCode, type HarnessOutcome } from "./run-harness.js";
