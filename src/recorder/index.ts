// The recorder: runs a harness against a real driver behind the shim and writes a cassette.
export { record, openRecording, type OpenRecording, type RecordOptions, type RecordResult } from "./record-session.js";
export { createDriverRecorderBackend } from "./driver-backend.js";
export { startClock, type RecordingClock, type RecordingParts } from "#src/transports/recording/recording-parts.js";
export { cliRecordingTap, recordCliCall } from "#src/transports/cli/tap.js";
export { openMcpStreamRecording, type McpStreamRecording } from "#src/transports/mcp/stream-recording.js";
export { createRecordingSink, type RecordingSink } from "#src/cassette/recording-sink.js";
export { buildCliEvent, type RecordedCliCall } from "#src/transports/cli/recorded-call.js";
export { recordMcpSession } from "#src/transports/mcp/binary-recording.js";
export { captureIdentity, type DriverIdentity } from "./identity.js";
export { probeAndIdentify } from "./probe-capture.js";
export { findDriver } from "./find-driver.js";
export { runDriverOnce, type DriverRun } from "#src/runtime/driver-process.js";
export { runHarness } from "#src/shim-server/run-harness.js";
