// The cassette store: a directory with cassette.jsonl (header + one event per line) and frames/.
export { CASSETTE_FILE, FRAMES_DIR, PROBE_FILE, BYTES_FIELDS, type Cassette, type FrameStats } from "./cassette.js";
export { readCassette, readCassetteSync, schemaValidators, type ReadCassetteOptions } from "./reader.js";
export { scanCassette, type CassetteScan, type CassetteValidators, type EventPlace, type ScanCassetteOptions } from "./scan.js";
export { readEventAt } from "./event-at.js";
export { readFrame, restoreBytes, restoreText, storedField } from "./restore.js";
export { openCassetteWriter, type CassetteWriter, type CassetteEventInput, type OpenCassetteWriterOptions } from "./writer.js";
export { toStoredBytes, fromStoredBytes } from "./stored-bytes.js";
export { extractImages, findImages, restoreImages } from "./images.js";
export { frameRefFor, parseFrameRef, imageExt, sha256Hex, type FrameExt } from "./frame-ref.js";
export { createRedactor, placeholderFor, REDACTION_KINDS, type Redactor, type RedactionKind, type RedactionSettings } from "./redact.js";
export { parseDriverArgv, callReadsStdin, type DriverArgv } from "#src/transports/cli/wire/argv.js";
export { frameRefsOf } from "./event-frames.js";
export { storeText, type StoredText } from "./store-text.js";
export { summarizeCassette, type CassetteSummary, type ProbeFacts } from "./summary.js";
export { writeProbeFile } from "./probe-file.js";
