import { answering } from "../../test/helpers/answering.js";
import { describe, expect, it } from "vitest";
import { createRedactor } from "#src/cassette/redact.js";
import type { CassetteEventInput } from "#src/cassette/writer.js";
import type { CliRequest, CliResponse } from "#src/shim-server/backend.js";
import { recordCliCall } from "#src/transports/cli/tap.js";
import type { RecordingSink } from "#src/cassette/recording-sink.js";

/** A sink that keeps the events in the order they were appended. */
function memorySink(): RecordingSink & { events: CassetteEventInput[] } {
  const events: CassetteEventInput[] = [];
  return {
    dir: "/nowhere",
    events,
    append: (event) => events.push(event) - 1,
    putFrame: () => {
      throw new Error("no frames here");
    },
    header: () => undefined,
    close: () => {},
  };
}

const request = (argv: string[]): CliRequest => ({ argv, stdin: Buffer.alloc(0), cwd: "/", env: {}, signal: new AbortController().signal });
const response = (stderr: string, exitCode: number): CliResponse => ({ stdout: Buffer.alloc(0), stderr: Buffer.from(stderr), exitCode });

describe("recording overlapping per-call CLI calls", () => {
  it("numbers each call as it starts, so the one written first (it finished first) says it started second", async () => {
    const sink = memorySink();
    const parts = { sink, redactor: createRedactor({ enabled: true }), clock: () => 0 };
    let stopDaemon: (() => void) | undefined;
    const daemon = recordCliCall({
      ...parts,
      request: request(["serve"]),
      live: answering(() => new Promise((resolve) => (stopDaemon = () => resolve({ response: response("", 0), recorded: true })))),
    });
    await recordCliCall({
      ...parts,
      request: request(["serve"]),
      live: answering(async () => ({ response: response("already running\n", 1), recorded: true })),
    });
    stopDaemon!();
    await daemon;
    expect(sink.events.map((e) => [e.kind === "cli" ? e.stderr : "", e.kind === "cli" ? e.start_seq : undefined])).toEqual([
      ["already running\n", 1],
      ["", 0],
    ]);
  });
});
