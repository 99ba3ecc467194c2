import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseDriverArgv } from "#src/transports/cli/wire/argv.js";
import { fromStoredBytes } from "#src/cassette/stored-bytes.js";
import type { CliRequest, CliResponse } from "#src/shim-server/backend.js";
import { buildCliEvent } from "#src/transports/cli/recorded-call.js";
import { deliverCliAnswer } from "#src/transports/cli/deliver-cli.js";
import { answerCli } from "#src/transports/cli/answer.js";
import type { Decision } from "#src/replay/engine/engine.js";
import { cliRequest, type ReplayRequest } from "#src/replay/engine/request.js";
import { answerStatic } from "#src/transports/cli/replay-backend.js";
import { resultFromCliStdout } from "#src/transports/cli/wire/stdout.js";
import { callOutcome } from "./call-outcome.js";
import { classify, endsItsEpoch, type RecordMissingCore } from "./core.js";
import type { AddedInput } from "./growth.js";
import type { IdTable } from "./id-table.js";
import { liveArgv } from "./live-argv.js";

export interface RecordMissingCli {
  cli(request: CliRequest): Promise<CliResponse>;
  close(): void;
}

/**
 * Per-call CLI under `replay --record-missing` (docs/decisions/0170). Every call the harness makes
 * goes to the live driver too, its ids translated into the live run's (so the live desktop goes
 * through the flow the cassette describes, mutations included). A call the cassette answers gets
 * the recorded bytes, and the pair of answers teaches the id table; a call it lacks gets the live
 * answer translated into the recorded ids, and that answer is added where it happened. A mutation
 * the cassette lacks, or one the live driver answers otherwise than recorded, starts another
 * history: from then on every call is answered live and added after it.
 */
export function createRecordMissingCli(core: RecordMissingCore): RecordMissingCli {
  const { session, table, growth, redactor, counts } = core;
  const scratch = mkdtempSync(path.join(os.tmpdir(), "cua-contract-record-missing-"));
  let calls = 0;

  /** Sends the harness's call to the live driver, its ids translated, with a private screenshot file. */
  const sendLive = async (request: CliRequest) => {
    const parsed = parseDriverArgv(request.argv);
    const call = parsed.subcommand === "call";
    const outFile = typeof parsed.flags.get("--screenshot-out-file") === "string" ? path.join(scratch, `shot-${calls++}`) : undefined;
    const argv = call ? liveArgv({ argv: request.argv, json: table.toLive, ...(outFile ? { outFile } : {}) }) : request.argv;
    const stdin = call && parsed.json === undefined ? Buffer.from(table.toLive(request.stdin.toString("utf8"))) : request.stdin;
    counts.forwarded++;
    const started = performance.now();
    const response = await core.live.cli({ ...request, argv, stdin });
    const durationMs = performance.now() - started;
    let file: Buffer | undefined;
    if (outFile) {
      try {
        file = readFileSync(outFile);
      } catch {
        file = undefined;
      }
      rmSync(outFile, { force: true });
    }
    return { response, durationMs, file };
  };

  /** Answers with a live answer in the recorded ids and adds it to the cassette where the run is. */
  const addLive = async (o: {
    request: CliRequest;
    replayRequest: ReplayRequest;
    sent: Awaited<ReturnType<typeof sendLive>>;
    decision?: Decision;
    tMs: number;
  }) => {
    const { request, sent } = o;
    const stdout = recordedBytes(sent.response.stdout, table);
    const stderr = recordedBytes(sent.response.stderr, table);
    const given = parseDriverArgv(request.argv).flags.get("--screenshot-out-file");
    const files: Record<string, { bytes: Buffer; path: string }> = {};
    let stderrOut = stderr;
    if (typeof given === "string" && sent.file) {
      files["--screenshot-out-file"] = { bytes: sent.file, path: given };
      try {
        await writeFile(path.resolve(request.cwd || process.cwd(), given), sent.file);
      } catch (error) {
        stderrOut = Buffer.concat([stderr, Buffer.from(`failed to write screenshot to ${given}: ${(error as Error).message}\n`)]);
      }
    }
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
    if (o.decision) {
      // the replay's own model of the driver (snapshots served, tokens honoured) sees this answer too, as a plain replay will
      const { miss: _miss, ...decision } = o.decision;
      const served = o.replayRequest.method === "call" ? resultFromCliStdout({ stdout: stdout.toString("utf8"), tool: o.replayRequest.tool ?? "" }) : undefined;
      session.record({ ...decision, outcome: "replayed" }, { tMs: o.tMs, ...(served !== undefined ? { served } : {}), exitCode: sent.response.exitCode });
    }
    return {
      stdout,
      stderr: stderrOut,
      exitCode: sent.response.exitCode,
      ...(sent.response.signal ? { signal: sent.response.signal } : {}),
    } satisfies CliResponse;
  };

  const handle = async (request: CliRequest): Promise<CliResponse> => {
    const stdinText = request.stdin.toString("utf8");
    const replayRequest = cliRequest({ argv: request.argv, stdin: stdinText, env: request.env });
    const isCall = replayRequest.method === "call";
    const tMs = session.t();
    // what the harness types is learned as it goes, so later answers added from the live driver are redacted too
    if (isCall) redactor.learnFromCall(replayRequest.tool, parseDriverArgv(request.argv).json ?? stdinText);
    const fixed = await answerStatic({ session, request: replayRequest, env: request.env, tMs });
    if (fixed) {
      counts.served++;
      return fixed;
    }
    if (growth.diverged) return addLive({ request, replayRequest, sent: await sendLive(request), tMs });

    const end = core.epochEnd(session.engine.epoch);
    const decision = session.decide(replayRequest);
    const step = classify(decision);
    const label = `#${decision.n} ${replayRequest.tool ?? replayRequest.method}`;
    if (step === "missing") {
      if (endsItsEpoch(decision)) core.diverge(decision.n, `${label} is a mutation the cassette does not have here`, end);
      return addLive({ request, replayRequest, sent: await sendLive(request), decision, tMs });
    }
    const answer = answerCli({ decision, ...(session.frame ? { frame: session.frame } : {}) });
    if (answer.type !== "output") throw new Error("record-missing serves no faults");
    const sent = isCall && step !== "local" ? await sendLive(request) : undefined;
    if (sent) {
      const recordedStdout = fromStoredBytes(answer.stdout).toString("utf8");
      const liveStdout = sent.response.stdout.toString("utf8");
      if (step === "recorded") core.learn(label, recordedStdout, liveStdout);
      if (decision.kind === "mutation") {
        const recorded = callOutcome({ stdout: recordedStdout, exitCode: answer.exitCode });
        const live = callOutcome({ stdout: liveStdout, exitCode: sent.response.exitCode });
        if (core.compare({ decision, step, label, recorded, live, end }) === "diverge") return addLive({ request, replayRequest, sent, decision, tMs });
      }
    }
    const delivered = await deliverCliAnswer({ answer, request, clock: session.clock });
    session.record(decision, {
      tMs,
      ...(answer.served !== undefined ? { served: answer.served } : {}),
      ...(delivered.exitCode !== undefined ? { exitCode: delivered.exitCode } : {}),
    });
    counts.served++;
    core.served(decision.exchange, decision.epochBefore);
    return delivered.response;
  };

  return {
    cli: (request) => core.serialize(() => handle(request)),
    close: () => rmSync(scratch, { recursive: true, force: true }),
  };
}

/** Live bytes in the recorded ids (text only: bytes that are not UTF-8 are kept as they are). */
function recordedBytes(bytes: Buffer, table: IdTable): Buffer {
  const text = bytes.toString("utf8");
  if (!Buffer.from(text, "utf8").equals(bytes)) return bytes;
  return Buffer.from(table.toRecorded(text));
}
