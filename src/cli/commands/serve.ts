import { openObservationFile, type ObservationFile } from "#src/replay/observation-file.js";
import { UserError } from "#src/errors.js";
import { createReplayBackend, replayMcpSession } from "#src/transports/cli/replay-backend.js";
import { runInvariants } from "#src/invariants/run.js";
import { openReplaySession } from "#src/transports/run-replay.js";
import { knownToolsOptions } from "#src/replay/engine/known-tools.js";
import type { ReplaySession } from "#src/replay/session.js";
import { startMcpHttpServer } from "#src/transports/http/server.js";
import { profileNames } from "#src/faults/profiles.js";
import { defineCommand } from "#src/cli/command.js";
import { httpSettings, serveMcpStdio, serveShim, SERVE_TRANSPORTS, untilSignal, type ServeTransport } from "./serve-io.js";

/**
 * How a replay session is mounted on each of serve's transports, keyed by its name (a transport
 * added to SERVE_TRANSPORTS fails the type-check here until it has its mount): its settings are
 * checked first, before the session opens, and give the mount.
 */
const MOUNT: { readonly [T in ServeTransport]: (port: unknown) => (session: ReplaySession) => Promise<number> } = {
  mcp: () => (session) => serveMcpStdio((io) => replayMcpSession(session, io)),
  "cli-socket": () => (session) => serveShim(createReplayBackend({ session })),
  http(port) {
    const settings = httpSettings(port);
    return (session) => serveHttp(session, settings);
  },
};

export const serveCommand = defineCommand({
  command: "serve [dir]",
  describe: "Serve a cassette as a cua-driver stand-in: MCP on stdio, a cua-driver shim socket, or MCP over HTTP",
  builder: (y) =>
    y
      .usage(
        "$0 serve DIR --transport mcp|cli-socket|http [--port N] [--faults PLAN.json] [--seed N] [--match …] [--ignore PATH…] [--log FILE] [--speed fast|recorded]",
      )
      .positional("dir", { type: "string", describe: "Cassette directory (holds cassette.jsonl)" })
      .option("driver", { type: "string", describe: "Instead of a cassette, answer live from the published runtime: sdk or sdk:VERSION (any transport)" })
      .option("transport", { type: "string", choices: SERVE_TRANSPORTS, demandOption: true, describe: "How harnesses reach the stand-in" })
      .option("port", { type: "number", describe: "HTTP port (default: CUA_DRIVER_RS_MCP_HTTP_PORT; 0 picks a free one)" })
      .option("faults", {
        type: "string",
        describe: `Fault plan (JSON, docs/faults.md), or profile:NAME, a named profile of field failures: ${profileNames()}`,
      })
      .option("seed", { type: "number", describe: "Seed for the fault plan's random rules" })
      .option("match", {
        type: "string",
        choices: ["per-key", "strict-order"] as const,
        default: "per-key" as const,
        describe: "How requests are matched to recorded ones (docs/matching.md)",
      })
      .option("ignore", { type: "string", array: true, describe: "Argument JSON path ignored when matching (repeatable)" })
      .option("log", { type: "string", describe: "Write the replay log (JSONL) here" })
      .option("observe", {
        type: "string",
        describe: "Read the looks harnesses declare from this file (one line each; give it to them as CUA_CONTRACT_OBSERVE)",
      })
      .option("speed", {
        type: "string",
        choices: ["fast", "recorded"] as const,
        default: "fast" as const,
        describe: "fast: answer at once; recorded: each answer takes as long as the recorded call did",
      }),
  handler: async (args) => {
    const transport = args.transport;
    // The published runtime (and what runs it) loads only when serving from it.
    if (args.driver !== undefined) return await (await import("./serve-sdk.js")).serveSdk({ driver: String(args.driver), transport, port: args.port });
    if (args.dir === undefined)
      throw new UserError("no cassette to serve", {
        code: "USAGE",
        field: "dir",
        fix: "Run `cua-contract serve DIR --transport …`, or serve the runtime live with --driver sdk.",
      });
    // Settings are checked before the session opens, so bad input prints no replay summary.
    const mount = MOUNT[transport](args.port);
    const notices = (message: string) => process.stderr.write(`cua-contract serve: UNMATCHED: ${message}\n`);
    using observations = args.observe !== undefined ? openObservationFileFor(String(args.observe)) : undefined;
    const opened = openReplaySession({
      ...(observations ? { observations } : {}),
      dir: String(args.dir),
      ...(args.faults !== undefined ? { faultsFile: String(args.faults) } : {}),
      ...(args.seed !== undefined ? { seed: Number(args.seed) } : {}),
      match: args.match,
      ignore: (args.ignore ?? []).map(String),
      ...(args.log !== undefined ? { logFile: String(args.log) } : {}),
      speed: args.speed,
      onNotice: notices,
      onNote: (message) => process.stderr.write(`cua-contract serve: note: ${message}\n`),
    });
    let code = 0;
    try {
      code = await mount(opened.session);
    } finally {
      const s = opened.session.finish();
      process.stderr.write(
        `cua-contract serve: served ${s.served}, unmatched ${s.unmatched}, faults injected ${s.faults}, synthesized ${s.synthesized ?? 0}, unanswered ${s.unanswered ?? 0}, unused recorded mutations ${s.unused.length}\n`,
      );
      // every harness that reached the stand-in is judged as `replay` judges it
      const report = runInvariants(opened.session.entries(), { options: knownToolsOptions(opened.knownTools) });
      for (const r of report.results) for (const v of r.violations) process.stderr.write(`  violation ${v.invariant}: ${v.message}\n`);
      if (code === 0 && (!report.passed || s.unmatched > 0)) code = 1;
      opened.close();
    }
    return code;
  },
});

async function serveHttp(session: ReplaySession, { port, token }: { port: number; token: string }): Promise<number> {
  const server = await startMcpHttpServer({ session, port, token });
  process.stderr.write(`cua-contract serve: MCP over HTTP listening on ${server.url}\n`);
  await untilSignal();
  await server.close();
  return 0;
}

/** `--observe FILE`, or exit 2 naming it when it cannot be opened for reading and appending. */
function openObservationFileFor(file: string): ObservationFile {
  try {
    return openObservationFile(file);
  } catch (error) {
    throw new UserError(`cannot open the observation file (${(error as NodeJS.ErrnoException).code ?? "error"})`, {
      code: "USAGE",
      field: "--observe",
      file,
      fix: "Pass a path in a folder you can write to; the file is created 0600 when missing.",
    });
  }
}
