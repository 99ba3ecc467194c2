import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fallback, perRequestStandIn, tap, type StandIn, type StandInReply } from "#src/driver/stand-in.js";
import { parseDriverArgv } from "#src/transports/cli/wire/argv.js";
import { fromStoredBytes } from "#src/cassette/stored-bytes.js";
import type { CliRequest, CliResponse } from "#src/shim-server/backend.js";
import { mountCli } from "#src/shim-server/mount.js";
import { buildCliEvent } from "#src/transports/cli/recorded-call.js";
import { deliverCliAnswer } from "#src/transports/cli/deliver-cli.js";
import { answerCli, type CliAnswer } from "#src/transports/cli/answer.js";
import type { Decision } from "#src/replay/engine/engine.js";
import { cliRequest, type ReplayRequest } from "#src/replay/engine/request.js";
import { answerStatic } from "#src/transports/cli/replay-backend.js";
import { resultFromCliStdout } from "#src/transports/cli/wire/stdout.js";
import { callOutcome } from "./call-outcome.js";
import type { RecordMissingCore, Step } from "./core.js";
import type { AddedInput } from "./growth.js";
import type { IdTable } from "./id-table.js";
import { liveArgv } from "./live-argv.js";

export interface RecordMissingCli {
  cli(request: CliRequest): Promise<CliResponse>;
  close(): void;
}

/**
 * What the cassette makes of one per-call invocation under record-missing, before it is served:
 * an answer given without the recording (`fixed`), the recorded answer to serve (`recorded`, with
 * the decision, not yet logged), none (`missing`: nothing recorded answers it here, or the run
 * has left the recorded history), or the live driver's answer (`live`, already added).
 */
type Held =
  | { kind: "fixed"; response: CliResponse }
  | {
      kind: "recorded";
      replayRequest: ReplayRequest;
      tMs: number;
      decision: Decision;
      step: Step;
      label: string;
      end: number | undefined;
      answer: CliAnswer & { type: "output" };
    }
  | { kind: "missing"; replayRequest: ReplayRequest; tMs: number; decision?: Decision }
  | { kind: "live"; response: CliResponse };

/** The harness's invocation as the live driver is asked it: its ids translated, with a private screenshot file. */
interface Asked {
  harness: CliRequest;
  held: Held;
  live: CliRequest;
  outFile?: string;
  /** Set by the growth sink: the live answer is the harness's (and was added to the cassette). */
  kept?: boolean;
}

/** The live driver's answer, how long it took and the screenshot it wrote. */
interface Got {
  response: CliResponse;
  durationMs: number;
  file?: Buffer;
}

/**
 * Per-call CLI under `replay --record-missing` (docs/decisions/0170, 0270): the cassette with the
 * live driver as its fallback, `fallback(replay, tap(live, growth))`. Every call the harness makes
 * goes to the live driver too, its ids translated into the live run's (so the live desktop goes
 * through the flow the cassette describes, mutations included). A call the cassette answers gets
 * the recorded bytes, and the pair of answers teaches the id table; a call it lacks gets the live
 * answer translated into the recorded ids, and that answer is added where it happened. A mutation
 * the cassette lacks, or one the live driver answers otherwise than recorded, starts another
 * history: from then on every call is answered live and added after it.
 */
export function createRecordMissingCli(core: RecordMissingCore): RecordMissingCli {
  const { table } = core;
  const scratch = mkdtempSync(path.join(os.tmpdir(), "cua-contract-record-missing-"));
  let calls = 0;
  const standIn = fallback<CliRequest, Held, Asked, Got>(replayForGrowth(core), tap(liveCli(core), growthSink(core)), {
    whenUnanswered: (reply) => held(reply).kind === "missing",
    alsoAsk: (reply) => {
      const h = held(reply);
      return h.kind === "recorded" && h.replayRequest.method === "call" && h.step !== "local";
    },
    toSecondary(request, reply) {
      const parsed = parseDriverArgv(request.argv);
      const call = parsed.subcommand === "call";
      const outFile = typeof parsed.flags.get("--screenshot-out-file") === "string" ? path.join(scratch, `shot-${calls++}`) : undefined;
      const argv = call ? liveArgv({ argv: request.argv, json: table.toLive, ...(outFile ? { outFile } : {}) }) : request.argv;
      const stdin = call && parsed.json === undefined ? Buffer.from(table.toLive(request.stdin.toString("utf8"))) : request.stdin;
      return { harness: request, held: held(reply), live: { ...request, argv, stdin }, ...(outFile ? { outFile } : {}) };
    },
    async fromSecondary(reply, o) {
      if (reply.type !== "answer" || !o.asked.kept) return o.primary;
      return { type: "answer", answer: { kind: "live", response: await liveResponse(o.request, reply.answer, table) } };
    },
  });
  const serve = mountCli(settled(standIn, core));
  return {
    cli: (request) => core.serialize(() => serve(request)),
    close: () => rmSync(scratch, { recursive: true, force: true }),
  };
}

const held = (reply: StandInReply<Held>): Held => {
  if (reply.type !== "answer") throw new Error(`the record-missing replay gave ${reply.type} where it answers`);
  return reply.answer;
};

/**
 * The replay's side: the decision for one invocation (logged once it is served), the static
 * answers of the binary, and what the cassette lacks in this epoch. A mutation it lacks starts
 * another history.
 */
function replayForGrowth(core: RecordMissingCore): StandIn<CliRequest, Held> {
  const { session, redactor, counts } = core;
  return perRequestStandIn("cli", async (request) => {
    const answer = (h: Held): StandInReply<Held> => ({ type: "answer", answer: h });
    const stdinText = request.stdin.toString("utf8");
    const replayRequest = cliRequest({ argv: request.argv, stdin: stdinText, env: request.env });
    const tMs = session.t();
    // what the harness types is learned as it goes, so later answers added from the live driver are redacted too
    if (replayRequest.method === "call") redactor.learnFromCall(replayRequest.tool, parseDriverArgv(request.argv).json ?? stdinText);
    const fixed = await answerStatic({ session, request: replayRequest, env: request.env, tMs });
    if (fixed) {
      counts.served++;
      return answer({ kind: "fixed", response: fixed });
    }
    const decided = core.decide(replayRequest);
    if (decided.step === "missing") return answer({ kind: "missing", replayRequest, tMs, ...(decided.decision ? { decision: decided.decision } : {}) });
    const { decision, step, label, end } = decided;
    const rendered = answerCli({ decision, ...(session.frame ? { frame: session.frame } : {}) });
    if (rendered.type !== "output") throw new Error("record-missing serves no faults");
    return answer({ kind: "recorded", replayRequest, tMs, decision, step, label, end, answer: rendered });
  });
}

/** The live driver, asked per call: the answer, how long it took, and the private screenshot it wrote (read and removed). */
function liveCli(core: RecordMissingCore): StandIn<Asked, Got> {
  return perRequestStandIn("cli", async (request) => {
    core.counts.forwarded++;
    const started = performance.now();
    const response = await core.live.cli(request.live);
    const durationMs = performance.now() - started;
    let file: Buffer | undefined;
    if (request.outFile) {
      try {
        file = readFileSync(request.outFile);
      } catch {
        file = undefined;
      }
      rmSync(request.outFile, { force: true });
    }
    return { type: "answer", answer: { response, durationMs, ...(file ? { file } : {}) } };
  });
}

/**
 * What the live answers teach and grow: a recorded answer's pair teaches the id table and, for a
 * mutation, is compared (a difference that starts another history keeps the live answer); a live
 * answer the harness gets is added to the cassette where the run is, and the replay's own model of
 * the driver (snapshots served, tokens honoured) sees it too, as a plain replay will.
 */
function growthSink(core: RecordMissingCore) {
  const { session, table, growth, redactor, counts } = core;
  return (asked: Asked) => (reply: StandInReply<Got>) => {
    if (reply.type !== "answer") return;
    const sent = reply.answer;
    const h = asked.held;
    if (h.kind === "recorded") {
      const recordedStdout = fromStoredBytes(h.answer.stdout).toString("utf8");
      const liveStdout = sent.response.stdout.toString("utf8");
      if (h.step === "recorded") core.learn(h.label, recordedStdout, liveStdout);
      if (h.decision.kind !== "mutation") return;
      const recorded = callOutcome({ stdout: recordedStdout, exitCode: h.answer.exitCode });
      const live = callOutcome({ stdout: liveStdout, exitCode: sent.response.exitCode });
      if (core.compare({ decision: h.decision, step: h.step, label: h.label, recorded, live, end: h.end }) !== "diverge") return;
    } else if (h.kind !== "missing") return;
    asked.kept = true;
    const request = asked.harness;
    const stdout = recordedBytes(sent.response.stdout, table);
    const stderr = recordedBytes(sent.response.stderr, table);
    const given = parseDriverArgv(request.argv).flags.get("--screenshot-out-file");
    const files: Record<string, { bytes: Buffer; path: string }> =
      typeof given === "string" && sent.file ? { "--screenshot-out-file": { bytes: sent.file, path: given } } : {};
    const event = buildCliEvent({
      call: {
        argv: request.argv,
        stdin: request.stdin,
        stdout,
        stderr,
        exitCode: sent.response.exitCode,
        ...(sent.response.signal ? { signal: sent.response.signal } : {}),
        t_ms: 0,
        duration_ms: sent.durationMs,
        files,
        origin: "harness",
      },
      redactor,
      putFrame: core.putFrame,
    });
    const { t_ms: _t, ...placed } = event;
    growth.add([{ ...placed, added: core.added } as AddedInput]);
    counts.added++;
    if (h.decision) {
      const { miss: _miss, ...decision } = h.decision;
      const served = h.replayRequest.method === "call" ? resultFromCliStdout({ stdout: stdout.toString("utf8"), tool: h.replayRequest.tool ?? "" }) : undefined;
      session.record({ ...decision, outcome: "replayed" }, { tMs: h.tMs, ...(served !== undefined ? { served } : {}), exitCode: sent.response.exitCode });
    }
  };
}

/** The live answer as the harness gets it: in the recorded ids, its screenshot written where the harness asked. */
async function liveResponse(request: CliRequest, sent: Got, table: IdTable): Promise<CliResponse> {
  const stdout = recordedBytes(sent.response.stdout, table);
  let stderr = recordedBytes(sent.response.stderr, table);
  const given = parseDriverArgv(request.argv).flags.get("--screenshot-out-file");
  if (typeof given === "string" && sent.file) {
    try {
      await writeFile(path.resolve(request.cwd || process.cwd(), given), sent.file);
    } catch (error) {
      stderr = Buffer.concat([stderr, Buffer.from(`failed to write screenshot to ${given}: ${(error as Error).message}\n`)]);
    }
  }
  return { stdout, stderr, exitCode: sent.response.exitCode, ...(sent.response.signal ? { signal: sent.response.signal } : {}) };
}

/** What the harness's process shows: a recorded answer is served (and logged) now, a fixed or live one as it is. */
function settled(standIn: StandIn<CliRequest, Held>, core: RecordMissingCore): StandIn<CliRequest, CliResponse> {
  const { session, counts } = core;
  return perRequestStandIn("cli", async (request) => {
    const connection = standIn.open();
    let h: Held;
    try {
      h = held(await connection.send(request));
    } finally {
      connection.close();
    }
    if (h.kind === "fixed" || h.kind === "live") return { type: "answer", answer: h.response };
    if (h.kind === "missing") throw new Error("record-missing left a call unanswered");
    const delivered = await deliverCliAnswer({ answer: h.answer, request, clock: session.clock });
    session.record(h.decision, {
      tMs: h.tMs,
      ...(h.answer.served !== undefined ? { served: h.answer.served } : {}),
      ...(delivered.exitCode !== undefined ? { exitCode: delivered.exitCode } : {}),
    });
    counts.served++;
    core.served(h.decision.exchange, h.decision.epochBefore);
    return { type: "answer", answer: delivered.response };
  });
}

/** Live bytes in the recorded ids (text only: bytes that are not UTF-8 are kept as they are). */
function recordedBytes(bytes: Buffer, table: IdTable): Buffer {
  const text = bytes.toString("utf8");
  if (!Buffer.from(text, "utf8").equals(bytes)) return bytes;
  return Buffer.from(table.toRecorded(text));
}
