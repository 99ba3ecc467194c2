import type { Reply, ToolResult } from "#src/driver/port.js";
import type { CassetteEvent } from "#src/schema/cassette.js";
import { endsEpoch, type RecordedExchange } from "#src/replay/engine/exchanges.js";
import { recordedOutcome, type RecordedOutcome } from "#src/replay/engine/tool-result.js";
import { takeFrameMarkers } from "./frame-markers.js";
import { recordingOfEvents, type ReportRecording } from "./recording.js";
import type { ReportRow, ReportShot } from "./model.js";
import { summarizeResult, verdictOf } from "./summarize-result.js";

/** A recorded exchange as the report sees it: what was asked, what came back, which frames it carried. */
export interface ExchangeView {
  exchange: RecordedExchange;
  /** Result with images replaced by `<image>`, parsed (undefined for failures and missing answers). */
  result?: ToolResult;
  resultText?: string;
  /** What the harness would get in-process (results, or transport failures). */
  reply: Reply;
  summary: string;
  isError: boolean;
  /** Frame refs in the answer, in order (inline images, then out-files). */
  frames: Array<{ ref: string; label: string }>;
  t_ms: number;
}

// The report needs values, not bytes: a JSON-RPC response is parsed natively (large tools/list and
// image responses make the byte-exact scanner the slowest step); CLI output goes through the engine.
type Outcome = Exclude<RecordedOutcome, { type: "result" }> | { type: "value"; value: unknown; text: string } | { type: "text"; text: string };

function outcomeOf(exchange: RecordedExchange, refs: string[]): Outcome {
  const response = exchange.rpc?.response;
  if (response !== undefined) {
    try {
      const message = JSON.parse(withoutMarkers(response, refs)) as { result?: unknown; error?: { code?: number; message?: string } };
      if (message.result !== undefined) return { type: "value", value: message.result, text: response };
      if (message.error) return { type: "rpc_error", code: message.error.code ?? -32603, message: message.error.message ?? "" };
    } catch {
      // not one JSON document (an SSE body, a torn line): let the engine read it
    }
  }
  refs.length = 0;
  const outcome = recordedOutcome(exchange);
  if (outcome.type !== "result") return outcome;
  try {
    return { type: "value", value: JSON.parse(withoutMarkers(outcome.raw, refs)), text: outcome.raw };
  } catch {
    refs.length = 0;
    return { type: "text", text: outcome.raw };
  }
}

/**
 * The JSON text with each frame marker replaced by `<image>` and its ref pushed, in document order:
 * a marker holds no character JSON escapes, so parsing this text gives the values a walk replacing
 * the markers in every parsed string would (without walking a large answer).
 */
function withoutMarkers(text: string, refs: string[]): string {
  if (!text.includes("@@frame:")) return text;
  const taken = takeFrameMarkers(text);
  refs.push(...taken.refs);
  return taken.text;
}

/** Pairs requests with answers (replay engine's own pairing) and reads each answer once. */
export function viewExchanges(options: { events: readonly CassetteEvent[] }): ExchangeView[] {
  const recording = recordingOfEvents(options.events);
  return recording.exchangesAt(0, recording.count).map((exchange) => viewExchange(exchange, recording.tMs.get(exchange.seq) ?? 0));
}

/** What the report shows of one exchange (its answer read here; nothing of it is kept but the view). */
export function viewExchange(exchange: RecordedExchange, t_ms: number): ExchangeView {
  const refs: string[] = [];
  const outcome = outcomeOf(exchange, refs);
  const tool = exchange.request.tool ?? exchange.request.method;
  const frames: ExchangeView["frames"] = [];
  if (outcome.type === "value" || outcome.type === "text") {
    let result: ToolResult;
    if (outcome.type === "value") {
      const value = outcome.value as ToolResult;
      result = value && typeof value === "object" ? { ...value, content: Array.isArray(value.content) ? value.content : [] } : { content: [] };
    } else {
      const taken = takeFrameMarkers(outcome.text);
      refs.push(...taken.refs);
      result = { content: [{ type: "text", text: taken.text }] };
    }
    // One image can sit in a result twice (an image block and a merged screenshot_png_b64): show it once.
    for (const ref of new Set(refs)) frames.push({ ref, label: "screenshot" });
    for (const [flag, file] of Object.entries(exchange.cli?.files ?? {})) frames.push({ ref: file.ref, label: flag });
    const { summary, isError } = summarizeResult(result);
    const resultText = outcome.type === "value" ? detailText(outcome.text) : outcome.text;
    return { exchange, result, resultText, reply: result, summary, isError, frames, t_ms };
  }
  for (const [flag, file] of Object.entries(exchange.cli?.files ?? {})) frames.push({ ref: file.ref, label: flag });
  if (outcome.type === "rpc_error") {
    const message = `JSON-RPC error ${outcome.code}: ${outcome.message}`;
    return { exchange, reply: { kind: "transport_error", tool, message }, summary: message, isError: true, frames, t_ms };
  }
  if (outcome.type === "cli_failure") {
    const message = `exit ${outcome.exitCode ?? outcome.signal ?? "?"}: ${outcome.stderr.trim().split("\n")[0] ?? ""}`;
    return { exchange, reply: { kind: "transport_error", tool, message }, summary: message, isError: true, frames, t_ms };
  }
  return { exchange, reply: { kind: "timeout", tool }, summary: "no answer recorded", isError: true, frames, t_ms };
}

/** The full result is shown up to this many characters (tools/list answers run to 150 000). */
const DETAIL_MAX = 8_000;

// The answer as recorded (images as `<image>`), cut to what the report shows.
function detailText(text: string): string {
  if (text.length <= DETAIL_MAX) return takeFrameMarkers(text).text;
  const head = takeFrameMarkers(text.slice(0, DETAIL_MAX)).text.replace(/@@frame:[^@]*$/, "<image>");
  return `${head}… (${text.length} characters)`;
}

export function prettyArgs(args: unknown): string | undefined {
  if (args === undefined) return undefined;
  return JSON.stringify(args, null, 2);
}

export function shotsOf(view: ExchangeView, cassetteDir: string): ReportShot[] {
  return view.frames.map((f) => ({ image: imageId(f.ref), source: { cassetteDir, ref: f.ref }, label: f.label }));
}

export function imageId(ref: string): string {
  return `img-${ref.slice("frames/".length, "frames/".length + 16)}`;
}

/** Equal texts kept once while rows are held (the timeline of a small cassette). */
export function textOnce(): (text: string | undefined) => string | undefined {
  const texts = new Map<string, string>();
  return (text) => {
    if (text === undefined) return undefined;
    const kept = texts.get(text);
    if (kept !== undefined) return kept;
    texts.set(text, text);
    return text;
  };
}

/**
 * The timeline of a cassette: one row per recorded request, with its epoch and the verdict on
 * mutations. Rows are built one at a time (a recording read on demand keeps no answer); equal
 * argument and result texts are kept once.
 */
export function cassetteRows(
  options: ({ events: readonly CassetteEvent[] } | { recording: ReportRecording }) & { cassetteDir: string; idPrefix: string },
): ReportRow[] {
  const recording = "recording" in options ? options.recording : recordingOfEvents(options.events);
  const once = textOnce();
  return recording
    .exchangesAt(0, recording.count)
    .map((x) => cassetteRow({ exchange: x, recording, cassetteDir: options.cassetteDir, idPrefix: options.idPrefix, once }));
}

/** The row of one recorded exchange (its answer read now); `once` keeps equal texts once. */
export function cassetteRow(options: {
  exchange: RecordedExchange;
  recording: ReportRecording;
  cassetteDir: string;
  idPrefix: string;
  once?: (text: string | undefined) => string | undefined;
}): ReportRow {
  const { exchange: x, recording } = options;
  const once = options.once ?? ((text: string | undefined) => text);
  const view = viewExchange(x, recording.tMs.get(x.seq) ?? 0);
  const detail = once(
    view.resultText && view.resultText.length > DETAIL_MAX
      ? `${view.resultText.slice(0, DETAIL_MAX)}… (${view.resultText.length} characters)`
      : view.resultText,
  );
  return {
    id: `${options.idPrefix}seq-${x.seq}`,
    label: `seq ${x.seq}`,
    t_ms: view.t_ms,
    method: x.request.method,
    ...(x.request.tool !== undefined ? { tool: x.request.tool } : {}),
    ...(x.request.method === "call" ? { args: once(prettyArgs(x.request.args)) } : {}),
    kind: x.kind,
    result: view.summary,
    ...(detail !== undefined ? { resultDetail: detail } : {}),
    isError: view.isError,
    ...(x.kind === "mutation" ? { verdict: verdictOf(view.reply, x.request.tool) } : {}),
    outcome: "recorded",
    epochBefore: x.epoch,
    // the epoch the replay is in after it: a refused call, a session start or end, a call kept from the driver end none
    epochAfter: endsEpoch(x) ? x.epoch + 1 : x.epoch,
    shots: shotsOf(view, options.cassetteDir),
  };
}
