import { UserError } from "#src/errors.js";
import { checkRegularFile, readRegularFile } from "./safe-files.js";
import { ReplayLogEntrySchema, type ReplayLogEntry } from "#src/schema/replay-log.js";

/** Reads replay logs (`replay --log`, JSONL); a bad line names file:line. */
export function readReplayLogs(files: readonly string[]): { file: string; entries: ReplayLogEntry[] }[] {
  return files.map((file) => {
    let text: string;
    const fix = "Pass a log written by `cua-contract replay DIR --log FILE -- CMD`.";
    if (checkRegularFile(file, { what: "the replay log", fix, code: "BAD_INPUT" }) === "absent") {
      throw new UserError("the replay log is missing", { code: "USAGE", file, field: "--log", fix });
    }
    try {
      text = readRegularFile(file, { what: "the replay log", fix, code: "BAD_INPUT" }).toString("utf8");
    } catch (error) {
      if (error instanceof UserError) throw error;
      throw new UserError("cannot read the replay log", {
        code: "USAGE",
        file,
        field: "--log",
        fix: "Pass a log written by `cua-contract replay DIR --log FILE -- CMD`.",
      });
    }
    const entries: ReplayLogEntry[] = [];
    text.split("\n").forEach((line, i) => {
      if (line.trim() === "") return;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        throw new UserError("not a JSON line", { code: "BAD_INPUT", file, line: i + 1, fix: "Pass a replay log (JSONL) as `replay --log` writes it." });
      }
      const parsed = ReplayLogEntrySchema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new UserError(`not a replay log entry (${issue?.path.join(".") || "entry"}: ${issue?.message ?? "invalid"})`, {
          code: "BAD_INPUT",
          file,
          line: i + 1,
          fix: "Pass a replay log (JSONL) as `replay --log` writes it.",
        });
      }
      entries.push(parsed.data);
    });
    if (!entries.some((e) => e.type === "request" || e.type === "summary")) {
      throw new UserError("the replay log is empty (no request, no summary): it cannot say which calls were used", {
        code: "BAD_INPUT",
        file,
        field: "--log",
        fix: "Pass a log written by `cua-contract replay DIR --log FILE -- CMD` of a run that made calls.",
      });
    }
    return { file, entries };
  });
}
