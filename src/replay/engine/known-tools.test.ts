import { describe, expect, it } from "vitest";
import { KNOWN_TOOLS_0_21, toolsWith } from "#src/driver/catalogue.js";
import { runInvariants } from "#src/invariants/run.js";
import type { CassetteEvent } from "#src/schema/cassette.js";
import type { RequestEntry } from "#src/schema/replay-log.js";
import { knownToolsOf, knownToolsOptions } from "./known-tools.js";
import { prepareCassette } from "./prepared.js";

// Hand-built events (the shapes of the recorder's): what each source of the known tools reads.
const cli = (seq: number, argv: string[], stdout: string, exit_code = 0) =>
  ({ seq, t_ms: seq, origin: "harness", kind: "cli", duration_ms: 1, argv, stdout, stderr: "", exit_code }) as CassetteEvent;

function mcp(pairs: { request: string; answer: string; fault?: boolean }[]): CassetteEvent[] {
  const events: CassetteEvent[] = [{ seq: 0, t_ms: 0, origin: "harness", kind: "mcp_open", stream: 0, argv: ["mcp"] } as CassetteEvent];
  for (const p of pairs) {
    const seq = events.length;
    const fault = p.fault ? { fault: { kind: "corrupt", rule: 0, forwarded: false } } : {};
    events.push({ seq, t_ms: seq, origin: "harness", kind: "mcp", stream: 0, dir: "c2s", line: p.request, ...fault } as CassetteEvent);
    events.push({ seq: seq + 1, t_ms: seq + 1, origin: "harness", kind: "mcp", stream: 0, dir: "s2c", line: p.answer } as CassetteEvent);
  }
  return events;
}

const toolsList = (id: number, names: string[]) => ({
  request: `{"jsonrpc":"2.0","id":${id},"method":"tools/list"}`,
  answer: JSON.stringify({ jsonrpc: "2.0", id, result: { tools: names.map((name) => ({ name, inputSchema: { type: "object" } })) } }),
});

const exchangesOf = (events: CassetteEvent[]) => prepareCassette({ events }).exchanges;
const driver = (version: string | null, platform = "linux-x64") => ({ version, platform });

describe("the tools a recording's driver offers, best evidence first", () => {
  it("the probe's names come first, whatever the recording holds", () => {
    const known = knownToolsOf({ probeTools: ["a"], exchanges: exchangesOf(mcp([toolsList(1, ["b"])])), driver: driver("0.28.2") });
    expect(known).toEqual({ names: ["a"], source: "the cassette's probe", basis: "probe" });
  });

  it("else every tools/list answer it recorded, together; an answer a fault took the place of is no evidence", () => {
    const events = mcp([toolsList(1, ["list_windows", "type_secret"]), toolsList(2, ["find_credentials"]), { ...toolsList(3, ["forged"]), fault: true }]);
    const known = knownToolsOf({ exchanges: exchangesOf(events), driver: driver("0.28.2") });
    expect(known).toEqual({
      names: ["find_credentials", "list_windows", "type_secret"],
      source: "the cassette's recorded tools/list answers (to events 1, 3)",
      basis: "recorded",
    });
  });

  it("a tools/list answered over HTTP counts, as JSON or as an SSE stream", () => {
    const http = (seq: number, body: string, content_type: string) =>
      ({
        seq,
        t_ms: seq,
        origin: "harness",
        kind: "http",
        duration_ms: 1,
        request: { method: "POST", path: "/mcp", body: `{"jsonrpc":"2.0","id":${seq + 1},"method":"tools/list"}` },
        response: { status: 200, content_type, body },
      }) as CassetteEvent;
    const result = (id: number, name: string) => JSON.stringify({ jsonrpc: "2.0", id, result: { tools: [{ name }] } });
    const events = [http(0, result(1, "click"), "application/json"), http(1, `event: message\ndata: ${result(2, "type_secret")}\n\n`, "text/event-stream")];
    expect(knownToolsOf({ exchanges: exchangesOf(events), driver: driver("0.28.2") })).toEqual({
      names: ["click", "type_secret"],
      source: "the cassette's recorded tools/list answers (to events 0, 1)",
      basis: "recorded",
    });
  });

  it("a recorded per-call `cua-driver list-tools` output counts as the driver's list; a failed one does not", () => {
    const events = [cli(0, ["list-tools"], "click: Click.\ntype_secret: Type a secret.\n"), cli(1, ["list-tools"], "boom\n", 1)];
    const known = knownToolsOf({ exchanges: exchangesOf(events), driver: driver("0.21.0") });
    expect(known).toEqual({ names: ["click", "type_secret"], source: "the cassette's recorded list-tools output (event 0)", basis: "recorded" });
  });

  it("else the catalogue's list for the header's version: 0.20.0–0.28.2 alike, and after 0.28.2 the tools read from source too", () => {
    const none = exchangesOf([cli(0, ["call", "get_config", "{}"], "{}")]);
    const v28 = knownToolsOf({ exchanges: none, driver: driver("0.28.2") });
    expect(v28).toMatchObject({ names: toolsWith("listed"), basis: "catalogue" });
    expect(v28.source).toBe("the cua-driver 0.28.2 tool list (the catalogue's: the same in every release 0.20.0–0.28.2)");
    const newer = knownToolsOf({ exchanges: none, driver: driver("0.29.0") });
    expect(newer.names).toEqual(expect.arrayContaining(["find_credentials", "type_secret", "click"]));
    expect(newer.source).toBe("the cua-driver 0.29.0 tool list (the catalogue's: the 0.28.2 tools and those read from source after 0.28.2)");
  });

  it("only then the reference version's, saying why", () => {
    const none = exchangesOf([]);
    expect(knownToolsOf({ exchanges: none, driver: driver("0.19.3") })).toEqual({
      names: KNOWN_TOOLS_0_21,
      source: "the cua-driver 0.21.0 tool list (the reference version: the catalogue has no list for the cassette's cua-driver 0.19.3)",
      basis: "reference",
    });
    expect(knownToolsOf({ exchanges: none, driver: driver("0.28.2", "darwin-arm64") }).source).toBe(
      "the cua-driver 0.21.0 tool list (the reference version: the catalogue has no list for the cassette's cua-driver 0.28.2 on darwin-arm64)",
    );
    expect(knownToolsOf({ exchanges: none, driver: driver(null) }).source).toBe(
      "the cua-driver 0.21.0 tool list (the reference version: the cassette names no driver version)",
    );
  });

  it("no-unknown-tools judges by the list and names where it came from", () => {
    const known = knownToolsOf({ exchanges: exchangesOf(mcp([toolsList(1, ["list_windows"])])), driver: driver("0.28.2") });
    const request = (n: number, tool: string) =>
      ({ type: "request", n, t_ms: n, transport: "mcp", method: "call", tool, args: {}, kind: "mutation", outcome: "replayed" }) as RequestEntry;
    const report = runInvariants([request(1, "list_windows"), request(2, "click")], { only: ["no-unknown-tools"], options: knownToolsOptions(known) });
    expect(report.results[0]?.violations.map((v) => v.message)).toEqual([
      "#2 click {} calls click, which the cassette's recorded tools/list answer (to event 1) does not list",
    ]);
  });
});
