import type { CassetteEventInput } from "#src/cassette/writer.js";
import type { FrameExt } from "#src/cassette/frame-ref.js";
import { extractImages } from "#src/cassette/images.js";
import type { Redactor } from "#src/cassette/redact.js";
import type { FrameRef } from "#src/schema/bytes.js";
import { renderBuiltCall } from "#src/transports/cli/wire/render-call.js";
import { rebuildActionResult, rebuildWindowState } from "./reconstruct/reconstruct-result.js";
import type { Trajectory, TrajectoryTurn, TurnObservation } from "./trajectory.js";

export interface TrajectoryEventsOptions {
  trajectory: Trajectory;
  putFrame: (bytes: Uint8Array, ext: FrameExt) => FrameRef;
  redactor: Redactor;
}

export interface TrajectoryEvents {
  events: CassetteEventInput[];
  /** Facts for the cassette header: what was rebuilt, and what could not be. */
  notes: string[];
  /** The parts of the trajectory that could not be rebuilt (also in `notes`). */
  unmapped: string[];
  observations: number;
  mutations: number;
}

/**
 * Turns a trajectory into per-call CLI events, epoch by epoch: for each turn, the before state as a
 * read-only `get_window_state` (unless the previous turn's after state already says the same), the
 * action itself (the mutation that ends the epoch), then the after state, the first observation of
 * the next epoch.
 */
export function trajectoryEvents(options: TrajectoryEventsOptions): TrajectoryEvents {
  const events: CassetteEventInput[] = [];
  const unmapped = new Set<string>();
  let last: TurnObservation | undefined;
  let observations = 0;
  let mutations = 0;
  const observe = (obs: TurnObservation, turn: TrajectoryTurn, t_ms: number) => {
    if (!obs.state) return;
    if (last && sameObservation(last, obs)) return;
    events.push(observationEvent({ ...options, obs, turn, t_ms }));
    observations++;
    last = obs;
  };
  for (const turn of options.trajectory.turns) {
    const start = turn.action.t_start_ms_from_session_start ?? turn.action.t_ms_from_session_start ?? 0;
    const end = Math.max(start, turn.action.t_ms_from_session_start ?? start);
    observe(turn.before, turn, start);
    const rebuilt = rebuildActionResult(turn.action);
    for (const u of rebuilt.unmapped) unmapped.add(`${turn.name}: ${u}`);
    options.redactor.learnFromCall(turn.action.tool, turn.action.arguments);
    events.push({
      kind: "cli",
      t_ms: start,
      duration_ms: end - start,
      origin: "harness",
      argv: ["call", turn.action.tool, options.redactor.text(JSON.stringify(turn.action.arguments))],
      stdout: options.redactor.text(renderBuiltCall(rebuilt)),
      stderr: "",
      exit_code: 0,
    });
    mutations++;
    last = undefined;
    observe(turn.after, turn, end);
  }
  const notes = [
    `imported from a cua-driver trajectory folder (${options.trajectory.turns.length} turns) by cua-contract import`,
    "read-only calls were reconstructed: each before/after state is a get_window_state {pid, window_id} answer holding element_count, pid, tree_markdown, window_id and the window image; elements, snapshot_id and element tokens were not recorded and are absent",
    "mutation results were reconstructed from action.json: the text block is exact, structuredContent is rebuilt from action_truth (or from the refusal text), and stdout is rendered as `cua-driver call` prints it",
    ...[...unmapped].sort(),
  ];
  return { events, notes, unmapped: [...unmapped].sort(), observations, mutations };
}

function sameObservation(a: TurnObservation, b: TurnObservation): boolean {
  return JSON.stringify(a.state) === JSON.stringify(b.state) && sameBytes(a.png, b.png);
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (!a || !b) return a === b;
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

function observationEvent(options: TrajectoryEventsOptions & { obs: TurnObservation; turn: TrajectoryTurn; t_ms: number }): CassetteEventInput {
  const state = options.obs.state!;
  const { structured } = rebuildWindowState({ state, ...(options.obs.png ? { png: options.obs.png } : {}) });
  const imageBase64 = options.obs.png ? Buffer.from(options.obs.png).toString("base64") : undefined;
  const stdout = options.redactor.text(renderBuiltCall({ structured, ...(imageBase64 ? { imageBase64 } : {}) }));
  const cut = extractImages({ text: stdout, field: "stdout", putFrame: (bytes, ext) => options.putFrame(bytes, ext) });
  return {
    kind: "cli",
    t_ms: options.t_ms,
    duration_ms: 0,
    origin: "harness",
    argv: ["call", "get_window_state", JSON.stringify({ pid: state.pid, window_id: state.window_id })],
    stdout: cut.text,
    stderr: "",
    exit_code: 0,
    ...(cut.splices.length > 0 ? { frames: cut.splices } : {}),
  };
}
