import { rmSync } from "node:fs";
import path from "node:path";
import {
  CASSETTE_FILE,
  FRAMES_DIR,
  PROBE_FILE,
  createRedactor,
  openCassetteWriter,
  sha256Hex,
  writeProbeFile,
  type Cassette,
  type CassetteWriter,
} from "#src/cassette/index.js";
import { buildCliEvent } from "#src/recorder/cli-event.js";
import { openMcpStreamRecording } from "#src/recorder/mcp-stream-recording.js";
import { startClock } from "#src/recorder/recording-parts.js";
import type { CassetteEvent, CassetteHeader } from "#src/schema/cassette.js";
import { sdkSnapshot } from "#src/probe/snapshot-cache.js";
import type { SdkBackend } from "#src/transports/sdk/sdk-backend.js";
import { version as recorderVersion } from "#src/version.js";
import type { CliStepResult } from "./verify-cli-step.js";
import type { LiveMcpStream } from "./verify-mcp-stream.js";

/** `verify --update`: the candidate's answers written as a new cassette (redacted, images in frames, probe.json beside it). */
export interface UpdateWriter {
  cli(step: { event: Extract<CassetteEvent, { kind: "cli" }>; result: CliStepResult }): void;
  mcp(stream: { stream: number; argv: string[]; live: LiveMcpStream }): void;
  /** Closes the cassette and returns its directory. */
  finish(): string;
  /** Removes what was written (a failed or refused update leaves nothing half-made). */
  abandon(): void;
}

export async function openUpdate(options: { dir: string; force: boolean; recorded: Cassette; backend: SdkBackend; version: string }): Promise<UpdateWriter> {
  const { recorded, backend } = options;
  const snapshot = (await sdkSnapshot(options.version)).snapshot;
  const { probe_sha256: _p, manifest_sha256: _m, version_output: _v, ...driver } = recorded.header.driver;
  const header: CassetteHeader = {
    ...recorded.header,
    driver: {
      ...driver,
      version: backend.metadata.driverVersion,
      source: "sdk",
      platform: `${process.platform}-${process.arch}`,
      location: `sdk:@trycua/cua-driver@${options.version}`,
      probe_sha256: sha256Hex(Buffer.from(`${JSON.stringify(snapshot, null, 2)}\n`)),
    },
    recorded_at: new Date().toISOString(),
    recorder: { name: "cua-contract", version: recorderVersion },
    redaction: { enabled: true },
    notes: [
      ...(recorded.header.notes ?? []),
      `re-recorded by \`cua-contract verify --update\` from ${path.relative(process.cwd(), recorded.dir) || "."}: the recorded requests, the candidate's answers`,
    ],
  };
  let writer: CassetteWriter | undefined = openCassetteWriter({ dir: options.dir, header, force: options.force });
  const dir = writer.dir;
  const redactor = createRedactor({ enabled: true });
  const clock = startClock();
  let done = false;
  return {
    cli({ event, result }) {
      const t = clock();
      writer?.append(
        buildCliEvent({
          call: {
            argv: result.argv,
            stdin: result.stdin,
            stdout: result.response.stdout,
            stderr: result.response.stderr,
            exitCode: result.response.exitCode,
            t_ms: t,
            duration_ms: result.duration_ms,
            files: result.files,
            origin: event.origin ?? "harness",
          },
          redactor,
          putFrame: (bytes, ext) => writer!.putFrame(bytes, ext),
        }),
      );
    },
    mcp({ stream, argv, live }) {
      if (!writer) return;
      const w = writer;
      const sink = {
        dir,
        append: (e: Parameters<CassetteWriter["append"]>[0]) => w.append(e),
        putFrame: w.putFrame.bind(w),
        header: () => w.header,
        close: () => {},
      };
      const rec = openMcpStreamRecording({ sink, redactor, clock, stream, argv });
      for (const l of live.lines) rec.line(l.dir, l.line);
      for (const s of live.stderr) rec.stderr(s);
      rec.close(0);
    },
    finish() {
      if (!writer) return dir;
      writer.close();
      writer = undefined;
      done = true;
      writeProbeFile({ dir, snapshot });
      return dir;
    },
    abandon() {
      if (done || !writer) return;
      writer.close();
      writer = undefined;
      for (const name of [CASSETTE_FILE, FRAMES_DIR, PROBE_FILE]) rmSync(path.join(dir, name), { recursive: true, force: true });
    },
  };
}
