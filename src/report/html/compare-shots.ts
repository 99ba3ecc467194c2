import type { ReportRow, ReportShot, ScreenChangeKind } from "./model.js";

/** Compares two screenshots: the screenChange kind, and the id of a diffImage highlight when they differ. */
export type ShotComparison = (
  prev: ReportShot,
  next: ReportShot,
) => Promise<{ kind: ScreenChangeKind; diff?: string; fraction?: number; note?: string }>;

/**
 * Walks the timeline and compares every screenshot with the one before it (across rows, in
 * order), filling each shot's `change`. Same frame ref means identical without decoding; the other
 * pairs are compared `concurrency` at a time (image decoding runs on libvips threads). Returns how
 * many pairs were compared.
 */
export async function compareShots(options: { rows: readonly ReportRow[]; compare: ShotComparison; concurrency?: number }): Promise<number> {
  const pairs: Array<{ prevRow: ReportRow; prev: ReportShot; next: ReportShot; shownIn: string }> = [];
  let previous: { row: ReportRow; shot: ReportShot; shownIn: string } | undefined;
  for (const row of options.rows) {
    for (const shot of row.shots) {
      const same = previous !== undefined && previous.shot.source.ref === shot.source.ref && previous.shot.source.cassetteDir === shot.source.cassetteDir;
      const shownIn = same ? previous!.shownIn : row.id;
      if (previous) pairs.push({ prevRow: previous.row, prev: previous.shot, next: shot, shownIn });
      previous = { row, shot, shownIn };
    }
  }
  const limit = Math.max(1, options.concurrency ?? 4);
  let cursor = 0;
  const worker = async () => {
    while (cursor < pairs.length) {
      const { prevRow, prev, next, shownIn } = pairs[cursor++]!;
      const same = prev.source.ref === next.source.ref && prev.source.cassetteDir === next.source.cassetteDir;
      const result = same ? { kind: "identical" as const, fraction: 0, shownIn } : await options.compare(prev, next);
      next.change = {
        kind: result.kind,
        previousRow: prevRow.id,
        previousImage: prev.image,
        ...("diff" in result && result.diff !== undefined ? { diff: result.diff } : {}),
        ...(result.fraction !== undefined ? { fraction: result.fraction } : {}),
        ...("note" in result && result.note !== undefined ? { note: result.note } : {}),
        ...("shownIn" in result ? { shownIn: result.shownIn } : {}),
      };
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, pairs.length) }, worker));
  return pairs.length;
}
