import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { describeSystemError, UserError } from "#src/errors.js";
import { GateHistoryEntrySchema, type GateHistoryEntry } from "#src/schema/gate-history.js";

/** Appends one matrix run to a JSON Lines history file (created when missing; earlier lines are never rewritten). */
export function appendHistory(file: string, entry: GateHistoryEntry): void {
  const line = `${JSON.stringify(GateHistoryEntrySchema.parse(entry))}\n`;
  try {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    appendFileSync(file, line);
  } catch (error) {
    const described = describeSystemError(error);
    if (!described) throw error;
    throw new UserError(`cannot append to ${file}: ${described.path} ${described.problem}`, {
      code: "USAGE",
      field: "--history",
      fix: described.fix,
      cause: error,
    });
  }
}
