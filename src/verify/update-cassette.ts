import { realpathSync } from "node:fs";
import path from "node:path";
import { UserError } from "#src/errors.js";
import { PROBE_FILE, createRedactor, openCassetteWriter, type Cassette, type CassetteWriter } from "#src/cassette/index.js";
import { probeFileBytes } from "#src/cassette/probe-file.js";
import { writeFileAtomic } from "#src/util/atomic-file.js";
import { buildCliEvent } from "#src/transports/cli/recorded-call.js";
import { openMcpStreamRecording } from "#src/transports/mcp/stream-recording.js";
import { startClock } from "#src/transports/recording/recording-parts.js";
import type { CassetteEvent, CassetteHeader } from "#src/schema/cassette.js";
import { sdkSnapshot } from "#src/probe/snapshot-cache.js";
import type { SdkBackend } from "#src/transports/sdk/sdk-backend.js";
import { version as recorderVersion } from "#src/version.js";
import type { CliStepResult } from "./verify-cli-step.js";
import type { McpStreamClient } from "#src/transports/mcp/stream-client.js";

function sameDir(a: string, b: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  return real(a) === real(b);
}

/** `verify --update`: the candidate's answers written as a new cassette (redacted, images in frames, probe.json beside it). */
export interface UpdateWriter {
  cli(step: { event: Extract<CassetteEvent, { kind: "cli" }>; result: CliStepResult }): void;
  mcp(stream: { stream: number; argv: string[]; live: McpStreamClient }): void;
  /** Closes the cassette and returns its directory. */
  finish(): string;
  /** Removes what was written (a failed or refused update leaves nothing half-made). */
  abandon(): void;
}

export async function openUpdate(options: { dir: string; force: boolean; recorded: Cassette; backend: SdkBackend; version: string }): Promise<UpdateWriter> {
  const { recorded, backend } = options;
  if (sameDir(options.dir, recorded.dir)) {
    throw new UserError(`--update ${options.dir} is the cassette being verified`, {
      code: "USAGE",
      field: "--update",
      fix: "Write the updated cassette to another directory (--update NEW_DIR), check it, then move it in place.",
    });
  }
  const snapshot = (await sdkSnapshot(options.version)).snapshot;
  const probe = probeFileBytes(snapshot);
  const { probe_sha256: _p, manifest_sha256: _m, version_output: _v, ...driver } = recorded.header.driver;
  const header: CassetteHeader = {
    ...recorded.header,
    driver: {
      ...driver,
      version: backend.metadata.driverVersion,
      source: "sdk",
      platform: `${process.platform}-${process.arch}`,
      location: `sdk:@trycua/cua-driver@${options.version}`,
      probe_sha256: probe.sha256,
    },
    recorded_at: new Date().toISOString(),
    recorder: { name: "cua-contract", version: recorderVersion },
    // the recording's --redact patterns hold for the candidate's answers too
    redaction: { enabled: true, ...(recorded.header.redaction?.patterns?.length ? { patterns: recorded.header.redaction.patterns } : {}) },
    notes: [
      ...(recorded.header.notes ?? []),
      `re-recorded by \`cua-contract verify --update\` from ${path.relative(process.cwd(), recorded.dir) || "."}: the recorded requests, the candidate's answers`,
    ],
  };
  let probeWritten = false;
  const putProbe = () => {
    writeFileAtomic({ file: path.join(dir, PROBE_FILE), data: probe.bytes });
    probeWritten = true;
  };
  // Over an existing cassette (--force) the new one is written beside it and renamed in place by
  // finish(); a refused or failed update leaves the old one as it was (docs/cassettes.md).
  let writer: CassetteWriter | undefined = openCassetteWriter({ dir: options.dir, header, force: options.force, beforeCommit: putProbe });
  const dir = writer.dir;
  const redactor = createRedactor(header.redaction ?? { enabled: true });
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
      const w = writer;
      writer = undefined;
      done = true;
      w.close();
      // a new cassette (nothing replaced) gets its probe.json after it; a replaced one got it just before the rename
      if (!probeWritten) putProbe();
      return dir;
    },
    abandon() {
      if (done || !writer) return;
      const w = writer;
      writer = undefined;
      w.abort();
    },
  };
}
