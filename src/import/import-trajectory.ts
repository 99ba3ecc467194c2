import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { frameRefFor, type FrameExt } from "#src/cassette/frame-ref.js";
import { openCassetteWriter, type CassetteEventInput } from "#src/cassette/writer.js";
import { signFrames } from "#src/harness/screen/sign-frames.js";
import type { FrameRef } from "#src/schema/bytes.js";
import { createRedactor } from "#src/cassette/redact.js";
import { CASSETTE_FORMAT, CASSETTE_VERSION, type CassetteHeader, type DriverSource } from "#src/schema/cassette.js";
import { version } from "#src/version.js";
import { UserError } from "#src/errors.js";
import { readTrajectory } from "./read-trajectory.js";
import { trajectoryEvents } from "./trajectory-events.js";
import type { Trajectory } from "./trajectory.js";

/** Where `importTrajectory` reads a trajectory and writes the cassette it reconstructs. */
export interface ImportTrajectoryOptions {
  /** The trajectory folder (holding turn-NNNNN/). */
  from: string;
  /** The cassette directory to write. */
  out: string;
  /** Which driver wrote the trajectory: the `cua-driver` binary (default) or the npm runtime. */
  source?: Exclude<DriverSource, "synthetic">;
  /** The driver version, when known (a trajectory does not say). */
  driverVersion?: string | null;
  redact?: boolean;
  force?: boolean;
  /** Clock for `recorded_at` when the trajectory carries no timestamp. */
  now?: () => Date;
}

/** What an import wrote: the cassette, and how many turns and events it holds. */
export interface ImportSummary {
  cassette: string;
  turns: number;
  events: number;
  observations: number;
  mutations: number;
  notes: string[];
  /** What could not be rebuilt (an unknown escalation kind, a missing action_truth). */
  unmapped: string[];
}

/** Reads a cua-driver trajectory folder and writes it as a per-call CLI cassette. */
export async function importTrajectory(options: ImportTrajectoryOptions): Promise<ImportSummary> {
  const trajectory = await readTrajectory({ dir: options.from });
  checkOut({ out: options.out, force: options.force ?? false });
  const redaction = options.redact ?? true;
  const redactor = createRedactor({ enabled: redaction });
  const header: CassetteHeader = {
    format: CASSETTE_FORMAT,
    version: CASSETTE_VERSION,
    transport: "cli",
    driver: {
      version: options.driverVersion ?? null,
      platform: platformOf(trajectory),
      source: options.source ?? "binary",
    },
    recorded_at: recordedAt(trajectory, options.now ?? (() => new Date())),
    recorder: { name: "cua-contract import", version },
    redaction: { enabled: redaction },
    imported: { format: "cua-driver-trajectory", turns: trajectory.turns.length, reconstructed: ["read-only calls", "mutation structuredContent"] },
  };
  // Frame refs are content hashes, so events can be built before the header (which carries their notes) is written.
  const frames = new Map<FrameRef, { bytes: Uint8Array; ext: FrameExt }>();
  const built = trajectoryEvents({
    trajectory,
    redactor,
    putFrame: (bytes, ext) => {
      const ref = frameRefFor(bytes, ext);
      frames.set(ref, { bytes, ext });
      return ref;
    },
  });
  const dir = writeImported({
    out: options.out,
    header: { ...header, notes: built.notes },
    force: options.force ?? false,
    frames: frames.values(),
    events: built.events,
  });
  await signFrames({ dir });
  return {
    cassette: dir,
    turns: trajectory.turns.length,
    events: built.events.length,
    observations: built.observations,
    mutations: built.mutations,
    notes: built.notes,
    unmapped: built.unmapped,
  };
}

// action_truth.transport names the input backend, prefixed by the platform (`linux_x_test`, …).
function platformOf(trajectory: Trajectory): string {
  for (const turn of trajectory.turns) {
    const m = /^(linux|macos|darwin|windows|win32)_/.exec(turn.action.action_truth?.transport ?? "");
    if (m) return ({ macos: "darwin", windows: "win32" } as Record<string, string>)[m[1]!] ?? m[1]!;
  }
  return "unknown";
}

// 0.21.0 writes `timestamp` as Unix seconds ("1795990366.751"); the first turn's start is the best date we have.
function recordedAt(trajectory: Trajectory, now: () => Date): string {
  const first = trajectory.turns[0]?.action;
  const seconds = Number(first?.timestamp);
  if (first?.timestamp && Number.isFinite(seconds)) {
    const startMs = seconds * 1000 - ((first.t_ms_from_session_start ?? 0) - (first.t_start_ms_from_session_start ?? 0));
    return new Date(startMs).toISOString();
  }
  const iso = first?.timestamp ? new Date(first.timestamp) : undefined;
  return iso && !Number.isNaN(iso.getTime()) ? iso.toISOString() : now().toISOString();
}

/** `--out` must be a folder (new, or one that holds no cassette unless --force); the writer's own message names flags import lacks. */
function checkOut(options: { out: string; force: boolean }): void {
  const stat = statSync(options.out, { throwIfNoEntry: false });
  if (stat && !stat.isDirectory()) {
    throw new UserError(`${options.out} is a file`, {
      code: "OUTPUT_EXISTS",
      field: "--out",
      fix: "Name a new folder for the cassette (import writes cassette.jsonl and frames/ into it).",
    });
  }
  if (!options.force && existsSync(path.join(options.out, "cassette.jsonl"))) {
    throw new UserError(`${options.out} already holds a cassette`, {
      code: "OUTPUT_EXISTS",
      field: "--out",
      fix: "Pass --force to replace it, or choose another --out folder.",
    });
  }
}

function writeImported(o: {
  out: string;
  header: CassetteHeader;
  force: boolean;
  frames: Iterable<{ bytes: Uint8Array; ext: FrameExt }>;
  events: readonly CassetteEventInput[];
}): string {
  const writer = openCassetteWriter({ dir: o.out, header: o.header, force: o.force });
  try {
    for (const frame of o.frames) writer.putFrame(frame.bytes, frame.ext);
    for (const event of o.events) writer.append(event);
  } catch (error) {
    // a failed import leaves the cassette it would have replaced as it was
    writer.abort();
    throw error;
  }
  writer.close();
  return writer.dir;
}
