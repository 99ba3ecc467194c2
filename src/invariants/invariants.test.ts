import { InvariantIdSchema } from "#src/schema/scenario.js";
import { describe, expect, it } from "vitest";
import { ReplayLogEntrySchema, type FaultKind, type ReplayLogEntry, type RequestEntry } from "#src/schema/replay-log.js";
import { INVARIANTS } from "./registry.js";
import { runInvariants } from "./run.js";
import type { InvariantId } from "./types.js";

/** A tiny replay-log builder: each call appends one request; faults and results as given. */
function log() {
  const entries: ReplayLogEntry[] = [];
  let n = 0;
  const api = {
    req(
      tool: string,
      args: Record<string, unknown> = {},
      more: { kind?: RequestEntry["kind"]; fault?: FaultKind; code?: string; result?: RequestEntry["result"]; stream?: number } = {},
    ) {
      const kind = more.kind ?? (/^(get_|list_|zoom|verify_)/.test(tool) ? "read" : "mutation");
      entries.push({
        type: "request",
        n: n++,
        t_ms: n * 10,
        transport: "inprocess",
        method: "tools/call",
        tool,
        args,
        kind,
        epoch_before: 0,
        epoch_after: 0,
        outcome: more.fault ? "faulted" : "replayed",
        ...(more.stream !== undefined ? { stream: more.stream } : {}),
        ...(more.fault ? { fault: { kind: more.fault, rule: 0, ...(more.code ? { params: { code: more.code } } : {}) } } : {}),
        ...(more.result ? { result: more.result } : {}),
      });
      return api;
    },
    mark(label: string) {
      entries.push({ type: "mark", t_ms: n * 10, label });
      return api;
    },
    open(stream: number) {
      entries.push({ type: "stream", event: "open", t_ms: n * 10, transport: "mcp", stream });
      return api;
    },
    entries,
  };
  return api;
}

function violations(id: InvariantId, entries: ReplayLogEntry[], options = {}) {
  for (const e of entries) ReplayLogEntrySchema.parse(e);
  const report = runInvariants(entries, { only: [id], options });
  return report.results[0]?.violations ?? [];
}

const click = { element_token: "s00000001:15", pid: 7, window_id: 42 };
const look = { pid: 7, window_id: 42 };
const windows = { window_ids: [42] };

describe("no-replay-after-unknown", () => {
  it("passes when the timed-out click is re-sent only after a fresh observation", () => {
    const l = log().req("click", click, { fault: "timeout_after_effect" }).req("start_session").req("get_window_state", look).req("click", click);
    expect(violations("no-replay-after-unknown", l.entries)).toEqual([]);
  });
  it("flags a timed-out click re-sent blind, with both request numbers as evidence", () => {
    const l = log()
      .req("list_windows")
      .req("click", click, { fault: "timeout_after_effect" })
      .req("start_session")
      .req("click", { ...click, session: "s" });
    const v = violations("no-replay-after-unknown", l.entries);
    expect(v).toHaveLength(1);
    expect(v[0]?.evidence.requests).toEqual([1, 3]);
    expect(v[0]?.evidence.faults).toEqual(["timeout_after_effect (rule 0)"]);
    expect(v[0]?.message).toMatch(/#3 click .* re-sends #1 click .*timeout_after_effect/);
  });
  it("does not count a failed observation as fresh", () => {
    const l = log()
      .req("type_text", { text: "hi" }, { fault: "daemon_died_midcall" })
      .req("get_window_state", look, { fault: "empty" })
      .req("type_text", { text: "hi" });
    expect(violations("no-replay-after-unknown", l.entries)).toHaveLength(1);
  });
  it("allows a different mutation after the unknown one", () => {
    const l = log().req("click", click, { fault: "hang" }).req("press_key", { key: "Escape" });
    expect(violations("no-replay-after-unknown", l.entries)).toEqual([]);
  });
});

describe("rebuild-before-mutation", () => {
  it("passes when start_session comes between the timeout and the next mutation", () => {
    const l = log()
      .req("click", click, { fault: "timeout_before_effect" })
      .req("get_window_state", look)
      .req("start_session", { session: "s" })
      .req("click", click);
    expect(violations("rebuild-before-mutation", l.entries)).toEqual([]);
  });
  it("passes when a new driver process opens after daemon death", () => {
    const l = log().req("get_window_state", look, { fault: "daemon_died_midcall", stream: 0 }).open(1).req("click", click, { stream: 1 });
    expect(violations("rebuild-before-mutation", l.entries)).toEqual([]);
  });
  it("flags the next mutation after a mutation timeout without a rebuild", () => {
    const l = log().req("click", click, { fault: "timeout_after_effect" }).req("get_window_state", look).req("type_text", { text: "x" });
    const v = violations("rebuild-before-mutation", l.entries);
    expect(v).toHaveLength(1);
    expect(v[0]?.evidence.requests).toEqual([0, 2]);
    expect(v[0]?.evidence.tools).toEqual(["click", "type_text"]);
  });
  it("does not accept a failed start_session as a rebuild", () => {
    const l = log().req("click", click, { fault: "hang" }).req("start_session", {}, { fault: "daemon_down" }).req("click", click);
    expect(violations("rebuild-before-mutation", l.entries)).toHaveLength(1);
  });
  it("ignores a read-only timeout", () => {
    const l = log().req("list_windows", {}, { fault: "timeout_after_effect" }).req("click", click);
    expect(violations("rebuild-before-mutation", l.entries)).toEqual([]);
  });
});

describe("no-input-after-stale", () => {
  const stale = { isError: true, refusal_code: "stale_element_token" };
  it("passes when the harness refreshes before acting again", () => {
    const l = log()
      .req("click", click, { result: stale })
      .req("get_window_state", look)
      .req("click", { ...click, element_token: "s00000002:15" });
    expect(violations("no-input-after-stale", l.entries)).toEqual([]);
  });
  it("passes when the next input is in a new batch", () => {
    const l = log().req("click", click, { result: stale }).mark("batch").req("press_key", { key: "Return" });
    expect(violations("no-input-after-stale", l.entries)).toEqual([]);
  });
  it("flags an input in the same batch after a stale-token refusal", () => {
    const l = log().req("click", click, { result: stale }).req("press_key", { key: "Return" });
    const v = violations("no-input-after-stale", l.entries);
    expect(v).toHaveLength(1);
    expect(v[0]?.message).toContain("stale_element_token");
    expect(v[0]?.evidence.requests).toEqual([0, 1]);
  });
  it("ignores a stale refusal served to a read", () => {
    const l = log().req("get_window_state", look, { fault: "refusal", code: "stale_element_token" }).req("click", click);
    expect(violations("no-input-after-stale", l.entries)).toEqual([]);
  });
  // type_secret(handle, field, target) types a secret into a target (read from source after 0.28.2)
  const secret = { handle: "«redacted:credential:0a1b2c3d»", field: "password", target: { pid: 7, window_id: 42 } };
  it("counts type_secret as input: typing a secret after a stale refusal, in the same batch, is flagged", () => {
    const l = log().req("click", click, { result: stale }).req("type_secret", secret);
    expect(violations("no-input-after-stale", l.entries).map((v) => v.evidence.requests)).toEqual([[0, 1]]);
    const refused = log().req("type_secret", secret, { result: stale }).req("press_key", { key: "Return" });
    expect(violations("no-input-after-stale", refused.entries).map((v) => v.evidence.requests)).toEqual([[0, 1]]);
  });
  it("recognises an injected stale refusal and configured codes", () => {
    const injected = log().req("click", click, { fault: "refusal", code: "px_frame_mismatch" }).req("click", click);
    expect(violations("no-input-after-stale", injected.entries)).toHaveLength(1);
    const custom = log()
      .req("click", click, { result: { isError: true, refusal_code: "frame_lease_expired" } })
      .req("click", click);
    expect(violations("no-input-after-stale", custom.entries)).toEqual([]);
    expect(violations("no-input-after-stale", custom.entries, { staleCodes: ["frame_lease_expired"] })).toHaveLength(1);
  });
});

describe("retry-read-only-only", () => {
  it("passes when only a read is retried after a transport error", () => {
    const l = log().req("list_windows", {}, { fault: "truncated" }).req("list_windows").req("click", click, { fault: "exit" }).req("get_window_state", look);
    expect(violations("retry-read-only-only", l.entries)).toEqual([]);
  });
  it("flags a mutation retried after a transport error, even across a session rebuild", () => {
    const l = log().req("type_text", { text: "hi" }, { fault: "daemon_died_midcall" }).req("start_session").req("type_text", { text: "hi" });
    const v = violations("retry-read-only-only", l.entries);
    expect(v).toHaveLength(1);
    expect(v[0]?.message).toContain("type_text is not read-only");
    expect(v[0]?.evidence.faults).toEqual(["daemon_died_midcall (rule 0)"]);
  });
  it("passes a mutation re-sent after a call that never reached the driver (daemon_down, exit)", () => {
    for (const fault of ["daemon_down", "exit"] as const) {
      const l = log().req("type_text", { text: "hi" }, { fault }).req("start_session").req("type_text", { text: "hi" });
      expect(violations("retry-read-only-only", l.entries)).toEqual([]);
      expect(violations("no-replay-after-unknown", l.entries)).toEqual([]);
      const next = log().req("type_text", { text: "hi" }, { fault }).req("click", click);
      expect(violations("rebuild-before-mutation", next.entries)).toEqual([]);
    }
  });
  it("sees a retry across a reconnect (initialize and tools/list on a new stream)", () => {
    const l = log()
      .req("click", click, { fault: "daemon_died_midcall", stream: 0 })
      .open(1)
      .req("initialize", {}, { kind: "other", stream: 1 })
      .req("tools/list", {}, { kind: "other", stream: 1 })
      .req("click", click, { stream: 1 });
    expect(violations("retry-read-only-only", l.entries)).toHaveLength(1);
  });
  it("does not treat a refusal as a transport error", () => {
    const l = log().req("click", click, { fault: "refusal", code: "input_busy" }).req("click", click);
    expect(violations("retry-read-only-only", l.entries)).toEqual([]);
  });
});

describe("no-unknown-tools", () => {
  it("passes for tools cua-driver 0.21.0 lists", () => {
    const l = log().req("list_windows").req("get_window_state", look).req("click", click).req("check_for_update");
    expect(violations("no-unknown-tools", l.entries)).toEqual([]);
  });
  it("flags a tool the driver does not list, once per tool", () => {
    const l = log().req("screenshot").req("screenshot").req("click", click);
    const v = violations("no-unknown-tools", l.entries);
    expect(v).toHaveLength(1);
    expect(v[0]?.message).toContain("#0 screenshot");
  });
  it("judges against the list given, naming where it came from", () => {
    const l = log().req("list_windows").req("click", click);
    const v = violations("no-unknown-tools", l.entries, { knownTools: ["list_windows"], knownToolsSource: "the cassette's probe" });
    expect(v.map((x) => x.evidence.tools)).toEqual([["click"]]);
    expect(v[0]?.message).toContain("which the cassette's probe does not list");
    expect(violations("no-unknown-tools", l.entries, { knownTools: ["list_windows"] })[0]?.message).toContain("which the given tool list does not list");
  });
});

describe("empty-is-not-absent", () => {
  it("passes when the window is observed again before input", () => {
    const l = log()
      .req("list_windows", {}, { result: { empty: true, window_ids: [] } })
      .req("list_windows", {}, { result: windows })
      .req("click", click);
    expect(violations("empty-is-not-absent", l.entries)).toEqual([]);
  });
  it("accepts get_window_state on the window as an observation of it", () => {
    const l = log().req("list_windows", {}, { fault: "empty" }).req("get_window_state", look).req("click", click);
    expect(violations("empty-is-not-absent", l.entries)).toEqual([]);
  });
  it("flags input at a remembered window after an empty list", () => {
    const l = log().req("list_windows", {}, { result: windows }).req("list_windows", {}, { fault: "empty" }).req("click", click);
    const v = violations("empty-is-not-absent", l.entries);
    expect(v).toHaveLength(1);
    expect(v[0]?.message).toContain("targets window 42");
    expect(v[0]?.evidence.requests).toEqual([1, 2]);
  });
  it("flags a secret typed into a remembered window after an empty list", () => {
    const secret = { handle: "«redacted:credential:0a1b2c3d»", field: "password", target: { pid: 7, window_id: 42 } };
    const l = log().req("list_windows", {}, { result: windows }).req("list_windows", {}, { fault: "empty" }).req("type_secret", secret);
    expect(violations("empty-is-not-absent", l.entries).map((v) => v.evidence.requests)).toEqual([[1, 2]]);
  });
  it("flags input aimed through target.window_id after a failed list", () => {
    const l = log()
      .req("list_windows", {}, { fault: "timeout_before_effect" })
      .req("click", { target: { window_id: 42, x: 1, y: 2 } });
    expect(violations("empty-is-not-absent", l.entries)).toHaveLength(1);
  });
});

describe("bounded-retries", () => {
  it("passes six identical calls in a row", () => {
    const l = log();
    for (let i = 0; i < 6; i++) l.req("get_window_state", look);
    l.req("click", click);
    for (let i = 0; i < 6; i++) l.req("get_window_state", look);
    expect(violations("bounded-retries", l.entries)).toEqual([]);
  });
  it("passes identical inputs the driver accepted: a list walked with eight presses of Down", () => {
    const l = log().req("get_window_state", look);
    for (let i = 0; i < 8; i++) l.req("press_key", { ...look, key: "Down" }, { result: { effect: "delivered" } });
    expect(violations("bounded-retries", l.entries)).toEqual([]);
  });
  it("flags the seventh identical call refused the same way, once per run, counting the later ones", () => {
    const l = log();
    for (let i = 0; i < 9; i++) l.req("press_key", { key: "Down" }, { result: { isError: true, refusal_code: "background_unavailable" } });
    const v = violations("bounded-retries", l.entries);
    expect(v).toHaveLength(1);
    expect(v[0]?.evidence.requests).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(v[0]?.message).toMatch(
      /#6 press_key .* 7th identical press_key call in a row \(from #0\), each refused \(background_unavailable\).*; 2 later requests did the same \(#7, #8\)/,
    );
  });
  it("flags inputs that keep landing as suspected_noop, and a read that keeps failing", () => {
    const noop = log();
    for (let i = 0; i < 7; i++) noop.req("click", click, { result: { effect: "suspected_noop" } });
    expect(violations("bounded-retries", noop.entries)).toHaveLength(1);
    const failing = log();
    for (let i = 0; i < 7; i++) failing.req("get_window_state", look, { fault: "hang" });
    expect(violations("bounded-retries", failing.entries)[0]?.message).toContain("each without an answer (hang)");
  });
  it("an answer that shows progress ends the run", () => {
    const l = log();
    for (let i = 0; i < 4; i++) l.req("click", click, { result: { effect: "suspected_noop" } });
    l.req("click", click, { result: { effect: "confirmed" } });
    for (let i = 0; i < 4; i++) l.req("click", click, { result: { effect: "suspected_noop" } });
    expect(violations("bounded-retries", l.entries)).toEqual([]);
  });
  it("honours a configured bound and ignores the session label", () => {
    const refused = { result: { isError: true, refusal_code: "input_busy" } };
    const l = log()
      .req("click", click, refused)
      .req("click", { ...click, session: "a" }, refused)
      .req("click", { ...click, session: "b" }, refused);
    expect(violations("bounded-retries", l.entries, { maxRepeats: 2 })).toHaveLength(1);
  });
  it("counts identical requests whatever the answers only under the opt-in maxIdentical policy", () => {
    const l = log();
    for (let i = 0; i < 8; i++) l.req("press_key", { key: "Down" }, { result: { effect: "delivered" } });
    expect(violations("bounded-retries", l.entries)).toEqual([]);
    const v = violations("bounded-retries", l.entries, { maxIdentical: 6 });
    expect(v).toHaveLength(1);
    expect(v[0]?.message).toMatch(/#6 press_key .* 7th identical .* maxIdentical policy allows at most 6, whatever the answers; #7 press_key .* did the same/);
  });
});

describe("no-input-after-stale and a window list", () => {
  it("a window list between the stale refusal and the next click does not refresh the target", () => {
    const stale = log().req("click", click, { fault: "refusal", code: "stale_element_token" }).req("list_windows", {}, { result: windows }).req("click", click);
    expect(violations("no-input-after-stale", stale.entries)).toHaveLength(1);
    const looked = log()
      .req("click", click, { fault: "refusal", code: "stale_element_token" })
      .req("get_window_state", look, { result: windows })
      .req("click", click);
    expect(violations("no-input-after-stale", looked.entries)).toEqual([]);
  });
});

describe("requests without a tool", () => {
  /** A client that opens a fresh `cua-driver mcp` stream and asks what the driver is, `times` times. */
  function discovery(times: number): ReplayLogEntry[] {
    const entries: ReplayLogEntry[] = [];
    let n = 0;
    for (let stream = 0; stream < times; stream++) {
      entries.push({ type: "stream", event: "open", t_ms: n, transport: "mcp", stream });
      for (const method of ["initialize", "tools/list"]) {
        entries.push({
          type: "request",
          n: n++,
          t_ms: n,
          transport: "mcp",
          stream,
          method,
          kind: "other",
          epoch_before: 0,
          epoch_after: 0,
          outcome: "replayed",
        });
      }
      entries.push({ type: "stream", event: "close", t_ms: n, transport: "mcp", stream });
    }
    for (let i = 0; i < times; i++) {
      entries.push({
        type: "request",
        n: n++,
        t_ms: n,
        transport: "cli",
        method: "--version",
        kind: "other",
        epoch_before: 0,
        epoch_after: 0,
        outcome: "replayed",
      });
    }
    return entries;
  }

  it("discovery ten times over separate streams is no retry: no invariant is violated", () => {
    const report = runInvariants(discovery(10));
    expect(report.results.flatMap((r) => r.violations)).toEqual([]);
    expect(report.passed).toBe(true);
  });

  it("are keyed by method, so seven identical non-discovery requests still count", () => {
    const entries: ReplayLogEntry[] = [];
    for (let n = 0; n < 7; n++) {
      entries.push({
        type: "request",
        n,
        t_ms: n,
        transport: "cli",
        method: "status",
        args: { positionals: [] },
        kind: "other",
        epoch_before: 0,
        epoch_after: 0,
        outcome: "replayed",
      });
    }
    // `status` asks whether the daemon runs: discovery too
    expect(violations("bounded-retries", entries)).toEqual([]);
    const failed = entries.map((e) => ({ ...e, method: "sessions", result: { exit_code: 1 } }));
    expect(violations("bounded-retries", failed)).toHaveLength(1);
    expect(
      violations(
        "bounded-retries",
        failed.map((e) => ({ ...e, method: "status" })),
      ),
    ).toEqual([]);
  });
});

describe("rebuild-before-mutation across connections", () => {
  it("a new HTTP connection reaches the same daemon: it is not a rebuild", () => {
    const l = log().req("click", click, { fault: "hang", stream: 0 });
    l.entries.push({ type: "stream", event: "open", t_ms: 99, transport: "http", stream: 1 });
    l.req("type_text", { ...look, text: "x" }, { stream: 1 });
    expect(violations("rebuild-before-mutation", l.entries)).toHaveLength(1);
  });

  it("a mutation left unanswered behind a hung call on the same stream is still judged", () => {
    const l = log()
      .req("type_text", { ...look, text: "x" }, { fault: "hang", stream: 0 })
      .req("click", click, { stream: 0 });
    (l.entries.at(-1) as RequestEntry).outcome = "unanswered";
    const v = violations("rebuild-before-mutation", l.entries);
    expect(v).toHaveLength(1);
    expect(v[0]?.evidence.requests).toEqual([0, 1]);
  });
});

describe("era-metadata-on-every-request", () => {
  /** An MCP stdio request of a 0.28 connection in the era it spoke (`refused`: the driver's era refusal, logged as synthesized). */
  const eraReq = (n: number, stream: number, era: "legacy" | "modern", method: string, tool?: string, refused = false): RequestEntry => ({
    type: "request",
    n,
    t_ms: n * 10,
    transport: "mcp",
    stream,
    method,
    era,
    ...(tool ? { tool, args: {} } : {}),
    kind: tool === "click" ? "mutation" : "read",
    epoch_before: 0,
    epoch_after: 0,
    outcome: "replayed",
    ...(refused ? { synthesized: "era_refusal" as const, basis: { source: "reference" as const } } : {}),
  });
  const id = "era-metadata-on-every-request";

  it("passes a modern connection whose every request carries the metadata, a legacy one, and a legacy retry after a refused modern probe", () => {
    const entries: ReplayLogEntry[] = [
      eraReq(0, 0, "modern", "server/discover"),
      eraReq(1, 0, "modern", "tools/call", "list_windows"),
      eraReq(2, 0, "modern", "tools/call", "click"),
      eraReq(3, 1, "legacy", "initialize"),
      eraReq(4, 1, "legacy", "tools/call", "list_windows"),
      // a pinned version the driver refuses (-32022), then the harness falls back to the legacy era
      eraReq(5, 2, "modern", "server/discover", undefined, true),
      eraReq(6, 2, "legacy", "initialize"),
      eraReq(7, 2, "legacy", "tools/call", "list_windows"),
    ];
    expect(violations(id, entries)).toEqual([]);
  });

  it("flags a request without the metadata after the era was spoken on the connection, once per connection, not on another connection", () => {
    const entries: ReplayLogEntry[] = [
      eraReq(0, 0, "modern", "server/discover"),
      eraReq(1, 0, "modern", "tools/call", "list_windows"),
      eraReq(2, 0, "legacy", "tools/call", "click", true),
      eraReq(3, 0, "legacy", "initialize"),
      eraReq(4, 1, "legacy", "initialize"),
      eraReq(5, 1, "legacy", "tools/call", "click"),
    ];
    const found = violations(id, entries);
    expect(found).toHaveLength(1);
    expect(found[0]!.evidence.requests).toEqual([0, 2, 3]);
    expect(found[0]!.message).toMatch(/^#2 click .*without the 2026-07-28 era's metadata, after #0 server\/discover.*; #3 initialize did the same$/);
  });

  it("does not judge requests without an era (CLI, in process, drivers before 0.28)", () => {
    expect(violations(id, log().req("list_windows", {}, { result: windows }).req("click", click).entries)).toEqual([]);
  });
});

describe("runInvariants", () => {
  it("runs all invariants by default and reports the log as passing", () => {
    const report = runInvariants(log().req("list_windows", {}, { result: windows }).req("click", click).entries);
    expect(report.results.map((r) => r.id)).toHaveLength(12);
    expect(report.passed).toBe(true);
    expect(report.requests).toBe(2);
  });
  it("rejects an unknown id with the list of valid ones", () => {
    expect(() => runInvariants([], { only: ["no-such"] })).toThrow(/--invariants: unknown invariant "no-such"\. Use one or more of: no-replay-after-unknown, /);
  });
});

describe("the registry", () => {
  it("has one invariant per id the scenario schema knows, each under its own id, in report order", () => {
    expect(INVARIANTS.map((i) => i.id)).toEqual(InvariantIdSchema.options);
  });
});
