/** One reason the gate fails, with a stable id a baseline can list. */
export interface GateFailure {
  id: string;
  source: "contract" | "diff" | "recording";
  message: string;
  /** Other ids of the same fact (the diff change behind a failed contract item); a baseline may list any. */
  aliases?: string[];
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
  const ids = (f: GateFailure) => [f.id, ...(f.aliases ?? [])];
  const seen = new Set(failures.flatMap(ids));
  const listed = (f: GateFailure) => ids(f).some((id) => known.has(id));
  return {
    unexpected: failures.filter((f) => !listed(f)),
    expected: failures.filter(listed),
    stale: [...known].filter((id) => !seen.has(id)),
  };
}
