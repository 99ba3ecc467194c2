/**
 * A recording that looks fine but is not: the harness's tool calls all answered the same error
 * (`$DISPLAY variable not set`, a daemon that is not running) or came back empty (no windows), and
 * were stored as ordinary calls. `record` and `inspect` print these as warnings naming the likely
 * cause; they never change an exit code. One event at a time, so a long cassette is not held.
 */
import { messageOfBody } from "#src/transports/http/wire/event-stream.js";
import type { CassetteEvent } from "#src/schema/cassette.js";
import { assertNever } from "#src/util/assert-never.js";
import { answerOf, createExchangeReader, toolOf, type RecordedAnswer } from "./exchanges/index.js";
import { fromStoredBytes } from "./stored-bytes.js";
import { saysDaemonUnreachable } from "#src/driver/messages.js";

type Answer = { tool: string; kind: "ok" } | { tool: string; kind: "empty" } | { tool: string; kind: "failed"; message: string };

const CAUSES: { matches: (text: string) => boolean; cause: string }[] = [
  {
    matches: (text) => /\$DISPLAY variable not set|no usable display|WAYLAND_DISPLAY is set|cannot open display|can't open display/i.test(text),
    cause:
      "no display: the harness ran without an X server or Wayland compositor. Record with --desktop (a throwaway Xvfb desktop) or from a running desktop session",
  },
  {
    matches: saysDaemonUnreachable,
    cause: "the driver is not running: start it (cua-driver serve) before recording, or record with --driver sdk, which runs the runtime in process",
  },
];
const EMPTY_CAUSE = "no display or no application open: on a headless machine record with --desktop, which starts a desktop with gtk3-demo open";

/** Collects the harness's answers; `warnings()` says what is wrong with them, if anything. */
export function answerHealth(): { add(event: CassetteEvent): void; warnings(): string[] } {
  const answers: Answer[] = [];
  const reader = createExchangeReader({
    whole(x) {
      const tool = toolOf(x);
      const answer = answerOf(x);
      if (x.origin === "recorder" || tool === undefined || !answer || answer.origin === "recorder") return;
      answers.push(judgeAnswer(tool, answer));
    },
  });
  return {
    add: (event) => reader.add(event, undefined),
    warnings: () => warningsFor(answers),
  };
}

/** The warnings for a run's answers, in order: all calls first, then each tool. */
export function warningsFor(answers: readonly Answer[]): string[] {
  if (answers.length === 0) return [];
  const messages = answers.flatMap((a) => (a.kind === "failed" ? [a.message] : []));
  const known = CAUSES.find((c) => messages.some((m) => c.matches(m)));
  const out: string[] = [];
  if (answers.every((a) => a.kind !== "ok")) {
    const counts = new Map<string, number>();
    for (const a of answers) counts.set(describe(a), (counts.get(describe(a)) ?? 0) + 1);
    const what = [...counts]
      .slice(0, 3)
      .map(([d, n]) => (answers.length === 1 ? d : `${d} (${n})`))
      .join("; ");
    const none =
      answers.length === 1 ? "the harness's one tool call got no usable answer" : `none of the harness's ${answers.length} tool calls got a usable answer`;
    out.push(
      `${none}: ${what}. Likely cause: ${known?.cause ?? (messages.length === 0 ? EMPTY_CAUSE : "the answer above")}. The cassette keeps these answers as recorded; re-record once the cause is fixed.`,
    );
    return out;
  }
  const tools = [...new Set(answers.map((a) => a.tool))];
  for (const tool of tools) {
    const mine = answers.filter((a) => a.tool === tool);
    if (mine.some((a) => a.kind === "ok")) continue;
    const distinct = [...new Set(mine.map(describe))];
    if (distinct.length !== 1) continue;
    const cause = CAUSES.find((c) => mine.some((a) => a.kind === "failed" && c.matches(a.message)));
    // one failed call of a tool among good ones is a harness's ordinary error path, unless its cause is known
    if (mine.length < 2 && !cause) continue;
    const emptyCause = mine[0]!.kind === "empty" ? (known?.cause ?? EMPTY_CAUSE) : undefined;
    out.push(
      `${mine.length === 1 ? `the one ${tool} call` : `all ${mine.length} ${tool} calls`} ${distinct[0]!.slice(tool.length + 1)}. Likely cause: ${cause?.cause ?? emptyCause ?? "the answer above"}.`,
    );
  }
  return out;
}

function describe(a: Answer): string {
  if (a.kind === "failed") return `${a.tool} answered "${a.message}"`;
  return `${a.tool} came back empty`;
}

/** A tool call's answer judged in its encoding: a process's output and exit, or a JSON-RPC response (an HTTP one with its status). */
function judgeAnswer(tool: string, answer: RecordedAnswer): Answer {
  switch (answer.form) {
    case "output": {
      const stdout = fromStoredBytes(answer.stdout).toString("utf8");
      const stderr = fromStoredBytes(answer.stderr).toString("utf8");
      return judgeText(tool, stdout, stderr, answer.exitCode !== 0 || Boolean(answer.signal));
    }
    case "rpc": {
      const body = fromStoredBytes(answer.body).toString("utf8");
      // an HTTP answer may be an event stream: its message is the data of its first event
      const response = parseJson(messageOfBody(body)) as { result?: unknown; error?: { message?: unknown } } | undefined;
      const failed = answer.status !== undefined && answer.status >= 400;
      if (failed || response?.error) {
        const fallback = answer.status !== undefined ? `HTTP ${answer.status}` : "JSON-RPC error";
        return { tool, kind: "failed", message: firstLine(String(response?.error?.message ?? fallback)) };
      }
      return judgeResult(tool, response?.result);
    }
    default:
      return assertNever(answer, "recorded answer");
  }
}

function judgeText(tool: string, stdout: string, stderr: string, failed: boolean): Answer {
  const text = stdout.trim() || stderr.trim();
  if (failed || CAUSES.some((c) => c.matches(text))) return { tool, kind: "failed", message: firstLine(text || "no output") };
  const value = parseJson(stdout);
  if (text === "" || (value !== undefined && isEmpty(value))) return { tool, kind: "empty" };
  return { tool, kind: "ok" };
}

function judgeResult(tool: string, result: unknown): Answer {
  const r = (result ?? {}) as { isError?: unknown; content?: { type?: unknown; text?: unknown }[]; structuredContent?: unknown };
  const text = (r.content ?? [])
    .filter((c) => c.type === "text" && typeof c.text === "string")
    .map((c) => c.text as string)
    .join("\n");
  if (r.isError === true || CAUSES.some((c) => c.matches(text))) return { tool, kind: "failed", message: firstLine(text || "isError") };
  if (r.structuredContent !== undefined ? isEmpty(r.structuredContent) : (r.content ?? []).length === 0) return { tool, kind: "empty" };
  return { tool, kind: "ok" };
}

/** A list answer with nothing in it: an object whose arrays are all empty (at least one), or an empty array. */
function isEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (value === null || typeof value !== "object") return false;
  const arrays = Object.values(value).filter(Array.isArray);
  return arrays.length > 0 && arrays.every((a) => a.length === 0);
}

function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim() !== "") ?? "";
  const trimmed = line.trim();
  return trimmed.length > 100 ? `${trimmed.slice(0, 99)}…` : trimmed;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
