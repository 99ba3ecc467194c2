import path from "node:path";
import { UserError } from "#src/errors.js";
import { CassetteHeaderSchema, type CassetteEvent, type CassetteHeader, type CassetteTransport } from "#src/schema/cassette.js";
import { makePrivateDir, openAtomicFile } from "#src/util/atomic-file.js";
import { CASSETTE_FILE, PROBE_FILE } from "./cassette.js";
import { copyKeptLines, type KeptLine } from "./copy-lines.js";
import { frameRefsOf } from "./event-frames.js";
import { copyFrame } from "./frame-signature.js";
import { copyProbe, refuseExistingOutput } from "./prune.js";
import { fastValidators } from "./fast-validators.js";
import { lockCassette } from "./safe-files.js";
import { scanCassette, type EventPlace } from "./scan.js";
import { fileState, writeShiftedLines } from "./merge-b.js";

export interface MergeResult {
  out: string;
  events: number;
  frames: number;
  warnings: string[];
}

/**
 * Appends cassette B after cassette A into OUT: B's events follow A's in order, with seq, t_ms
 * and MCP stream numbers moved past A's, so replay sees one session that does A's calls, then
 * B's (epochs: A's, then B's). Frames are the union (content-addressed, stored once). Refused
 * when the two were recorded from different drivers or with different redaction. OUT is written
 * under its lock: frames and probe.json first, then cassette.jsonl through a temp file renamed in
 * place, so OUT holds no cassette until it holds the whole one. Neither input is held in memory.
 */
export function mergeCassettes(options: { a: string; b: string; out: string }): MergeResult {
  const out = path.resolve(options.out);
  refuseExistingOutput(out, "Choose an empty --out directory.");
  return mergeChecked({ ...options, out });
}

interface Side {
  dir: string;
  file: string;
  header: CassetteHeader;
  events: number;
  frames: Set<string>;
  probeSha256?: string;
  hasProbe: boolean;
}

function scanSide(dir: string, onEvent: (e: CassetteEvent, place: EventPlace) => void = () => {}): Side {
  const frames = new Set<string>();
  const scan = scanCassette({
    dir,
    validators: fastValidators,
    frames: "verify",
    onEvent: (e, place) => {
      for (const r of frameRefsOf(e)) frames.add(String(r.ref));
      onEvent(e, place);
    },
  });
  return {
    dir: scan.dir,
    file: scan.file,
    header: scan.header,
    events: scan.events,
    frames,
    hasProbe: scan.probe !== undefined,
    ...(scan.probe ? { probeSha256: scan.probe.sha256 } : {}),
  };
}

function mergeChecked(options: { a: string; b: string; out: string }): MergeResult {
  let seqShift = 0;
  let tShift = 0;
  let streamShift = 0;
  const aLines: KeptLine[] = [];
  const a = scanSide(options.a, (e, place) => {
    aLines.push(place);
    seqShift = Math.max(seqShift, e.seq + 1);
    tShift = Math.max(tShift, e.t_ms + ("duration_ms" in e ? e.duration_ms : 0));
    if ("stream" in e) streamShift = Math.max(streamShift, e.stream + 1);
  });
  tShift += 1;
  const bLines: EventPlace[] = [];
  const bBefore = fileState(path.join(path.resolve(options.b), CASSETTE_FILE));
  const b = scanSide(options.b, (_e, place) => {
    bLines.push(place);
  });
  checkCompatible(a, b);
  const warnings: string[] = [];
  const header = mergedHeader(a, b, warnings);
  makePrivateDir(options.out, "--out");
  const lock = lockCassette(options.out);
  try {
    refuseExistingOutput(options.out, "Choose an empty --out directory.");
    return writeMerged({ options, a, b, aLines, bLines, bBefore, header, warnings, shift: { seq: seqShift, t: tShift, stream: streamShift } });
  } finally {
    lock.release();
  }
}

function writeMerged(o: {
  options: { out: string };
  a: Side;
  b: Side;
  aLines: KeptLine[];
  bLines: EventPlace[];
  bBefore: string;
  header: CassetteHeader;
  warnings: string[];
  shift: { seq: number; t: number; stream: number };
}): MergeResult {
  const { options, a, b, aLines, header, warnings } = o;
  const frames = new Map<string, string>();
  for (const ref of a.frames) frames.set(ref, a.dir);
  for (const ref of b.frames) if (!frames.has(ref)) frames.set(ref, b.dir);
  for (const [ref, dir] of [...frames].sort()) copyFrame({ from: dir, to: options.out, ref });
  const probeFrom = [a, b].find((c) => c.hasProbe);
  if (probeFrom) copyProbe(probeFrom.dir, options.out);
  const cassetteFile = path.join(options.out, CASSETTE_FILE);
  const out = openAtomicFile({ file: cassetteFile, field: "--out" });
  try {
    out.write(`${JSON.stringify(header)}\n`);
    copyKeptLines({ from: a.file, header: false, lines: aLines, out });
    writeShiftedLines({ file: b.file, lines: o.bLines, shift: o.shift, out, checked: o.bBefore });
    out.commit();
  } catch (error) {
    out.abort();
    throw error;
  }
  return { out: options.out, events: a.events + b.events, frames: frames.size, warnings };
}

function checkCompatible(a: Side, b: Side): void {
  const fail = (what: string, fix: string) => {
    throw new UserError(`cannot merge ${b.file} into ${a.file}: ${what}`, { code: "BAD_INPUT", file: b.file, fix });
  };
  const da = a.header.driver;
  const db = b.header.driver;
  if (da.version !== db.version)
    fail(`driver ${db.version ?? "unknown"} ≠ ${da.version ?? "unknown"}`, "Merge cassettes recorded from the same driver version; re-record the older one.");
  if (da.platform !== db.platform) fail(`platform ${db.platform} ≠ ${da.platform}`, "Merge cassettes recorded on the same platform.");
  const ra = a.header.redaction?.enabled ?? true;
  const rb = b.header.redaction?.enabled ?? true;
  if (ra !== rb)
    fail(`redaction ${rb ? "on" : "off"} ≠ ${ra ? "on" : "off"}`, "Record both with the same redaction settings, so a secret has one placeholder.");
  const pa = [...new Set(a.header.redaction?.patterns ?? [])].sort();
  const pb = [...new Set(b.header.redaction?.patterns ?? [])].sort();
  if (JSON.stringify(pa) !== JSON.stringify(pb))
    fail(
      `its --redact patterns ${JSON.stringify(pb)} ≠ ${JSON.stringify(pa)}, so text one redacted is in clear in the other`,
      "Record both with the same --redact patterns (the merged cassette would claim patterns half its events were not redacted with).",
    );
}

function mergedHeader(a: Side, b: Side, warnings: string[]): CassetteHeader {
  const transport: CassetteTransport = a.header.transport === b.header.transport ? a.header.transport : "mixed";
  const older = Date.parse(b.header.recorded_at) < Date.parse(a.header.recorded_at) ? b.header.recorded_at : a.header.recorded_at;
  if (a.header.driver.source !== b.header.driver.source)
    warnings.push(`driver sources differ (${a.header.driver.source}, ${b.header.driver.source}); the merged header says ${a.header.driver.source}`);
  const probeSha = a.probeSha256 ?? b.probeSha256;
  if (a.probeSha256 && b.probeSha256 && a.probeSha256 !== b.probeSha256)
    warnings.push(`the two probe.json files differ; the merged cassette keeps ${path.join(a.dir, PROBE_FILE)}`);
  return CassetteHeaderSchema.parse({
    ...a.header,
    transport,
    recorded_at: older,
    driver: { ...a.header.driver, ...(probeSha ? { probe_sha256: probeSha } : {}) },
    notes: [
      ...(a.header.notes ?? []),
      ...(b.header.notes ?? []),
      `merged: ${b.events} events from a cassette recorded ${b.header.recorded_at} appended after ${a.events} recorded ${a.header.recorded_at}`,
    ],
  });
}
