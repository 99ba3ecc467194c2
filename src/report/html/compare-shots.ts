import { eachLimited } from "#src/util/each-limited.js";
import type { ReportRow, ReportShot, ScreenChangeKind } from "./model.js";

/** Compares two screenshots: the screenChange kind, the changed fraction, and a note when they could not be compared. */
export type ShotComparison = (prev: ReportShot, next: ReportShot) => Promise<{ kind: ScreenChangeKind; fraction?: number; note?: string }>;

/** Where a walk over a timeline given in parts stands: the last screenshot and the pairs compared so far. */
export interface ShotWalk {
  previous?: { row: ReportRow; shot: ReportShot; shownIn: string };
  known: Map<string, ReturnType<ShotComparison>>;
}

/**
 * Walks the timeline and compares every screenshot with the one before it (across rows, in
 * order), filling each shot's `change`. Same frame ref means identical without decoding; each
 * distinct pair of different frames is compared once (a run that flips between two screens asks
 * once per direction), `concurrency` at a time (image decoding runs on libvips threads). Returns
 * how many consecutive pairs there are and how many comparisons were made. A timeline built a page
 * at a time passes the same `walk` with each page: the first shot of a page is compared with the
 * last of the page before, and `compared` counts the comparisons this call added.
 */
export async function compareShots(options: {
  rows: readonly ReportRow[];
  compare: ShotComparison;
  concurrency?: number;
  walk?: ShotWalk;
}): Promise<{ pairs: number; compared: number }> {
  const walk: ShotWalk = options.walk ?? { known: new Map() };
  const pairs: Array<{ prevRow: ReportRow; prev: ReportShot; next: ReportShot; shownIn: string }> = [];
  let previous = walk.previous;
  for (const row of options.rows) {
    for (const shot of row.shots) {
      const same = previous !== undefined && previous.shot.source.ref === shot.source.ref && previous.shot.source.cassetteDir === shot.source.cassetteDir;
      const shownIn = same ? previous!.shownIn : row.id;
      if (previous) pairs.push({ prevRow: previous.row, prev: previous.shot, next: shot, shownIn });
      previous = { row, shot, shownIn };
    }
  }
  if (previous) walk.previous = previous;
  const known = walk.known;
  const before = known.size;
  const key = (shot: ReportShot) => `${shot.source.cassetteDir}\0${shot.source.ref}`;
  const compareOnce = (prev: ReportShot, next: ReportShot) => {
    const k = `${key(prev)}\0${key(next)}`;
    let result = known.get(k);
    if (!result) known.set(k, (result = options.compare(prev, next)));
    return result;
  };
  await eachLimited(pairs, options.concurrency ?? 4, async ({ prevRow, prev, next, shownIn }) => {
    const same = prev.source.ref === next.source.ref && prev.source.cassetteDir === next.source.cassetteDir;
    const result = same ? { kind: "identical" as const, fraction: 0, shownIn } : await compareOnce(prev, next);
    next.change = {
      kind: result.kind,
      previousRow: prevRow.id,
      previousImage: prev.image,
      ...(result.fraction !== undefined ? { fraction: result.fraction } : {}),
      ...("note" in result && result.note !== undefined ? { note: result.note } : {}),
      ...("shownIn" in result ? { shownIn: result.shownIn } : {}),
    };
  });
  return { pairs: pairs.length, compared: known.size - before };
}
