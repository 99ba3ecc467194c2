import { readFileSync } from "node:fs";
import { checkRegularFile } from "#src/cassette/safe-files.js";
import { UserError } from "#src/errors.js";
import { parseFaultPlan } from "#src/faults/parse-plan.js";
import { faultProfile, PROFILE_PREFIX, profileNames } from "#src/faults/profiles.js";
import { runInvariants } from "#src/invariants/run.js";
import type { InvariantOptions } from "#src/invariants/types.js";
import type { FaultPlan } from "#src/schema/fault-plan.js";
import type { ReplayLogEntry } from "#src/schema/replay-log.js";
import { harnessExitCode, runHarness, type HarnessRunOptions } from "#src/shim-server/run-harness.js";
import { startShimServer, type ShimServer } from "#src/shim-server/server.js";
import type { ShimKind } from "#src/shim-server/shim-files.js";
import { createReplayBackend } from "./cli/replay-backend.js";
import type { MatchMode } from "#src/replay/engine/matcher.js";
import { openJsonlLog } from "#src/replay/jsonl-log.js";
import { loadReplayCassette } from "#src/replay/load.js";
import { createObservationFile, OBSERVE_ENV } from "#src/replay/observation-file.js";
import { createReplaySession, type ObservationSource, type ReplaySession } from "#src/replay/session.js";
import { systemClock } from "#src/runtime/clock-system.js";
import type { ReplaySpeed } from "#src/replay/recorded-timing.js";
import { judgeStaleness } from "#src/cassette/stale.js";
import { knownToolsOptions, type KnownTools } from "#src/replay/engine/known-tools.js";

/** What `replay` runs: the cassette, the harness command and the faults. */
export interface ReplayRunOptions {
  dir: string;
  command: string[];
  faultsFile?: string;
  seed?: number;
  match?: MatchMode;
  ignore?: string[];
  logFile?: string;
  failOnUnused?: boolean;
  /** Invariant ids to check; `[]` checks none; absent checks all. */
  invariants?: string[];
  /** Limits the invariants apply (`maxRepeats`, `maxIdentical`, `staleCodes`). */
  invariantOptions?: InvariantOptions;
  shim?: ShimKind | "auto";
  speed?: ReplaySpeed;
  /** Warn (onStale) when the cassette is older than this or its driver is outside this range. */
  stale?: { maxAgeMs?: number; versions?: string };
  onStale?: (reasons: string[]) => void;
  /** Loud one-line notices (unmatched requests); the CLI sends them to stderr. */
  onNotice?: (message: string) => void;
  /** What the replay of this cassette cannot do faithfully (e.g. overlapping CLI calls without their start order). */
  onNote?: (message: string) => void;
  /** The harness's working directory and where its output goes (default: this process's, inherited). */
  harness?: HarnessRunOptions & {
    /** Variables added to this process's environment for the harness. */
    env?: Record<string, string>;
  };
}

export interface ReplayViolation {
  id: string;
  message: string;
  /** Replay-log request numbers (`n`) involved. */
  events: number[];
}

/** The outcome of a replay run: the harness's exit, the log and its summary. */
export interface ReplayRunSummary {
  served: number;
  unmatched: number;
  faults: number;
  /** Answers the replay built off the recorded path (each logged with its basis). */
  synthesized: number;
  /** Requests read but never answered (an MCP stream stuck on an earlier call). */
  unanswered: number;
  unused: { seq: number; tool?: string | undefined; kind: string }[];
  violations: ReplayViolation[];
  harnessExitCode: number;
  exitCode: number;
  /** The replay log, as also written to `logFile`. */
  entries: ReplayLogEntry[];
  /** The tools the recording's driver offers, as the invariants judged by them (decision 0280). */
  knownTools?: KnownTools;
  /** What the harness printed, when `harness.output` is `pipe`. */
  harnessOutput?: { stdout: string; stderr: string };
}

/** Reads and validates a fault plan file (exit 2 with the field named when it is wrong). */
export function readFaultPlan(file: string): FaultPlan {
  if (file.startsWith(PROFILE_PREFIX)) {
    // a named profile (docs/faults.md, "Profiles"): a built-in plan, seeded by --seed
    const name = file.slice(PROFILE_PREFIX.length);
    const profile = faultProfile(name);
    if (!profile) {
      throw new UserError(`unknown fault profile "${name}"`, {
        code: "BAD_FAULT_PLAN",
        field: "--faults",
        fix: `Valid profiles: ${profileNames()} (docs/faults.md).`,
      });
    }
    return profile.plan;
  }
  let text: Uint8Array;
  const fix = "Pass the path of a JSON fault plan (docs/faults.md).";
  // a FIFO or a device would block or never end: refused before it is opened
  checkRegularFile(file, { what: "the fault plan", fix, code: "BAD_INPUT" });
  try {
    text = readFileSync(file);
  } catch {
    throw new UserError("cannot read the fault plan", { code: "BAD_FAULT_PLAN", file, fix: "Pass the path of a JSON fault plan (docs/faults.md)." });
  }
  return parseFaultPlan({ text, file });
}

/** Opens a replay session on a cassette directory, with the plan, seed, matching and log options. */
export function openReplaySession(options: {
  dir: string;
  faultsFile?: string;
  seed?: number;
  match?: MatchMode;
  ignore?: string[];
  logFile?: string;
  speed?: ReplaySpeed;
  stale?: { maxAgeMs?: number; versions?: string };
  onStale?: (reasons: string[]) => void;
  onNotice?: (message: string) => void;
  onNote?: (message: string) => void;
  /** Looks the harness declares (`CUA_CONTRACT_OBSERVE`). */
  observations?: ObservationSource;
}): { session: ReplaySession; close(): void; knownTools: KnownTools } {
  const cassette = loadReplayCassette(options.dir);
  for (const note of cassette.prepared.notes) options.onNote?.(note);
  if (options.stale && options.onStale) {
    const judged = judgeStaleness({ header: cassette.cassette.header, now: Date.now(), ...options.stale });
    if (judged.stale) options.onStale(judged.reasons);
  }
  const faults = options.faultsFile ? readFaultPlan(options.faultsFile) : undefined;
  const log = options.logFile ? openJsonlLog(options.logFile) : undefined;
  const session = createReplaySession({
    cassette,
    source: cassette.cassette.file,
    ...(faults ? { faults } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.match ? { match: options.match } : {}),
    ...(options.ignore?.length ? { ignore: options.ignore } : {}),
    clock: systemClock,
    ...(options.speed ? { speed: options.speed } : {}),
    ...(log ? { onEntry: (e: ReplayLogEntry) => log.write(e) } : {}),
    ...(options.onNotice ? { onUnmatched: (m: string) => options.onNotice!(m) } : {}),
    ...(options.observations ? { observations: options.observations } : {}),
  });
  return { session, close: () => log?.close(), knownTools: cassette.knownTools };
}

/** The end-of-run figures, the invariant verdicts and the exit code (issue: harness code, else 1 on any failure). */
export function summariseRun(options: {
  session: ReplaySession;
  harnessExitCode: number;
  failOnUnused?: boolean;
  invariants?: string[];
  invariantOptions?: InvariantOptions;
  /** The tools the recorded driver offers (`openReplaySession`'s `knownTools`); without it, the reference version's. */
  knownTools?: KnownTools;
}): ReplayRunSummary {
  const { session } = options;
  const invariantOptions: InvariantOptions = { ...(options.knownTools ? knownToolsOptions(options.knownTools) : {}), ...options.invariantOptions };
  const summary = session.finish();
  const entries = session.entries();
  const violations: ReplayViolation[] =
    options.invariants && options.invariants.length === 0
      ? []
      : runInvariants(entries, {
          ...(options.invariants ? { only: options.invariants } : {}),
          options: invariantOptions,
        }).results.flatMap((r) => r.violations.map((v) => ({ id: v.invariant, message: v.message, events: v.evidence.requests })));
  const unusedMutations = summary.unused.filter((u) => u.kind === "mutation");
  const failed = summary.unmatched > 0 || violations.length > 0 || (options.failOnUnused === true && unusedMutations.length > 0);
  return {
    served: summary.served,
    unmatched: summary.unmatched,
    synthesized: summary.synthesized ?? 0,
    unanswered: summary.unanswered ?? 0,
    faults: summary.faults,
    unused: summary.unused,
    violations,
    harnessExitCode: options.harnessExitCode,
    exitCode: options.harnessExitCode !== 0 ? options.harnessExitCode : failed ? 1 : 0,
    entries: session.entries(),
    ...(options.knownTools ? { knownTools: options.knownTools } : {}),
  };
}

/** Runs a harness with the replaying `cua-driver` shim first on PATH (and in CUA_DRIVER). */
export async function replay(options: ReplayRunOptions): Promise<ReplayRunSummary> {
  if (options.command.length === 0) {
    throw new UserError("no harness command to run", {
      code: "USAGE",
      field: "--",
      fix: "Put the harness command after `--`, e.g. `cua-contract replay rec -- python3 harness.py`.",
    });
  }
  using observations = createObservationFile();
  const opened = openReplaySession({ ...options, observations });
  let server: ShimServer | undefined;
  try {
    server = await startShimServer({ backend: createReplayBackend({ session: opened.session }), shim: options.shim ?? "auto" });
    const { env, ...harness } = options.harness ?? {};
    const harnessEnv = { ...(process.env as Record<string, string>), ...env, ...server.env, [OBSERVE_ENV]: observations.path };
    const outcome = await runHarness({ ...harness, command: options.command, env: harnessEnv });
    await server.close();
    server = undefined;
    const summary = summariseRun({
      session: opened.session,
      harnessExitCode: harnessExitCode(outcome),
      knownTools: opened.knownTools,
      ...(options.failOnUnused !== undefined ? { failOnUnused: options.failOnUnused } : {}),
      ...(options.invariants ? { invariants: options.invariants } : {}),
      ...(options.invariantOptions ? { invariantOptions: options.invariantOptions } : {}),
    });
    return outcome.output ? { ...summary, harnessOutput: outcome.output } : summary;
  } finally {
    await server?.close();
    opened.close();
  }
}
