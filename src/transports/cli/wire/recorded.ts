// How a per-call CLI exchange reads from a recording: one `cli` event is both the request (argv,
// stdin) and the answer (stdout, stderr, exit). The exchange reader (src/cassette/exchanges/) keeps
// this entry under "cli" in its record of transports.
import type { CliEvent } from "#src/schema/cassette.js";
import { originOf, type RecordedReading } from "#src/wire/recorded.js";
import { parseDriverArgv } from "./argv.js";

/** The part of a recorded CLI exchange its reading looks at. */
interface CliRecorded {
  request: { event: CliEvent };
}

export const cliRecorded: RecordedReading<CliRecorded, CliEvent> = {
  tool: (x) => parseDriverArgv(x.request.event.argv).tool,
  isCall: (x) => parseDriverArgv(x.request.event.argv).subcommand === "call",
  countedAs(x, origin) {
    if (origin === "recorder") return undefined;
    const p = parseDriverArgv(x.request.event.argv);
    return p.subcommand === "call" ? (p.tool ?? "(call without tool)") : `<${p.subcommand}>`;
  },
  exit: ({ request: { event } }) => (event.signal ? `signal:${event.signal}` : String(event.exit_code)),
  request: ({ request: { event } }) => ({ form: "argv", argv: event.argv, stdin: event.stdin }),
  slim: (e) => ({ kind: "cli", seq: e.seq, t_ms: 0, argv: e.argv, stdout: "", stderr: "", exit_code: 0, duration_ms: 0 }),
  answerIn: (event) => ({
    form: "output",
    stdout: event.stdout,
    stderr: event.stderr,
    exitCode: event.exit_code,
    signal: event.signal,
    origin: originOf(event),
  }),
};
