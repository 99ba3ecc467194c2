import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import type { z } from "zod";
import { UserError } from "#src/errors.js";
import { TrajectoryActionSchema, TrajectoryEvidenceSchema, TrajectoryStateSchema } from "#src/schema/trajectory.js";
import { TURN_DIR, type Trajectory, type TrajectoryTurn, type TurnObservation } from "./trajectory.js";

const FIX_RERECORD = "Re-record the trajectory with `start_recording` (or `cua-driver recording start`), or remove the damaged turn and every turn after it.";

/**
 * Reads a cua-driver trajectory folder (`turn-NNNNN/` folders). Bad input throws a UserError that
 * names the turn folder and the file: a missing action.json, a gap in the turn numbers, JSON that
 * does not parse or lacks a field, a PNG that does not decode.
 */
export async function readTrajectory(options: { dir: string }): Promise<Trajectory> {
  const dir = options.dir;
  if (existsSync(dir) && !statSync(dir).isDirectory()) {
    throw new UserError("is a file, not a trajectory folder", {
      code: "BAD_TRAJECTORY",
      file: dir,
      fix: "Pass the folder given to start_recording as output_dir (it holds turn-00001/, turn-00002/, …), not a file inside it.",
    });
  }
  if (!existsSync(dir)) {
    throw new UserError("no such trajectory folder", {
      code: "BAD_TRAJECTORY",
      file: options.dir,
      fix: "Pass the output_dir given to start_recording (the folder holding turn-00001/, turn-00002/, …).",
    });
  }
  const names = readdirSync(dir)
    .filter((n) => TURN_DIR.test(n) && statSync(path.join(dir, n)).isDirectory())
    .sort();
  if (names.length === 0) {
    throw new UserError("the folder holds no turn-NNNNN/ folders", {
      code: "BAD_TRAJECTORY",
      file: options.dir,
      fix: "Pass the output_dir given to start_recording, after at least one action was recorded.",
    });
  }
  const turns: TrajectoryTurn[] = [];
  for (const [i, name] of names.entries()) {
    const number = Number(TURN_DIR.exec(name)![1]);
    const expected = i + 1;
    if (number !== expected) {
      const want = `turn-${String(expected).padStart(5, "0")}`;
      throw new UserError(`turn numbers have a gap: ${want} is missing before ${name}`, {
        code: "BAD_TRAJECTORY",
        file: path.join(dir, name),
        fix: `A trajectory numbers its turns 1, 2, 3, … without gaps: restore ${want}/ from the original recording, or move ${name}/ and every later turn out of the folder to import the turns before the gap.`,
      });
    }
    turns.push(await readTurn({ dir, name, number }));
  }
  const sessionFile = path.join(dir, "session.json");
  const session = existsSync(sessionFile) ? readJson({ file: sessionFile, turn: undefined }) : undefined;
  return { dir: path.resolve(dir), turns, ...(session !== undefined ? { session } : {}) };
}

async function readTurn(options: { dir: string; name: string; number: number }): Promise<TrajectoryTurn> {
  const turnDir = path.join(options.dir, options.name);
  const actionFile = path.join(turnDir, "action.json");
  if (!existsSync(actionFile)) {
    throw new UserError(`${options.name} has no action.json`, {
      code: "BAD_TRAJECTORY",
      file: actionFile,
      fix: `Every turn folder holds the action it recorded in action.json. ${FIX_RERECORD}`,
    });
  }
  const action = parseFile({ file: actionFile, turn: options.name, schema: TrajectoryActionSchema });
  const evidenceFile = path.join(turnDir, "evidence.json");
  const evidence = existsSync(evidenceFile) ? parseFile({ file: evidenceFile, turn: options.name, schema: TrajectoryEvidenceSchema }) : undefined;
  const side = async (phase: "before" | "after"): Promise<TurnObservation> => {
    const stateFile = path.join(turnDir, `${phase}_state.json`);
    const pngFile = path.join(turnDir, `${phase}.png`);
    const captured = evidence?.[phase];
    const obs: TurnObservation = { stateFile, pngFile };
    if (existsSync(stateFile)) obs.state = parseFile({ file: stateFile, turn: options.name, schema: TrajectoryStateSchema });
    else if (captured?.state?.status === "captured") missing({ file: stateFile, turn: options.name, what: "state" });
    if (existsSync(pngFile)) obs.png = await readPng({ file: pngFile, turn: options.name });
    else if (captured?.screenshot?.status === "captured") missing({ file: pngFile, turn: options.name, what: "screenshot" });
    return obs;
  };
  return { number: options.number, name: options.name, action, ...(evidence ? { evidence } : {}), before: await side("before"), after: await side("after") };
}

function missing(options: { file: string; turn: string; what: string }): never {
  throw new UserError(`${options.turn}: evidence.json says the ${options.what} was captured, but ${path.basename(options.file)} is missing`, {
    code: "BAD_TRAJECTORY",
    file: options.file,
    fix: `Restore the file from the original recording. ${FIX_RERECORD}`,
  });
}

function readJson(options: { file: string; turn: string | undefined }): unknown {
  const text = readFileSync(options.file, "utf8");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UserError(`${options.turn ? `${options.turn}: ` : ""}${path.basename(options.file)} is not valid JSON (${(error as Error).message})`, {
      code: "BAD_TRAJECTORY",
      file: options.file,
      fix: `The recorder writes whole JSON files; this one was cut short or edited. ${FIX_RERECORD}`,
    });
  }
}

function parseFile<T extends z.ZodType>(options: { file: string; turn: string; schema: T }): z.infer<T> {
  const parsed = options.schema.safeParse(readJson(options));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new UserError(`${options.turn}: ${path.basename(options.file)} is not what cua-driver writes: ${issue.message}`, {
    code: "BAD_TRAJECTORY",
    file: options.file,
    ...(issue.path.length > 0 ? { field: issue.path.join(".") } : {}),
    fix: `Compare it with another turn's ${path.basename(options.file)}. ${FIX_RERECORD}`,
  });
}

// Decoding the whole PNG (not just its header) is what catches a truncated or corrupted capture.
async function readPng(options: { file: string; turn: string }): Promise<Uint8Array> {
  const bytes = readFileSync(options.file);
  try {
    const { format } = await sharp(bytes, { failOn: "truncated" }).metadata();
    if (format !== "png") throw new Error(format ? `it is ${format}` : "unknown format");
    await sharp(bytes, { failOn: "truncated" }).raw().toBuffer();
  } catch (error) {
    throw new UserError(`${options.turn}: ${path.basename(options.file)} does not decode as a PNG (${(error as Error).message})`, {
      code: "BAD_FRAME",
      file: options.file,
      fix: `Restore the image from the original recording. ${FIX_RERECORD}`,
    });
  }
  return bytes;
}
