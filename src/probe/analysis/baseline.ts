/** One reason the gate fails, with a stable id a baseline can list. */
export interface GateFailure {
  id: string;
  source: "contract" | "diff" | "recording";
  message: string;
}

export interface BaselineOutcome {
  /** Failures not in the baseline: they fail the gate. */
  unexpected: GateFailure[];
  /** Failures the baseline lists: reported, not failing. */
  expected: GateFailure[];
  /** Baseline ids that no longer fail: the baseline is stale, which fails the gate. */
  stale: string[];
}

/** Splits failures by a baseline of known ones. */
export function applyBaseline(failures: readonly GateFailure[], expectedIds: readonly string[] | undefined): BaselineOutcome {
  const known = new Set(expectedIds ?? []);
  const seen = new Set(failures.map((f) => f.id));
  return {
    unexpected: failures.filter((f) => !known.has(f.id)),
    expected: failures.filter((f) => known.has(f.id)),
    stale: [...known].filter((id) => !seen.has(id)),
  };
}
