import type { Reply, ToolResult } from "../../driver/port.js";
import type { CassetteEvent } from "../../schema/cassette.js";
import { assignEpochs, buildExchanges, type RecordedExchange } from "../../replay/engine/exchanges.js";
import { recordedOutcome } from "../../replay/engine/tool-result.js";
import { frameMarker, takeFrameMarkers } from "./frame-markers.js";
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

/** Pairs requests with answers (replay engine's own pairing) and reads each answer once. */
export function viewExchanges(options: { events: readonly CassetteEvent[] }): ExchangeView[] {
  const exchanges = buildExchanges({ events: options.events, frame: frameMarker });
  assignEpochs(exchanges);
  const tByseq = new Map(options.events.map((e) => [e.seq, e.t_ms]));
  return exchanges.map((exchange) => {
    const outcome = recordedOutcome(exchange);
    const tool = exchange.request.tool ?? exchange.request.method;
    const frames: ExchangeView["frames"] = [];
    const t_ms = tByseq.get(exchange.seq) ?? 0;
    if (outcome.type === "result") {
      const taken = takeFrameMarkers(outcome.raw);
      // One image can sit in a result twice (an image block and a merged screenshot_png_b64): show it once.
      for (const ref of new Set(taken.refs)) frames.push({ ref, label: "screenshot" });
      for (const [flag, file] of Object.entries(exchange.cli?.files ?? {})) frames.push({ ref: file.ref, label: flag });
      let result: ToolResult;
      try {
        const parsed = JSON.parse(taken.text) as ToolResult;
        result = { ...parsed, content: parsed.content ?? [] };
      } catch {
        result = { content: [{ type: "text", text: taken.text }] };
      }
      const { summary, isError } = summarizeResult(result);
      return { exchange, result, resultText: taken.text, reply: result, summary, isError, frames, t_ms };
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
  });
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

/** The timeline of a cassette: one row per recorded request, with its epoch and the verdict on mutations. */
export function cassetteRows(options: { events: readonly CassetteEvent[]; cassetteDir: string; idPrefix: string }): ReportRow[] {
  return viewExchanges(options).map((view) => {
    const x = view.exchange;
    const detail = view.resultText && view.resultText.length < 20_000 ? view.resultText : view.resultText?.slice(0, 20_000);
    return {
      id: `${options.idPrefix}seq-${x.seq}`,
      label: `seq ${x.seq}`,
      t_ms: view.t_ms,
      method: x.request.method,
      ...(x.request.tool !== undefined ? { tool: x.request.tool } : {}),
      ...(x.request.method === "call" ? { args: prettyArgs(x.request.args) } : {}),
      kind: x.kind,
      result: view.summary,
      ...(detail !== undefined ? { resultDetail: detail } : {}),
      isError: view.isError,
      ...(x.kind === "mutation" ? { verdict: verdictOf(view.reply, x.request.tool) } : {}),
      outcome: "recorded",
      epochBefore: x.epoch,
      epochAfter: x.kind === "mutation" && x.origin === "harness" ? x.epoch + 1 : x.epoch,
      shots: shotsOf(view, options.cassetteDir),
    };
  });
}
