import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { UserError } from "#src/errors.js";
import { CassetteHeaderSchema, type CassetteEvent, type CassetteHeader, type CassetteTransport } from "#src/schema/cassette.js";
import { CASSETTE_FILE, FRAMES_DIR, PROBE_FILE, type Cassette } from "./cassette.js";
import { frameRefsOf } from "./event-frames.js";
import { copyFrame } from "./frame-signature.js";
import { readCassetteSync } from "./reader.js";

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
 * when the two were recorded from different drivers or with different redaction.
 */
export function mergeCassettes(options: { a: string; b: string; out: string }): MergeResult {
  const a = readCassetteSync(options.a);
  const b = readCassetteSync(options.b);
  checkCompatible(a, b);
  const warnings: string[] = [];
  const seqShift = a.events.reduce((m, e) => Math.max(m, e.seq + 1), 0);
  const tShift = a.events.reduce((m, e) => Math.max(m, e.t_ms + ("duration_ms" in e ? e.duration_ms : 0)), 0) + 1;
  const streamShift = a.events.reduce((m, e) => ("stream" in e ? Math.max(m, e.stream + 1) : m), 0);
  const shifted = b.events.map(
    (e) => ({ ...e, seq: e.seq + seqShift, t_ms: e.t_ms + tShift, ...("stream" in e ? { stream: e.stream + streamShift } : {}) }) as CassetteEvent,
  );
  const header = mergedHeader(a, b, warnings);

  const cassetteFile = path.join(options.out, CASSETTE_FILE);
  if (existsSync(cassetteFile)) {
    throw new UserError("the output directory already holds a cassette", {
      code: "OUTPUT_EXISTS",
      file: cassetteFile,
      field: "--out",
      fix: "Choose an empty --out directory.",
    });
  }
  mkdirSync(options.out, { recursive: true, mode: 0o700 });
  const frames = new Map<string, string>();
  for (const [c, events] of [
    [a, a.events],
    [b, b.events],
  ] as const)
    for (const e of events) for (const r of frameRefsOf(e)) frames.set(String(r.ref), c.dir);
  if (frames.size > 0) mkdirSync(path.join(options.out, FRAMES_DIR), { recursive: true, mode: 0o700 });
  for (const [ref, dir] of frames) copyFrame({ from: dir, to: options.out, ref });
  const probeFrom = [a, b].find((c) => c.probe !== undefined);
  if (probeFrom) copyFileSync(path.join(probeFrom.dir, PROBE_FILE), path.join(options.out, PROBE_FILE));
  const aLines = readFileSync(a.file, "utf8").split("\n");
  const lines = [JSON.stringify(header), ...a.events.map((_, i) => aLines[a.lines[i]! - 1]!), ...shifted.map((e) => JSON.stringify(e))];
  writeFileSync(cassetteFile, `${lines.join("\n")}\n`, { mode: 0o600 });
  return { out: path.resolve(options.out), events: a.events.length + b.events.length, frames: frames.size, warnings };
}

function checkCompatible(a: Cassette, b: Cassette): void {
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
}

function mergedHeader(a: Cassette, b: Cassette, warnings: string[]): CassetteHeader {
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
      `merged: ${b.events.length} events from a cassette recorded ${b.header.recorded_at} appended after ${a.events.length} recorded ${a.header.recorded_at}`,
    ],
  });
}
