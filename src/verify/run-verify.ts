import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { readCassette, type Cassette } from "#src/cassette/index.js";
import { UserError } from "#src/errors.js";
import { isFailing, SEVERITIES, type Severity } from "#src/contract/change.js";
import { eventText, isObject, jsonOrUndefined } from "#src/probe/event-json.js";
import {
  createExchangeReader,
  type McpExchange,
  type McpStreamEvent,
  type OtherLine,
  type RecordedExchange,
  type RecordedTransport,
  type RpcMessage,
} from "#src/cassette/exchanges/index.js";
import type { McpLineEvent } from "#src/schema/cassette.js";
import type { ShimBackend } from "#src/shim-server/backend.js";
import { signFrames } from "#src/harness/screen/sign-frames.js";
import { createSdkBackend } from "#src/transports/sdk/sdk-backend.js";
import { DEFAULT_SDK_VERSION } from "#src/runtime/load.js";
import { createIdMap } from "./id-map.js";
import { createUnredactor, type Unredactor } from "./secrets.js";
import { judgeMcpAnswer, worstOf } from "./judge-answer.js";
import { openUpdate, type UpdateWriter } from "./update-cassette.js";
import { divergenceNote, type Divergence, type VerifiedCall } from "./verified-call.js";
import { runCliStep } from "./verify-cli-step.js";
import { openMcpStreamClient, type McpStreamClient } from "#src/transports/mcp/stream-client.js";

/** What `runVerify` sends again: a cassette's flow, to which live driver, and what to compare. */
export interface VerifyOptions {
  /** The cassette directory whose flow is sent. */
  dir: string;
  /** `sdk` or `sdk:VERSION`: the published runtime, in process. */
  driver: string;
  /**
   * A fresh throwaway desktop is running for this run (the caller starts it, as `record --desktop`
   * does, and stops it after reporting); mutations are sent only then.
   */
  desktop: boolean;
  /** Pixels geometry may move and still count as the same (default 8). */
  tolerance?: number;
  /** Deadline of each call (default 30 000 ms). */
  timeoutMs?: number;
  /** Write the candidate's answers as a new cassette in this directory. */
  update?: string | undefined;
  /** Replace a cassette already in `update`. */
  force?: boolean;
  /** Values for the recording's redaction placeholders (typed text); each is used only where its hash matches. */
  secrets?: readonly string[];
}

/** A recorded flow sent to a live driver: where the answers differ from the recording, call by call. */
export interface VerifyReport {
  cassette: string;
  recorded: { version: string | null; location?: string | undefined };
  candidate: { version: string; location: string };
  desktop: boolean;
  tolerance: number;
  calls: VerifiedCall[];
  counts: Record<Severity, number>;
  notSent: number;
  /** No breaking or behavioural difference. */
  ok: boolean;
  /** The first call whose answer differed in a way that matters. */
  divergence?: Divergence;
  updated?: string;
}

/** Sends a recording's flow, in order, to the live candidate and compares every answer with the recorded one. */
export async function runVerify(options: VerifyOptions): Promise<VerifyReport> {
  const version = candidateVersion(options.driver);
  const cassette = await readCassette(options.dir, { frames: "skip" });
  if (options.update && path.resolve(options.update) === path.resolve(options.dir)) {
    throw new UserError("--update would overwrite the cassette being verified", {
      code: "USAGE",
      field: "--update",
      fix: "Write the candidate's answers to another directory, then move it over the old one if you want to.",
    });
  }
  const tolerance = options.tolerance ?? 8;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const desktop = options.desktop;
  const backend = await createSdkBackend({ version });
  const work = await mkdtemp(path.join(os.tmpdir(), "cua-verify-"));
  const update = options.update ? await openUpdate({ dir: options.update, force: Boolean(options.force), recorded: cassette, backend, version }) : undefined;
  try {
    const readOnly = readOnlyTools(await backend.driver.listToolsJson());
    const secrets = createUnredactor(options.secrets ?? []);
    const calls = await sendFlow({ cassette, backend, readOnly, work, env: stringEnv(), tolerance, timeoutMs, desktop: Boolean(desktop), update, secrets });
    const counts = Object.fromEntries(
      SEVERITIES.map((s) => [s, calls.reduce((n, c) => n + c.differences.filter((d) => d.severity === s).length, 0)]),
    ) as Record<Severity, number>;
    const firstBad = calls.find((c) => c.worst === "breaking" || c.worst === "behavioural");
    const notSent = calls.filter((c) => !c.sent).length;
    if (update && notSent > 0) {
      update.abandon();
      throw new UserError(`--update needs every call sent, and ${notSent} mutating call(s) were not (no --desktop)`, {
        code: "USAGE",
        field: "--update",
        fix: "Add --desktop so the flow runs on a fresh throwaway desktop.",
      });
    }
    const updated = update?.finish();
    if (updated !== undefined) await signFrames({ dir: updated });
    return {
      cassette: label(options.dir),
      recorded: { version: cassette.header.driver.version, location: cassette.header.driver.location },
      candidate: { version: backend.metadata.driverVersion, location: `sdk:@trycua/cua-driver@${version}` },
      desktop: Boolean(desktop),
      tolerance,
      calls,
      counts,
      notSent,
      ok: counts.breaking === 0 && counts.behavioural === 0,
      ...(firstBad ? { divergence: { seq: firstBad.seq, label: firstBad.label } } : {}),
      ...(updated ? { updated: label(updated) } : {}),
    };
  } finally {
    update?.abandon();
    await backend.close?.();
    await rm(work, { recursive: true, force: true });
  }
}

function candidateVersion(driver: string): string {
  const m = /^sdk(?::(.+))?$/.exec(driver);
  if (!m) {
    throw new UserError(`verify drives the published runtime in process; ${JSON.stringify(driver)} is not sdk[:VERSION]`, {
      code: "USAGE",
      field: "--driver",
      fix: "Give --driver sdk:VERSION (e.g. sdk:0.28.2), or --driver sdk for the pinned one.",
    });
  }
  return m[1] ?? DEFAULT_SDK_VERSION;
}

export interface FlowContext {
  cassette: Cassette;
  backend: ShimBackend;
  readOnly: Map<string, boolean>;
  work: string;
  env: Record<string, string>;
  tolerance: number;
  timeoutMs: number;
  desktop: boolean;
  update: UpdateWriter | undefined;
  secrets: Unredactor;
  /** How long a read after a mutation may be sent again (default SETTLE_MS). */
  settleMs?: number;
}

/** How long a read after a mutation is sent again while it differs from the recorded answer, and how often. */
export const SETTLE_MS = 3000;
const SETTLE_STEP_MS = 200;

/** Whether these differences part the candidate from the recording (what a re-read may still mend). */
const parts = (differences: readonly { severity: Severity }[]) => differences.some(isFailing);

/** Sends the recording's flow to the candidate in order and judges each answer (exported for its tests). */
export async function sendFlow(ctx: FlowContext): Promise<VerifiedCall[]> {
  const ids = createIdMap();
  const calls: VerifiedCall[] = [];
  const streams = new Map<number, McpStreamClient>();
  const flow = readFlow(ctx.cassette);
  let divergence: Divergence | undefined;
  const finish = (call: VerifiedCall, unfaithful = false) => {
    if (divergence) call.notes.push(divergenceNote(divergence));
    call.worst = worstOf(call.differences);
    // A mutation sent with other input than the harness's leaves the desktop in another state, whatever it answered.
    // Only tool calls see the desktop; a different --version or manifest says nothing about its state.
    const parted = parts(call.differences) || (unfaithful && !call.readOnly);
    if (!divergence && call.sent && call.tool !== undefined && parted) divergence = { seq: call.seq, label: call.label };
    calls.push(call);
  };
  const placeholderNote = (unknown: string[]) =>
    `the recording holds ${unknown.join(", ")} where the harness sent a secret, and no --secret matches it: the candidate was sent the placeholder; pass --secret VALUE with what the harness sent to re-run this call exactly`;
  // the last mutation sent over per-call CLI: the reads after it may meet a desktop still settling
  let settlingAfter: string | undefined;
  // each recorded transport's exchange sent again (or not), keyed by the transport's name
  const sendMcp = async (mcp: McpSent) => {
    const { event, place: line, answered } = mcp;
    const stream = streams.get(event.stream);
    const msg = jsonOrUndefined(eventText(event, "line"));
    if (!stream || !isObject(msg)) return;
    const method = String(msg.method ?? "");
    const params = isObject(msg.params) ? msg.params : {};
    const tool = method === "tools/call" && typeof params.name === "string" ? params.name : undefined;
    const call: VerifiedCall = {
      seq: event.seq,
      line,
      transport: "mcp",
      label: tool ? `tools/call ${tool}` : method,
      ...(tool ? { tool } : {}),
      sent: false,
      readOnly: tool ? (ctx.readOnly.get(tool) ?? false) : true,
      notes: [],
      differences: [],
    };
    if (!call.readOnly && !ctx.desktop) {
      call.notes.push(`not sent: ${tool} changes the desktop, and without --desktop there is no fresh desktop to replay it on honestly`);
      finish(call);
      return;
    }
    const text = eventText(event, "line");
    const unknown = ctx.secrets.unknown(text);
    if (unknown.length) call.notes.push(placeholderNote(unknown));
    const sent = tool ? JSON.stringify({ ...msg, params: { ...params, arguments: ctx.secrets.apply(ids.apply(params.arguments ?? {})) } }) : text;
    const answer = await stream.send(sent, msg.id);
    call.sent = true;
    if (msg.id === undefined) return; // a notification: nothing comes back to compare
    const recorded = answered ? jsonOrUndefined(answered.message.text) : undefined;
    if (method === "tools/list") call.notes.push("tools/list is compared by `gate` and `diff` (schemas), not here");
    else if (answer === undefined) call.differences.push({ severity: "breaking", path: "$", kind: "missing", message: `no answer within ${ctx.timeoutMs} ms` });
    else if (recorded !== undefined) {
      const live = jsonOrUndefined(answer);
      call.differences = judgeMcpAnswer({ method, recorded, live, tolerance: ctx.tolerance });
      const structured = (v: unknown) => (isObject(v) && isObject(v.result) ? v.result.structuredContent : undefined);
      if (structured(recorded) !== undefined && structured(live) !== undefined) ids.learn(structured(recorded), structured(live));
    }
    finish(call, unknown.length > 0);
  };
  const send: { readonly [T in RecordedTransport]: (x: Extract<RecordedExchange<number>, { transport: T }>) => Promise<void> } = {
    cli: async (x) => {
      const event = x.request.event;
      const line = x.request.place;
      const argv = event.argv;
      const tool = argv[0] === "call" ? argv[1] : undefined;
      const call: VerifiedCall = {
        seq: event.seq,
        line,
        transport: "cli",
        label: tool ? `call ${tool}` : argv.join(" ") || "(no argv)",
        ...(tool ? { tool } : {}),
        sent: false,
        readOnly: tool ? (ctx.readOnly.get(tool) ?? false) : true,
        notes: [],
        differences: [],
      };
      if (event.origin === "recorder") call.notes.push("the recorder's own identity check, sent as it was");
      if (!call.readOnly && !ctx.desktop) {
        call.notes.push(`not sent: ${tool} changes the desktop, and without --desktop there is no fresh desktop to replay it on honestly`);
        finish(call);
        return;
      }
      const unknown = ctx.secrets.unknown(argv.join(" ") + eventText(event, "stdin"));
      if (unknown.length) call.notes.push(placeholderNote(unknown));
      const step = () =>
        runCliStep({
          event,
          backend: ctx.backend,
          ids,
          secrets: ctx.secrets,
          work: ctx.work,
          env: ctx.env,
          tolerance: ctx.tolerance,
          timeoutMs: ctx.timeoutMs,
        });
      let result = await step();
      if (tool !== undefined && !call.readOnly) settlingAfter = tool;
      else if (tool !== undefined && settlingAfter !== undefined && !divergence && unknown.length === 0 && parts(result.differences)) {
        // The harness read the desktop while it was still changing after a mutation (a window
        // opening, say) and the live one is slower or faster: a read is safe to send again, so it is,
        // until it answers as recorded or the settling time is up. Not once the flow has parted from
        // the recording (the desktop is then in another state, and no wait brings it back).
        const first = performance.now();
        let reads = 1;
        while (parts(result.differences) && performance.now() - first < (ctx.settleMs ?? SETTLE_MS)) {
          await sleep(SETTLE_STEP_MS);
          result = await step();
          reads++;
        }
        const ms = Math.round(performance.now() - first);
        call.notes.push(
          parts(result.differences)
            ? `read ${reads} times over ${ms} ms after the ${settlingAfter}: the answer still differs`
            : `answered as recorded on read ${reads}, ${ms} ms after the first: the desktop was still settling after the ${settlingAfter}`,
        );
      }
      call.sent = true;
      call.differences = result.differences;
      ctx.update?.cli({ event, result });
      finish(call, unknown.length > 0);
    },
    mcp: (x) => sendMcp(mcpSentOf(x)),
    http: async (x) => {
      finish({
        seq: x.request.event.seq,
        line: x.request.place,
        transport: "http",
        label: "http",
        sent: false,
        readOnly: true,
        differences: [],
        notes: ["not sent: verify replays per-call CLI and MCP stdio traffic; MCP over HTTP is checked by `gate` (schemas) only"],
      });
    },
  };
  for (const item of flow.steps) {
    if (item.type === "exchange") await (send[item.exchange.transport] as (x: RecordedExchange<number>) => Promise<void>)(item.exchange);
    else if (item.type === "sent") await sendMcp(item.line);
    else if (item.event.kind === "mcp_open") {
      const event = item.event;
      streams.set(event.stream, openMcpStreamClient({ backend: ctx.backend, argv: event.argv, cwd: ctx.work, env: ctx.env, timeoutMs: ctx.timeoutMs }));
    } else if (item.event.kind === "mcp_close") {
      const event = item.event;
      const stream = streams.get(event.stream);
      if (stream) {
        await stream.close();
        ctx.update?.mcp({ stream: event.stream, argv: flow.argv(event.stream), live: stream });
        streams.delete(event.stream);
      }
    }
  }
  for (const [id, stream] of streams) {
    await stream.close();
    ctx.update?.mcp({ stream: id, argv: flow.argv(id), live: stream });
  }
  return calls;
}

/** What verify sends, in the recording's order: each exchange (its recorded answer read), each stream's start and end, and the other lines the harness sent. */
type FlowStep =
  | { type: "exchange"; exchange: RecordedExchange<number> }
  | { type: "stream"; event: McpStreamEvent }
  /** A line sent to the driver that is no request (a reply to the driver, a method that is no string): sent as recorded. */
  | { type: "sent"; line: OtherLine<number> };

/** A line the harness sent on an MCP stream, with the recorded answer to it when there is one. */
type McpSent = { event: McpLineEvent; place: number; answered?: { message: RpcMessage } };

function mcpSentOf({ request, answer }: McpExchange<number>): McpSent {
  return { event: request.event, place: request.place, ...(answer ? { answered: answer } : {}) };
}

/** The recording read into the steps verify sends (each with its line in cassette.jsonl), and each MCP stream's argv. */
function readFlow(cassette: Cassette): { steps: FlowStep[]; argv(stream: number): string[] } {
  const steps: FlowStep[] = [];
  const argv = new Map<number, string[]>();
  const reader = createExchangeReader<number>(
    {
      request: (exchange) => steps.push({ type: "exchange", exchange }),
      stream(event) {
        if (event.kind === "mcp_open" && !argv.has(event.stream)) argv.set(event.stream, event.argv);
        steps.push({ type: "stream", event });
      },
      other(line) {
        if (line.event.dir === "c2s" && line.message) steps.push({ type: "sent", line });
      },
    },
    { text: eventText },
  );
  for (const [index, event] of cassette.events.entries()) reader.add(event, cassette.lines[index] ?? 0);
  return { steps, argv: (stream) => argv.get(stream) ?? ["mcp"] };
}

function readOnlyTools(listToolsJson: string): Map<string, boolean> {
  const doc = jsonOrUndefined(listToolsJson);
  const tools = isObject(doc) && Array.isArray(doc.tools) ? doc.tools : [];
  return new Map(tools.filter(isObject).map((t) => [String(t.name), isObject(t.annotations) && t.annotations.readOnlyHint === true]));
}

function stringEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === "string"));
}

function label(dir: string): string {
  const relative = path.relative(process.cwd(), path.resolve(dir));
  return relative.startsWith("..") ? path.resolve(dir) : relative || ".";
}
