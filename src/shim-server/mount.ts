import type { StandIn } from "#src/driver/stand-in.js";
import type { CliRequest, CliResponse } from "./backend.js";

/** One per-call invocation as a stand-in answered it: `answered` is false when the driver never ran (`cause` says why). */
export interface CliCall {
  response: CliResponse;
  answered: boolean;
  cause?: Error;
}

/**
 * One `cua-driver …` process of the shim, carried to a per-call stand-in: a connection of one
 * request. A connection closed without an answer (the driver could not be started) is what the
 * process shows: its stderr and exit code, nothing on stdout.
 */
export async function callCli(standIn: StandIn<CliRequest, CliResponse>, request: CliRequest): Promise<CliCall> {
  const connection = standIn.open();
  try {
    const reply = await connection.send(request);
    if (reply.type === "answer") return { response: reply.answer, answered: true };
    if (reply.type === "closed")
      return {
        response: { stdout: Buffer.alloc(0), stderr: Buffer.from(reply.stderr ?? ""), exitCode: reply.code },
        answered: false,
        ...(reply.cause ? { cause: reply.cause } : {}),
      };
    throw new Error(`the CLI stand-in gave ${reply.type} where a process answers`);
  } finally {
    connection.close();
  }
}

/** The shim's per-call side mounted on a stand-in: each invocation in, what the process shows out. */
export function mountCli(standIn: StandIn<CliRequest, CliResponse>): (request: CliRequest) => Promise<CliResponse> {
  return async (request) => (await callCli(standIn, request)).response;
}
