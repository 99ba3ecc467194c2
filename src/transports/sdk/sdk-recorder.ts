/**
 * Records what the SDK backend answers: every per-call CLI invocation becomes a `cli` event and
 * every MCP line an `mcp` event, exactly as the harness saw them (redacted, images moved to
 * frames), in a cassette whose header says `driver.source: "sdk"`.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parseDriverArgv } from "../../cassette/driver-argv.js";
import { sha256Hex } from "../../cassette/frame-ref.js";
import type { Redactor } from "../../cassette/redact.js";
import { storeText } from "../../cassette/store-text.js";
import { buildCliEvent } from "../../recorder/cli-event.js";
import type { RecordingClock } from "../../recorder/driver-backend.js";
import type { RecordingSink } from "../../recorder/recording-sink.js";
import type { CassetteHeader } from "../../schema/cassette.js";
import type { CliRequest, CliResponse, McpSessionHandler, ShimBackend } from "../../shim-server/backend.js";
import { SDK_PACKAGE } from "./load.js";
import type { SdkBackend } from "./sdk-backend.js";

interface RecorderParts {
  sdk: SdkBackend;
  sink: RecordingSink;
  redactor: Redactor;
  clock: RecordingClock;
}

/** The cassette header's `driver` for a recording made from the runtime. */
export function sdkDriverInfo(sdk: SdkBackend): CassetteHeader["driver"] {
  return {
    version: sdk.metadata.driverVersion,
    platform: `${process.platform}-${process.arch}`,
    source: "sdk",
    location: `sdk:${SDK_PACKAGE}@${sdk.location.version}`,
  };
}

export function createSdkRecorderBackend(parts: RecorderParts): ShimBackend {
  let streams = 0;
  return {
    cli: (request) => recordCli({ ...parts, request, origin: "harness" }),
    mcp: (init, io) => recordMcp({ ...parts, init, io, stream: streams++ }),
    close: () => parts.sdk.close?.() ?? Promise.resolve(),
  };
}

/** Asks the backend `--version` and `manifest` (recorded with origin "recorder"), as for a binary. */
export async function captureSdkIdentity(parts: RecorderParts): Promise<{ versionOutput: string; manifestSha256: string }> {
  const ask = (argv: string[]) =>
    recordCli({
      ...parts,
      origin: "recorder",
      request: { argv, stdin: Buffer.alloc(0), cwd: process.cwd(), env: { PATH: process.env.PATH ?? "" }, signal: new AbortController().signal },
    });
  const version = await ask(["--version"]);
  const manifest = await ask(["manifest"]);
  return { versionOutput: version.stdout.toString("utf8"), manifestSha256: sha256Hex(manifest.stdout) };
}

async function recordCli(options: RecorderParts & { request: CliRequest; origin: "harness" | "recorder" }): Promise<CliResponse> {
  const { request, clock } = options;
  const started = clock();
  const outFile = outFileOf(request);
  const response = await options.sdk.cli(request);
  const files: Record<string, { bytes: Buffer; path: string }> = {};
  if (outFile) {
    const bytes = readIfWritten(outFile.absolute, outFile.before);
    if (bytes) files["--screenshot-out-file"] = { bytes, path: outFile.given };
  }
  options.sink.append(
    buildCliEvent({
      call: {
        argv: request.argv,
        stdin: request.stdin,
        stdout: response.stdout,
        stderr: response.stderr,
        exitCode: response.exitCode,
        t_ms: started,
        duration_ms: clock() - started,
        files,
        origin: options.origin,
      },
      redactor: options.redactor,
      putFrame: options.sink.putFrame,
    }),
  );
  return response;
}

function recordMcp(
  options: RecorderParts & { init: { argv: string[]; cwd: string; env: Record<string, string> }; io: Parameters<ShimBackend["mcp"]>[1]; stream: number },
): McpSessionHandler {
  const { sink, redactor, clock, stream, io } = options;
  const t = () => Math.max(0, Math.round(clock() * 1000) / 1000);
  const toolById = new Map<string, string>();
  const record = (dir: "c2s" | "s2c", line: string) => {
    learn({ redactor, toolById, dir, line });
    const stored = storeText({ bytes: line, field: "line", redactor, putFrame: sink.putFrame });
    sink.append({ kind: "mcp", t_ms: t(), stream, dir, line: stored.stored, ...(stored.splices.length ? { frames: stored.splices } : {}), origin: "harness" });
  };
  sink.append({ kind: "mcp_open", t_ms: t(), stream, argv: options.init.argv.map((a) => redactor.text(a)), origin: "harness" });
  let closed = false;
  const inner = options.sdk.mcp(options.init, {
    send: (line) => {
      record("s2c", line);
      io.send(line);
    },
    stderr: (data) => io.stderr(data),
    exit: (code, signal) => {
      if (!closed) sink.append({ kind: "mcp_close", t_ms: t(), stream, exit_code: code, ...(signal ? { signal } : {}), origin: "harness" });
      closed = true;
      io.exit(code, signal);
    },
  });
  return {
    line: (line) => {
      record("c2s", line);
      inner.line(line);
    },
    end: () => inner.end(),
    gone: () => {
      if (!closed) sink.append({ kind: "mcp_close", t_ms: t(), stream, exit_code: null, signal: "SIGTERM", origin: "harness" });
      closed = true;
      inner.gone?.();
    },
  };
}

// Secrets are learned from the request before either line is stored, as the binary recorder does.
function learn(options: { redactor: Redactor; toolById: Map<string, string>; dir: "c2s" | "s2c"; line: string }): void {
  if (!options.redactor.enabled) return;
  let message: { id?: unknown; method?: unknown; params?: { name?: unknown; arguments?: unknown }; result?: { structuredContent?: unknown } };
  try {
    message = JSON.parse(options.line) as typeof message;
  } catch {
    return;
  }
  if (!message || typeof message !== "object") return;
  const id = JSON.stringify(message.id ?? null);
  if (options.dir === "c2s" && message.method === "tools/call" && typeof message.params?.name === "string") {
    options.toolById.set(id, message.params.name);
    options.redactor.learnFromCall(message.params.name, message.params.arguments);
  } else if (options.dir === "s2c" && message.result) {
    options.redactor.learnFromResult(options.toolById.get(id), message.result.structuredContent);
  }
}

function outFileOf(request: CliRequest): { given: string; absolute: string; before: string | undefined } | undefined {
  const value = parseDriverArgv(request.argv).flags.get("--screenshot-out-file");
  if (typeof value !== "string" || !value) return undefined;
  const absolute = path.resolve(request.cwd || ".", value);
  return { given: value, absolute, before: stamp(absolute) };
}

function stamp(file: string): string | undefined {
  try {
    const st = statSync(file, { bigint: true });
    return st.isFile() ? `${st.mtimeNs}:${st.ctimeNs}:${st.size}:${st.ino}` : undefined;
  } catch {
    return undefined;
  }
}

function readIfWritten(file: string, before: string | undefined): Buffer | undefined {
  const after = stamp(file);
  if (after === undefined || after === before) return undefined;
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}
