import { UserError } from "#src/errors.js";
import { CassetteEventSchema, CassetteHeaderSchema, type CassetteEvent } from "#src/schema/cassette.js";
import type { Cassette } from "./cassette.js";
import { HEADER_FIX, scanCassette, type CassetteValidators, type EventPlace } from "./scan.js";

export interface ReadCassetteOptions {
  /**
   * What to do with frames: `verify` (default) throws on a missing or altered frame, `report` only
   * lists them in `frameStats` (what `inspect` wants), `skip` does not look at frame files.
   */
  frames?: "verify" | "report" | "skip";
  /** `skip`: probe.json is not read (`cassette.probe` stays unset), for a reader that never uses it. */
  probe?: "read" | "skip";
}

/** Loads and validates a cassette directory. Bad input throws a UserError naming file:line and the fix. */
export async function readCassette(dir: string, options: ReadCassetteOptions = {}): Promise<Cassette> {
  return readCassetteSync(dir, options);
}

/** Loads every event into memory; the file itself is read line by line (see scanCassette to keep none). */
export function readCassetteSync(dir: string, options: ReadCassetteOptions = {}): Cassette {
  const events: CassetteEvent[] = [];
  const lines: number[] = [];
  const scan = scanCassette({
    dir,
    validators: schemaValidators,
    frames: options.frames ?? "verify",
    ...(options.probe ? { probe: options.probe } : {}),
    onEvent: (event: CassetteEvent, place: EventPlace) => {
      events.push(event);
      lines.push(place.line);
    },
  });
  const cassette: Cassette = { dir: scan.dir, file: scan.file, header: scan.header, events, lines, warnings: scan.warnings, frameStats: scan.frameStats };
  if (scan.probe !== undefined) {
    cassette.probe = scan.probe.json;
    cassette.probeSha256 = scan.probe.sha256;
  }
  return cassette;
}

/** The cassette's zod schemas as scan validators: the messages name the first issue's field. */
export const schemaValidators: CassetteValidators = {
  header(json, file) {
    const parsed = CassetteHeaderSchema.safeParse(json);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    throw new UserError(`bad header: ${issue?.message ?? "invalid"}`, {
      code: "BAD_CASSETTE",
      file,
      line: 1,
      field: issue?.path.join(".") || "header",
      fix: HEADER_FIX,
    });
  },
  event(json, file, line) {
    const parsed = CassetteEventSchema.safeParse(json);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const field = issue && issue.path.length > 0 ? issue.path.join(".") : "event";
    throw new UserError(`invalid event: ${issue?.message ?? "does not match the cassette event schema"}`, {
      code: "BAD_CASSETTE",
      file,
      line,
      field,
      fix: "See contracts/schema/cassette.schema.json for the event shape; fix the line or re-record.",
    });
  },
};
