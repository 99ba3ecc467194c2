import type { ReportRow, ReportShot, ScreenChangeKind } from "./model.js";

/** Compares two screenshots: the screenChange kind, and the id of a diffImage highlight when they differ. */
export type ShotComparison = (
  prev: ReportShot,
  next: ReportShot,
) => Promise<{ kind: ScreenChangeKind; diff?: string; fraction?: number; note?: string }>;

/**
 * Walks the timeline and compares every screenshot with the one before it (across rows, in
 * order), filling each shot's `change`. Returns how many pairs were compared.
 */
export async function compareShots(options: { rows: readonly ReportRow[]; compare: ShotComparison }): Promise<number> {
  let previous: { row: ReportRow; shot: ReportShot } | undefined;
  let pairs = 0;
  for (const row of options.rows) {
    for (const shot of row.shots) {
      if (previous) {
        const result =
          previous.shot.source.ref === shot.source.ref && previous.shot.source.cassetteDir === shot.source.cassetteDir
            ? { kind: "identical" as const, fraction: 0 }
            : await options.compare(previous.shot, shot);
        shot.change = {
          kind: result.kind,
          previousRow: previous.row.id,
          previousImage: previous.shot.image,
          ...(result.diff !== undefined ? { diff: result.diff } : {}),
          ...(result.fraction !== undefined ? { fraction: result.fraction } : {}),
          ...(result.note !== undefined ? { note: result.note } : {}),
        };
        pairs++;
      }
      previous = { row, shot };
    }
  }
  return pairs;
}
