import type { Severity } from "#src/contract/change.js";
import { diffAnswers, jsonObject as json, type AnswerDifference } from "./answer-diff.js";

/** One per-call CLI answer, as recorded or as the candidate gave it. */
export interface CliAnswer {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  /** Files written for flags such as --screenshot-out-file. */
  files: string[];
}

/** Compares a recorded per-call answer with the candidate's: exit code, then JSON stdout structurally, then text. */
export function judgeCliAnswer(recorded: CliAnswer, live: CliAnswer, tolerance: number): AnswerDifference[] {
  const out: AnswerDifference[] = [];
  if (recorded.exitCode !== live.exitCode) {
    const failsNow = recorded.exitCode === 0;
    out.push({
      severity: failsNow ? "breaking" : "behavioural",
      path: "exit_code",
      kind: "value_changed",
      recorded: recorded.exitCode,
      live: live.exitCode,
      message: failsNow ? `the call now fails (exit ${live.exitCode}): ${firstLine(live.stderr)}` : `exit code was ${recorded.exitCode}, now ${live.exitCode}`,
    });
  }
  const a = json(recorded.stdout);
  const b = json(live.stdout);
  if (a !== undefined && b !== undefined) out.push(...diffAnswers(a, b, { tolerance }));
  else if (a !== undefined && recorded.exitCode === live.exitCode)
    out.push({ severity: "breaking", path: "$", kind: "type_changed", message: "stdout was JSON, now is not" });
  else if (recorded.stdout !== live.stdout && b === undefined && a === undefined)
    out.push({ severity: "cosmetic", path: "stdout", kind: "value_changed", recorded: recorded.stdout, live: live.stdout, message: "stdout text changed" });
  if (recorded.stderr !== live.stderr && recorded.exitCode === live.exitCode)
    out.push({ severity: "cosmetic", path: "stderr", kind: "value_changed", recorded: recorded.stderr, live: live.stderr, message: "stderr text changed" });
  for (const flag of recorded.files)
    if (!live.files.includes(flag)) out.push({ severity: "breaking", path: flag, kind: "missing", message: `${flag} was written, now is not` });
  for (const flag of live.files)
    if (!recorded.files.includes(flag)) out.push({ severity: "additive", path: flag, kind: "added", message: `${flag} is now written` });
  return out;
}

/** Compares a recorded JSON-RPC response with the candidate's for the same request. */
export function judgeMcpAnswer(options: { method: string; recorded: unknown; live: unknown; tolerance: number }): AnswerDifference[] {
  const { recorded, live, tolerance } = options;
  const ra = obj(recorded);
  const lb = obj(live);
  if (ra.error !== undefined && lb.error === undefined)
    return [{ severity: "behavioural", path: "$.error", kind: "missing", message: "the request was an error, now has a result" }];
  if (ra.error === undefined && lb.error !== undefined)
    return [{ severity: "breaking", path: "$.error", kind: "added", live: lb.error, message: `the request now fails: ${JSON.stringify(lb.error)}` }];
  if (ra.error !== undefined) return diffAnswers(ra.error, lb.error, { tolerance }).map((d) => ({ ...d, path: d.path.replace(/^\$/, "$.error") }));
  const a = obj(ra.result);
  const b = obj(lb.result);
  const at = (prefix: string, list: AnswerDifference[]) =>
    list.map((d) => ({ ...d, path: d.path.replace(/^\$/, prefix), message: d.message.replace(/^\$/, prefix) }));
  if (options.method === "initialize") {
    return at(
      "$.result",
      diffAnswers(
        { protocolVersion: a.protocolVersion, capabilities: a.capabilities },
        { protocolVersion: b.protocolVersion, capabilities: b.capabilities },
        { tolerance },
      ),
    );
  }
  const out: AnswerDifference[] = [];
  if (Boolean(a.isError) !== Boolean(b.isError)) {
    out.push({
      severity: a.isError ? "behavioural" : "breaking",
      path: "$.result.isError",
      kind: "value_changed",
      recorded: a.isError ?? false,
      live: b.isError ?? false,
      message: a.isError ? "the call was an error, now succeeds" : "the call now answers isError: true",
    });
  }
  if (a.structuredContent !== undefined || b.structuredContent !== undefined) {
    if (a.structuredContent === undefined)
      out.push({ severity: "additive", path: "$.result.structuredContent", kind: "added", message: "$.result.structuredContent is new" });
    else if (b.structuredContent === undefined)
      out.push({ severity: "breaking", path: "$.result.structuredContent", kind: "missing", message: "$.result.structuredContent is gone" });
    else out.push(...at("$.result.structuredContent", diffAnswers(a.structuredContent, b.structuredContent, { tolerance })));
  }
  const kinds = (r: Record<string, unknown>) => (Array.isArray(r.content) ? r.content.map((c) => String(obj(c).type)) : []);
  if (kinds(a).join(",") !== kinds(b).join(",")) {
    out.push({
      severity: "behavioural",
      path: "$.result.content",
      kind: "value_changed",
      recorded: kinds(a),
      live: kinds(b),
      message: `content parts were [${kinds(a).join(", ")}], now [${kinds(b).join(", ")}]`,
    });
  } else if (a.structuredContent === undefined) {
    // Text-only answers: the text is all the harness has; prose changes are cosmetic.
    const text = (r: Record<string, unknown>) => (Array.isArray(r.content) ? r.content.map((c) => String(obj(c).text ?? "")).join("\n") : "");
    if (text(a) !== text(b)) out.push({ severity: "cosmetic", path: "$.result.content", kind: "value_changed", message: "content text changed" });
  }
  return out;
}

/** The most severe class among differences, or undefined when there are none. */
export function worstOf(differences: readonly AnswerDifference[]): Severity | undefined {
  for (const s of ["breaking", "behavioural", "additive", "cosmetic"] as const) if (differences.some((d) => d.severity === s)) return s;
  return undefined;
}

function obj(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function firstLine(text: string): string {
  return (
    text
      .split("\n")
      .find((l) => l.trim())
      ?.trim() ?? "(no stderr)"
  );
}
