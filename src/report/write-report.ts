import { gzipSync } from "node:zlib";
import { loadFrame } from "#src/cassette/frame-store.js";
import { UserError } from "#src/errors.js";
import { frameCache, signature, type FrameCache } from "#src/harness/screen/decode.js";
import { storedSignature } from "#src/harness/screen/sign-frames.js";
import { pngSize } from "#src/harness/screen/signature-grid.js";
import type { CheckResult, ScenarioResult } from "#src/schema/check-result.js";
import { version } from "#src/version.js";
import type { ScenarioExtras } from "./html/check-sections.js";
import { cassetteRow } from "./html/cassette-rows.js";
import { compareShots, type ShotComparison, type ShotWalk } from "./html/compare-shots.js";
import { loadReportInput, type ReportInput } from "./load-input.js";
import type { ReportRow, ReportShot, ScreenChangeKind } from "./html/model.js";
import type { ReportRecording } from "./html/recording.js";
import { renderContext, renderReport, TIMELINE_PAGE, timelinePage, type RenderContext, type RenderOptions } from "./html/render-report.js";
import { pagedRecording, reportModel } from "./report-model.js";
import { writeOutputFile } from "./write-output.js";

/**
 * The screen function of the harness core the report needs (harness/screen), on PNG or JPEG bytes.
 * The report hands it one `frames` cache for the whole build (each frame is decoded once). What
 * changed is drawn by the browser from the two embedded frames (docs/decisions/0090), so the
 * report computes no diff image; `diffImage` is accepted and not called.
 */
export interface ScreenFunctions {
  screenChange(prev: Uint8Array, next: Uint8Array, options?: { frames?: FrameCache }): Promise<{ kind: ScreenChangeKind; changedFraction?: number }>;
  diffImage?: unknown;
}

export interface BuildReportOptions {
  input: ReportInput;
  /** For a replay log: the cassette it replayed (for screenshots). */
  cassetteDir?: string;
  /** For a check result: each scenario's replay log, when the caller has it. */
  scenarioExtras?: (scenario: ScenarioResult) => ScenarioExtras | undefined;
  screen: ScreenFunctions;
}

/** Counts from a written report: rows, problems and screenshots. */
export interface ReportStats {
  rows: number;
  problems: number;
  screenshots: number;
  /** Consecutive screenshot pairs (every one gets a change kind). */
  pairs: number;
  /** Comparisons made: one per distinct pair of different frames. */
  compared: number;
  changed: number;
  bytes: number;
}

interface ImageEntry {
  bytes: Uint8Array;
  mime: string;
  size?: { width: number; height: number };
}

// The frames a cassette references, in event order (inline splices, then written files), each once.
function cassetteFrameRefs(input: ReportInput): readonly string[] {
  if (input.kind !== "cassette") return [];
  if (input.recording) return input.recording.frameRefs;
  const refs = new Set<string>();
  for (const e of input.cassette.events) {
    if ("frames" in e) for (const f of e.frames ?? []) refs.add(f.ref);
    if ("files" in e) for (const f of Object.values(e.files ?? {})) refs.add(f.ref);
  }
  return [...refs];
}

/** Builds the report HTML for a cassette, replay log or check result; screenshots are compared pair by pair. */
export async function buildReport(options: BuildReportOptions): Promise<{ html: string; stats: ReportStats }> {
  const frames = frameCache();
  const loaded = new Map<string, ImageEntry>();
  const load = (dir: string, ref: string): ImageEntry => {
    const key = `${dir}\0${ref}`;
    let entry = loaded.get(key);
    if (!entry) {
      const bytes = loadFrame({ dir, ref });
      const size = pngSize(bytes);
      entry = { bytes, mime: ref.endsWith(".jpg") ? "image/jpeg" : "image/png", ...(size ? { size } : {}) };
      loaded.set(key, entry);
      // A signature stored with the frame spares decoding it (frames/<sha256>.sig.json, docs/decisions/0174).
      if (!frames.has(bytes)) {
        const stored = storedSignature({ dir, ref, bytes });
        if (stored) frames.set(bytes, { signature: Promise.resolve(stored) });
      }
    }
    return entry;
  };
  // A cassette names its frames before the model is built: when two differ, the signatures not
  // stored with them start now on sharp's threads and overlap building the model (a failure is
  // reported by the comparison that meets it).
  const refs = cassetteFrameRefs(options.input);
  if (options.input.kind === "cassette" && refs.length > 1) {
    const dir = options.input.cassette.dir;
    for (const ref of refs) {
      try {
        const bytes = load(dir, ref).bytes;
        // One libvips pipeline from the bytes (the report needs no full-size pixels): the cache
        // then hands screenChange this signature.
        if (!frames.has(bytes)) {
          const sig = signature(bytes, "frame");
          sig.catch(() => undefined);
          frames.set(bytes, { signature: sig });
        }
      } catch {
        // a frame that cannot be read is reported where the model meets it
      }
    }
  }
  const model = await reportModel(options);
  const images = new Map<string, ImageEntry>();
  const frameBytes = (shot: ReportShot): Uint8Array => {
    const known = images.get(shot.image);
    if (known) return known.bytes;
    const entry = load(shot.source.cassetteDir, shot.source.ref);
    images.set(shot.image, entry);
    return entry.bytes;
  };
  const rows: ReportRow[] = model.sections.flatMap((s) => s.rows);
  let pairs = 0;
  let compared = 0;
  let changed = 0;
  let screenshots = 0;
  const compare: ShotComparison = async (prev, next) => {
    const a = frameBytes(prev);
    const b = frameBytes(next);
    let change: { kind: ScreenChangeKind; changedFraction?: number };
    try {
      change = await options.screen.screenChange(a, b, { frames });
    } catch {
      // An image that does not decode proves nothing about the screen: shown as changed, without a diff.
      return { kind: "changed", note: "could not be decoded" };
    }
    const fraction = change.changedFraction !== undefined ? { fraction: change.changedFraction } : {};
    return { kind: change.kind, ...fraction };
  };
  const walkRows = async (sectionRows: readonly ReportRow[], walk?: ShotWalk) => {
    for (const row of sectionRows) {
      for (const shot of row.shots) {
        frameBytes(shot);
        screenshots++;
      }
    }
    const counts = await compareShots({ rows: sectionRows, compare, ...(walk ? { walk } : {}) });
    pairs += counts.pairs;
    compared += counts.compared;
    for (const row of sectionRows) for (const shot of row.shots) if (shot.change?.kind === "changed") changed++;
  };
  for (const section of model.sections) await walkRows(section.rows);
  const render: RenderOptions & { context: RenderContext } = {
    model,
    generator: `cua-contract ${version}`,
    imageSrc: (id) => {
      const image = images.get(id);
      return image ? `data:${image.mime};base64,${Buffer.from(image.bytes).toString("base64")}` : "";
    },
    imageSize: (id) => images.get(id)?.size,
    packPage: (html) => gzipSync(html).toString("base64"),
    context: renderContext(),
  };
  const paged = pagedRecording(options.input);
  if (paged && options.input.kind === "cassette") {
    model.sections[0]!.timeline = await pagedTimeline({ recording: paged, cassetteDir: options.input.cassette.dir, render, walkRows });
  }
  const html = renderReport(render);
  return {
    html,
    stats: {
      rows: paged ? paged.count : rows.length,
      problems: model.sections.reduce((n, s) => n + s.problems.length, 0),
      screenshots,
      pairs,
      compared,
      changed,
      bytes: Buffer.byteLength(html),
    },
  };
}

/**
 * The timeline of a long cassette, a page at a time: each page's rows are built (their answers read
 * then), their screenshots compared with the ones before them, and the page rendered (and packed
 * after the first); only the markup is kept, so memory does not grow with the rows (docs/decisions/0235).
 */
async function pagedTimeline(options: {
  recording: ReportRecording;
  cassetteDir: string;
  render: RenderOptions & { context: RenderContext };
  walkRows: (rows: readonly ReportRow[], walk: ShotWalk) => Promise<void>;
}): Promise<{ count: number; pages: string[] }> {
  const { recording, cassetteDir, render } = options;
  const total = recording.count;
  const walk: ShotWalk = { known: new Map() };
  // the rows a screenshot can be compared with: those with screenshots
  const labels = new Map<string, string>();
  const pages: string[] = [];
  for (let start = 0; start < total; start += TIMELINE_PAGE) {
    const rows = recording.exchangesAt(start, start + TIMELINE_PAGE).map((exchange) => cassetteRow({ exchange, recording, cassetteDir, idPrefix: "" }));
    for (const row of rows) if (row.shots.length > 0) labels.set(row.id, row.label);
    await options.walkRows(rows, walk);
    pages.push(timelinePage({ options: render, ctx: render.context, rows, start, total, labels }));
  }
  return { count: total, pages };
}

export interface WriteReportOptions {
  /** A cassette directory, a replay log or a check result. */
  from: string;
  out: string;
  cassetteDir?: string;
  screen: ScreenFunctions;
}

/** Reads the input, builds the report and writes it as one self-contained HTML file. */
export async function writeReport(options: WriteReportOptions): Promise<ReportStats & { file: string; kind: ReportInput["kind"] }> {
  if (!options.out.endsWith(".html")) {
    throw new UserError("the report is one HTML file", { code: "USAGE", field: "--out", fix: "Name a file ending in .html, e.g. --out report.html." });
  }
  const input = await loadReportInput(options.from);
  if (options.cassetteDir && input.kind !== "replay-log") {
    throw new UserError("--cassette only applies to a replay log", {
      code: "USAGE",
      field: "--cassette",
      fix: "Drop --cassette: a cassette or check result names its own recording.",
    });
  }
  const { html, stats } = await buildReport({ input, ...(options.cassetteDir ? { cassetteDir: options.cassetteDir } : {}), screen: options.screen });
  const file = writeOutputFile({ file: options.out, flag: "--out", text: html });
  return { ...stats, file, kind: input.kind };
}

/** For `check --report FILE.html`: the report of a check run, with each scenario's replay log when the caller kept it. */
export async function writeCheckReport(options: {
  result: CheckResult;
  out: string;
  /** Where the result would be read from (names the input; cassette paths resolve against it). Default: cwd. */
  resultFile?: string;
  scenarioExtras?: (scenario: ScenarioResult) => ScenarioExtras | undefined;
  screen: ScreenFunctions;
  /** The flag that named `out`, for errors (default `--report`). */
  flag?: string;
}): Promise<ReportStats & { file: string }> {
  const file = options.resultFile ?? "this check run";
  const { html, stats } = await buildReport({
    input: { kind: "check-result", file, result: options.result },
    ...(options.scenarioExtras ? { scenarioExtras: options.scenarioExtras } : {}),
    screen: options.screen,
  });
  const written = writeOutputFile({ file: options.out, flag: options.flag ?? "--report", text: html });
  return { ...stats, file: written };
}
