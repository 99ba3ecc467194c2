import type { TrajectoryAction, TrajectoryEvidence, TrajectoryState } from "#src/schema/trajectory.js";

/** One side (before or after) of a turn: the accessibility state and the window image, when captured. */
export interface TurnObservation {
  state?: TrajectoryState;
  /** PNG bytes of the target window. */
  png?: Uint8Array;
  /** `<turn>/before_state.json` etc., for messages. */
  stateFile: string;
  pngFile: string;
}

/** One `turn-NNNNN/` folder, read and validated. */
export interface TrajectoryTurn {
  /** The NNNNN of the folder name. */
  number: number;
  /** The folder name, e.g. `turn-00003`. */
  name: string;
  action: TrajectoryAction;
  evidence?: TrajectoryEvidence;
  before: TurnObservation;
  after: TurnObservation;
}

export interface Trajectory {
  dir: string;
  turns: TrajectoryTurn[];
  /** `session.json`, when present (recording start, video and cursor facts). */
  session?: unknown;
}

export const TURN_DIR = /^turn-(\d{5})$/;
