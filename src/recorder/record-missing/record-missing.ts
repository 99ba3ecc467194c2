import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { createRedactor } from "#src/cassette/redact.js";
import { lockCassette } from "#src/cassette/safe-files.js";
import type { HeldLock } from "#src/util/file-lock.js";
import { writeFrame } from "#src/cassette/frame-store.js";
import { startRecordingDesktop } from "#src/desktop/recording-desktop.js";
import { UserError } from "#src/errors.js";
import type { CliRequest, CliResponse, McpSessionHandler, ShimBackend } from "#src/shim-server/backend.js";
import { harnessExitCode, runHarness, type HarnessRunOptions } from "#src/shim-server/run-harness.js";
import { startShimServer, type ShimServer } from "#src/shim-server/server.js";
import type { ShimKind } from "#src/shim-server/shim-files.js";
import { sdkDriverVersion } from "#src/recorder/sdk/recording-driver.js";
import type { MatchMode } from "#src/replay/engine/matcher.js";
import { recordedOutcome } from "#src/replay/engine/tool-result.js";
import { loadReplayCassette } from "#src/replay/load.js";
import { createReplaySession } from "#src/replay/session.js";
import { systemClock } from "#src/runtime/clock-system.js";
import { cassetteIds } from "./cassette-ids.js";
import { refuseInCi } from "./ci-guard.js";
import { createRecordMissingCli } from "./cli-backend.js";
import { createRecordMissingCore, type RecordMissingCounts } from "./core.js";
import { createRecordMissingMcp } from "./mcp-backend.js";
import { createGrowth } from "./growth.js";
import type { IdKind } from "./id-json.js";
import { createIdTable, type IdTable } from "./id-table.js";
import { openLiveDriver, type LiveDriver } from "./live-driver.js";
import { pairAnswers } from "./pair-answers.js";
import { writeGrownCassette } from "./write-grown.js";
import { signFrames } from "#src/harness/screen/sign-frames.js";

export interface RecordMissingOptions {
  /** The cassette directory to grow. */
  dir: string;
  /** The live driver: `sdk[:VERSION]`, a cua-driver executable, or one already open (tests: a scripted driver). */
  driver: string | LiveDriver;
  /** Provenance of an executable `driver` for the added events: a real binary (default) or a test double. */
  driverSource?: "binary" | "synthetic";
  match?: MatchMode;
  ignore?: readonly string[];
  /** Where CI is read from (default process.env): `CI=true` refuses unless `allowInCi`. */
  env?: Record<string, string | undefined>;
  allowInCi?: boolean;
  shim?: ShimKind | "auto";
}

export interface RecordMissingSummary extends RecordMissingCounts {
  /** The cassette file that was grown (rewritten only when something was added). */
  file: string;
  /** Where the run left the recorded history: the request, why, how many recorded events were left out, and the backup of the old file. */
  divergence?: { n: number; reason: string; dropped: number; backup?: string };
  /** Ids paired between the recording and the live run, by kind; `fresh`: live ids given a value the cassette never used. */
  ids: Record<IdKind, number> & { fresh: number };
  /** Who answered live (header `driver` shape, e.g. source `sdk`). */
  driver: { version: string | null; source: string; location?: string };
  notes: string[];
}

/** A record-missing run in progress: the shim and the environment a harness needs, and the finisher that writes the grown cassette. */
export interface OpenRecordMissing {
  server: ShimServer;
  /** This process's environment with the shim in it (and the desktop's app pid in the recorded ids). */
  env: Record<string, string>;
  /** One per-call invocation answered in process, as the shim would answer it. */
  cli(request: CliRequest): Promise<CliResponse>;
  /** One `cua-driver mcp` stream answered in process, as the shim would answer it. */
  mcp: ShimBackend["mcp"];
  /** Stops the shim, writes the grown cassette (when anything was added) and says what happened. Idempotent. */
  finish(): Promise<RecordMissingSummary>;
  /** Stops without writing anything (the cassette stays as it was). */
  abort(): Promise<void>;
}

/** Opens the cassette, the live driver and the shim; nothing is written until `finish`. */
export async function openRecordMissing(options: RecordMissingOptions): Promise<OpenRecordMissing> {
  refuseInCi({ env: options.env ?? process.env, allowInCi: options.allowInCi === true });
  // The cassette's lock is held from here to the grown file's rename: the folder must be writable
  // now, not after the harness ran, and no other writer changes the cassette under this run.
  const lock = existsSync(options.dir) && statSync(options.dir).isDirectory() ? lockCassette(path.resolve(options.dir)) : undefined;
  try {
    return await openLocked(options, lock);
  } catch (error) {
    lock?.release();
    throw error;
  }
}

async function openLocked(options: RecordMissingOptions, lock: HeldLock | undefined): Promise<OpenRecordMissing> {
  const cassette = loadReplayCassette(options.dir);
  const header = cassette.cassette.header;
  if (header.faults) {
    throw new UserError(`${cassette.cassette.file} was recorded with --faults, so its faulted calls are not what the live driver would answer`, {
      code: "BAD_INPUT",
      field: "--record-missing",
      fix: "Grow a cassette of the plain flow (recorded without --faults), or re-record this one with `record --faults`.",
    });
  }
  const live =
    typeof options.driver === "string" ? await openLiveDriver(options.driver, options.driverSource ? { source: options.driverSource } : {}) : options.driver;
  try {
    return await openWith({ options, cassette, live, release: () => lock?.release() });
  } catch (error) {
    if (typeof options.driver === "string") await live.close();
    throw error;
  }
}

async function openWith(o: {
  options: RecordMissingOptions;
  cassette: ReturnType<typeof loadReplayCassette>;
  live: LiveDriver;
  release: () => void;
}): Promise<OpenRecordMissing> {
  const { options, cassette, live } = o;
  const header = cassette.cassette.header;
  const recordedVersion = header.driver.version;
  if (recordedVersion !== null && live.info.version !== null && recordedVersion !== live.info.version) {
    throw new UserError(`${cassette.cassette.file} was recorded from cua-driver ${recordedVersion}; the live driver is ${live.info.version}`, {
      code: "USAGE",
      field: "--driver",
      fix: `Grow it from the same version (e.g. --driver sdk:${recordedVersion}), or re-record the whole flow with \`record\` to move to ${live.info.version}.`,
    });
  }
  const at = new Date().toISOString();
  const session = createReplaySession({
    cassette,
    source: cassette.cassette.file,
    clock: systemClock,
    ...(options.match ? { match: options.match } : {}),
    ...(options.ignore?.length ? { ignore: options.ignore } : {}),
  });
  const events = cassette.cassette.events;
  const table = createIdTable({ taken: cassetteIds(events) });
  await seedTable({ table, live, session });
  const frames: string[] = [];
  const added = { by: "record-missing" as const, at, source: live.info.source };
  const growth = createGrowth({ events, added });
  const core = createRecordMissingCore({
    session,
    live,
    table,
    growth,
    events,
    redactor: createRedactor(header.redaction ?? { enabled: true }),
    putFrame: (bytes, ext) => writeFrame({ dir: cassette.cassette.dir, bytes, ext, sync: false, onWritten: (f) => frames.push(f) }),
    added,
  });
  const cli = createRecordMissingCli(core);
  // the k-th `cua-driver mcp` of this run grows the k-th recorded stream; one past them (an `auto`
  // client's sibling probe took one) grows a stream of its own, new to the cassette
  const recordedStreams = events.flatMap((e) => (e.kind === "mcp_open" ? [e.stream] : []));
  let streams = 0;
  let newStream = recordedStreams.reduce((m, s) => Math.max(m, s + 1), 0);
  const streamsDone: Promise<void>[] = [];
  const backend: ShimBackend = {
    cli: (request) => cli.cli(request),
    mcp: (init, io) => {
      const recorded = recordedStreams[streams++];
      if (recordedStreams.length === 0 || !live.mcp)
        return mcpRefused(
          io,
          recordedStreams.length === 0 ? "the cassette has no recorded `cua-driver mcp` stream for it to grow" : "this live driver has no MCP stream",
        );
      const handler = createRecordMissingMcp({ core, recordedStream: recorded ?? newStream++, opens: recorded === undefined, init, io });
      streamsDone.push(handler.done);
      return handler;
    },
  };
  const server = await startShimServer({ backend, shim: options.shim ?? "auto" });
  const env: Record<string, string> = { ...(process.env as Record<string, string>), ...server.env };
  // the desktop's app pid, as the harness will see it in the cassette's answers
  const appPid = env.CUA_DESKTOP_APP_PID ? table.recorded("pid", env.CUA_DESKTOP_APP_PID) : undefined;
  if (appPid !== undefined) env.CUA_DESKTOP_APP_PID = appPid;
  let finished: Promise<RecordMissingSummary> | undefined;
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      await server.close();
      // every MCP stream has answered its last request and ended its live stream
      await Promise.all(streamsDone);
      cli.close();
      if (typeof options.driver === "string") await live.close();
    })());
  return {
    server,
    env,
    cli: (request) => cli.cli(request),
    mcp: (init, io) => backend.mcp(init, io),
    abort: () => stop().finally(o.release),
    finish: () =>
      (finished ??= (async () => {
        try {
          return await finishRun();
        } finally {
          o.release();
        }
      })()),
  };

  async function finishRun(): Promise<RecordMissingSummary> {
    await stop();
    const plan = growth.plan();
    const written =
      plan.added.length > 0
        ? writeGrownCassette({
            cassette: cassette.cassette,
            plan,
            frames,
            addition: {
              by: "record-missing",
              at,
              driver: {
                version: live.info.version,
                platform: live.info.platform,
                source: live.info.source,
                ...(live.info.location ? { location: live.info.location } : {}),
              },
            },
          })
        : { file: cassette.cassette.file };
    if (plan.added.length > 0) await signFrames({ dir: cassette.cassette.dir });
    const entries = table.entries();
    const count = (kind: IdKind) => entries.filter((e) => e.kind === kind).length;
    const divergence = core.divergence;
    return {
      file: written.file,
      ...core.counts,
      ...(divergence ? { divergence: { ...divergence, dropped: plan.dropped.length, ...(written.backup ? { backup: written.backup } : {}) } } : {}),
      ids: { pid: count("pid"), window: count("window"), snapshot: count("snapshot"), fresh: entries.filter((e) => e.fresh).length },
      driver: { version: live.info.version, source: live.info.source, ...(live.info.location ? { location: live.info.location } : {}) },
      notes: [...new Set([...core.notes, ...table.notes])],
    };
  }
}

/**
 * Pairs the ids of the desktop before the harness starts: the cassette's first `list_windows`
 * answer of epoch 0 (the screen before any mutation) against a live `list_windows` (read-only, no
 * snapshot taken), so the app's pid and windows are known before the harness names them.
 */
async function seedTable(o: { table: IdTable; live: LiveDriver; session: ReturnType<typeof createReplaySession> }): Promise<void> {
  const first = o.session.engine.exchanges.find(
    (x) => x.epoch === 0 && x.origin === "harness" && x.request.method === "call" && x.request.tool === "list_windows" && !x.virtual,
  );
  if (!first) return;
  const outcome = recordedOutcome(first);
  if (outcome.type !== "result") return;
  let structured: unknown;
  try {
    structured = (JSON.parse(outcome.raw) as { structuredContent?: unknown }).structuredContent;
  } catch {
    return;
  }
  if (structured === undefined) return;
  const live = await o.live.cli({
    argv: ["call", "list_windows", "{}"],
    stdin: Buffer.alloc(0),
    cwd: process.cwd(),
    env: process.env as Record<string, string>,
    signal: new AbortController().signal,
  });
  if (live.exitCode !== 0) return;
  for (const p of pairAnswers(JSON.stringify(structured), live.stdout.toString("utf8")).pairs) o.table.pair(p.kind, p.recorded, p.live);
}

/** A `cua-driver mcp` stream record-missing cannot grow: said on the stream's stderr, exit 1. */
function mcpRefused(io: { stderr(data: string): void; exit(code: number): void }, why: string): McpSessionHandler {
  io.stderr(`cua-contract replay --record-missing: cannot grow this \`cua-driver mcp\` stream: ${why}; record the MCP flow with \`cua-contract record\`.\n`);
  io.exit(1);
  return { line: () => {}, end: () => {} };
}

/** Runs a harness under record-missing (optionally on a throwaway desktop) and writes the grown cassette. */
export async function replayRecordMissing(
  options: RecordMissingOptions & { command: string[]; desktop?: boolean; harness?: HarnessRunOptions },
): Promise<RecordMissingSummary & { harnessExitCode: number; exitCode: number }> {
  if (options.desktop) {
    refuseInCi({ env: options.env ?? process.env, allowInCi: options.allowInCi === true });
    const sdk = typeof options.driver === "string" && sdkDriverVersion(options.driver) !== undefined;
    await using _desktop = await startRecordingDesktop({ xServerAfterExit: sdk });
    return await replayRecordMissing({ ...options, desktop: false });
  }
  const run = await openRecordMissing(options);
  let outcome: Awaited<ReturnType<typeof runHarness>>;
  try {
    outcome = await runHarness({ ...options.harness, command: options.command, env: run.env });
  } catch (error) {
    await run.abort();
    throw error;
  }
  const summary = await run.finish();
  const code = harnessExitCode(outcome);
  return { ...summary, harnessExitCode: code, exitCode: code };
}
