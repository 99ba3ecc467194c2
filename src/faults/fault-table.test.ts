import path from "node:path";
import { describe, expect, it } from "vitest";
import { FAULT_SAMPLE } from "../../test/helpers/fault-samples.js";
import { repoRoot } from "../../test/helpers/run-cli.js";
import { isTransportFailure } from "#src/driver/port.js";
import { answerCli } from "#src/transports/cli/answer.js";
import { answerInprocess } from "#src/replay/engine/answer-inprocess.js";
import { cliRequest, mcpRequest, type ReplayRequest } from "#src/replay/engine/request.js";
import type { Decision } from "#src/replay/engine/engine.js";
import { loadReplayCassette } from "#src/replay/load.js";
import { createReplaySession, type ReplaySession } from "#src/replay/session.js";
import { createVirtualClock } from "#src/driver/clock-virtual.js";
import { FaultKindSchema, FaultSchema, type Fault, type FaultKind } from "#src/schema/fault-plan.js";
import { AppliedFaultSchema, type ReplayTransport } from "#src/schema/replay-log.js";
import { answerMcpCall } from "#src/transports/mcp/answer.js";
import { assertNever } from "#src/util/assert-never.js";
import {
  EFFECT_FAULTS,
  FAULT_KINDS,
  FAULT_TABLE,
  isResultFault,
  RESULT_FAULTS,
  TIMEOUT_FAULTS,
  TRANSPORT_FAULTS,
  UNKNOWN_OUTCOME_FAULTS,
} from "./fault-table.js";

// ---- type level: checked by `npm run typecheck`, which fails if an expected error goes away ----

/** One fault of each kind; a mapped type, so a kind added to the schema fails here too. */
const SAMPLE = FAULT_SAMPLE;

// @ts-expect-error a per-kind Record that leaves out a kind (refusal) does not type-check
const missingKind: Record<FaultKind, string> = {
  hang: "",
  delay: "",
  timeout_after_effect: "",
  timeout_before_effect: "",
  daemon_down: "",
  daemon_died_midcall: "",
  exit: "",
  truncated: "",
  corrupt_image: "",
  empty: "",
};

/** A switch that forgets a kind does not type-check: the kind reaches `assertNever`. */
function forgetsRefusal(fault: Fault): string {
  switch (fault.kind) {
    case "hang":
    case "delay":
    case "timeout_after_effect":
    case "timeout_before_effect":
    case "daemon_down":
    case "daemon_died_midcall":
    case "exit":
    case "truncated":
    case "corrupt_image":
    case "empty":
      return fault.kind;
    default:
      // @ts-expect-error refusal is not handled, so `fault` is not `never` here
      return assertNever(fault, "fault kind");
  }
}

// @ts-expect-error FaultKind is the union of the schema's kinds, not any string
const notAKind: FaultKind = "explode";

describe("the fault table", () => {
  it("has one row per schema variant, in the schema's order, and the log's enum is the same", () => {
    const variants = FaultSchema.options.map((variant) => variant.shape.kind.value);
    expect(FAULT_KINDS).toEqual(variants);
    expect(Object.keys(FAULT_TABLE)).toEqual(variants);
    expect(Object.keys(SAMPLE)).toEqual(variants);
    expect(AppliedFaultSchema.shape.kind.options).toEqual(variants);
    expect(FaultKindSchema.options).toHaveLength(17);
    for (const kind of FAULT_KINDS) expect(FaultSchema.parse(SAMPLE[kind])).toEqual(SAMPLE[kind]);
  });

  it("the derived lists are the table's columns", () => {
    const column = (trait: keyof (typeof FAULT_TABLE)["hang"]) => FAULT_KINDS.filter((kind) => FAULT_TABLE[kind][trait]);
    expect([...EFFECT_FAULTS]).toEqual(["delay", "timeout_after_effect", "truncated", "corrupt_image", "empty", "stall", "oversized"]);
    expect(UNKNOWN_OUTCOME_FAULTS).toEqual(["hang", "timeout_after_effect", "timeout_before_effect", "daemon_died_midcall", "truncated", "freeze"]);
    expect([...TRANSPORT_FAULTS]).toEqual([
      "hang",
      "timeout_after_effect",
      "timeout_before_effect",
      "daemon_down",
      "daemon_died_midcall",
      "exit",
      "truncated",
      "freeze",
      "protocol_error",
    ]);
    expect([...TIMEOUT_FAULTS]).toEqual(column("timesOut"));
    expect([...RESULT_FAULTS]).toEqual(["corrupt_image", "empty", "refusal", "oversized", "session_expired"]);
    expect(FAULT_KINDS.filter((kind) => isResultFault(SAMPLE[kind]))).toEqual([...RESULT_FAULTS]);
  });

  it("the traits are consistent: no answer means a broken transport and an unknown outcome; a result fault leaves the transport whole", () => {
    for (const kind of FAULT_KINDS) {
      const t = FAULT_TABLE[kind];
      if (t.timesOut) expect({ kind, ...t }).toMatchObject({ breaksTransport: true, unknownOutcome: true });
      if (t.changesResult) expect({ kind, ...t }).toMatchObject({ breaksTransport: false, unknownOutcome: false });
    }
  });

  it("the type-level cases above are real values (they exist only to be type-checked)", () => {
    expect(Object.keys(missingKind)).toHaveLength(10);
    expect(forgetsRefusal({ kind: "hang" })).toBe("hang");
    expect(() => forgetsRefusal({ kind: "refusal", code: "x" })).toThrow(/unhandled fault kind: \{"kind":"refusal","code":"x"\}/);
    expect(FaultKindSchema.safeParse(notAKind).success).toBe(false);
  });
});

// ---- run time: every kind has its own rendering on every transport ----

const cassette = loadReplayCassette(path.join(repoRoot, "test/fixtures/cassettes/replay-mcp-gtk"));
const READ = { tool: "get_window_state", args: { pid: 24132, window_id: 4194311, max_elements: 40 } };
const MUTATION = { tool: "click", args: { pid: 24132, window_id: 4194311, element_token: "s00000004:15" } };
type Call = { tool: string; args: Record<string, unknown> };

/**
 * How each transport of the replay log puts a call to the replay and renders the decision: a
 * transport without its row (its request, its rendering of every fault kind) fails the type-check.
 */
const RENDER: Record<ReplayTransport, { request(call: Call): ReplayRequest; answer(decision: Decision, session: ReplaySession): Served }> = {
  cli: {
    request: (call) => cliRequest({ argv: ["call", call.tool, JSON.stringify(call.args)], env: { HOME: "/home/u" } }),
    answer: (decision, session) => answerCli({ decision, ...(session.frame ? { frame: session.frame } : {}) }),
  },
  mcp: { request: (call) => mcpCall(call, "mcp"), answer: (decision) => answerMcpCall({ decision, idRaw: "7", transport: "mcp" }) },
  http: { request: (call) => mcpCall(call, "http"), answer: (decision) => answerMcpCall({ decision, idRaw: "7", transport: "http" }) },
  inprocess: {
    request: (call) => ({ transport: "inprocess", method: "call", tool: call.tool, args: call.args }),
    answer: (decision) => answerInprocess(decision),
  },
};
const TRANSPORTS = Object.keys(RENDER) as ReplayTransport[];
type Served = ReturnType<typeof answerCli> | ReturnType<typeof answerMcpCall> | ReturnType<typeof answerInprocess>;

function mcpCall(call: Call, transport: "mcp" | "http"): ReplayRequest {
  return mcpRequest({ message: { idRaw: "7", method: "tools/call", params: { name: call.tool, arguments: call.args } }, transport });
}

/** What the harness is served for one call on one transport, and how the replay's epoch moved. */
function serve(transport: ReplayTransport, call: Call, fault?: Fault) {
  const session = createReplaySession({
    cassette,
    clock: createVirtualClock(),
    // a named session (session_expired over the CLI) is served the recorded answers of the implicit one
    ignore: ["session"],
    ...(fault ? { faults: { rules: [{ match: { tool: call.tool }, fault }] } } : {}),
  });
  const decision = session.decide(RENDER[transport].request(call));
  const answer = RENDER[transport].answer(decision, session);
  const entry = session.record(decision, { tMs: 0, ...("served" in answer && answer.served !== undefined ? { served: answer.served } : {}) });
  return { answer, entry, moved: entry.epoch_after !== entry.epoch_before };
}

describe("every fault kind renders on every transport", () => {
  for (const transport of TRANSPORTS) {
    // the read has a screenshot and elements, so every kind (a corrupt image, an empty result) changes it
    it(`${transport}: each kind is served as itself, never as the normal answer`, () => {
      const normalRead = JSON.stringify(serve(transport, READ).answer);
      const behaviour = new Map<FaultKind, string>();
      const normalMutation = JSON.stringify(serve(transport, MUTATION).answer);
      for (const kind of FAULT_KINDS) {
        // per-call CLI runs each call in a fresh implicit session: only a named one can expire
        const named = kind === "session_expired" && transport === "cli";
        const read = serve(transport, named ? { ...READ, args: { ...READ.args, session: "agent-1" } } : READ, SAMPLE[kind]);
        const mutation = serve(transport, named ? { ...MUTATION, args: { ...MUTATION.args, session: "agent-1" } } : MUTATION, SAMPLE[kind]);
        if (kind === "no_effect") {
          // a mutation's fault: a read is not matched; the mutation is answered exactly as delivered, and the epoch stays
          expect(read.entry.outcome).toBe("replayed");
          expect(mutation.entry.fault?.kind).toBe("no_effect");
          expect(JSON.stringify(mutation.answer)).toBe(normalMutation);
          expect(mutation.moved).toBe(false);
          behaviour.set(kind, JSON.stringify([read.answer, mutation.answer, mutation.moved]));
          continue;
        }
        expect(read.entry.outcome, kind).toBe("faulted");
        expect(read.entry.fault?.kind, kind).toBe(kind);
        expect(JSON.stringify(read.answer), `${kind} on a read`).not.toBe(normalRead);
        // the table's columns, as the transport shows them
        expect(mutation.moved, `${kind} moves the epoch`).toBe(FAULT_TABLE[kind].takesEffect);
        expect(read.answer.type === "hang", `${kind} answers nothing`).toBe(FAULT_TABLE[kind].timesOut);
        behaviour.set(kind, JSON.stringify([read.answer, mutation.answer, mutation.moved]));
      }
      // kinds that look the same to the harness on this transport: only those docs/faults.md names
      const alike = FAULT_KINDS.flatMap((a, i) =>
        FAULT_KINDS.slice(i + 1)
          .filter((b) => behaviour.get(a) === behaviour.get(b))
          .map((b) => `${a} = ${b}`),
      );
      // "like hang", and the epoch stays; a freeze's first call is a hang (what differs is every call after it)
      const expected = ["hang = timeout_before_effect", "hang = freeze", "timeout_before_effect = freeze"];
      // HTTP: a daemon death (direct mode) and a driver exit both close the connection without a response
      if (transport === "http") expected.push("daemon_died_midcall = exit");
      expect(alike).toEqual(expected);
    });
  }

  it("in process, a transport fault is a TransportFailure or no answer; every other kind is a tool result", () => {
    for (const kind of FAULT_KINDS) {
      const { answer } = serve("inprocess", READ, SAMPLE[kind]);
      if (answer.type !== "hang" && answer.type !== "reply") throw new Error(`unexpected in-process answer ${answer.type}`);
      const broken = answer.type === "hang" || isTransportFailure(answer.reply);
      expect(broken, kind).toBe(FAULT_TABLE[kind].breaksTransport);
    }
  });
});
