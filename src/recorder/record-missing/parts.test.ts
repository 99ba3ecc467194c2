import { describe, expect, it } from "vitest";
import { collectIds, emptyIdSets, rewriteIds } from "./id-json.js";
import { createIdTable } from "./id-table.js";
import { pairAnswers } from "./pair-answers.js";
import { createGrowth, type AddedInput } from "./growth.js";
import type { CassetteEvent } from "#src/schema/cassette.js";

const taken = (o: Partial<Record<"pid" | "window" | "snapshot", string[]>>) => ({
  pid: new Set(o.pid ?? []),
  window: new Set(o.window ?? []),
  snapshot: new Set(o.snapshot ?? []),
});

describe("rewriteIds", () => {
  it("rewrites ids at their keys and in text, and keeps every other byte (pretty printing, 1.0 floats, images)", () => {
    const text =
      '{\n  "elements": [\n    {\n      "element_token": "s00000002:18",\n      "scale": 1.0\n    }\n  ],\n  "pid": 29249,\n  "screenshot_png_b64": "pid=29249",\n  "snapshot_id": "s00000002",\n  "tree_markdown": "window_id=8388615 pid=29249 elements=1",\n  "window_id": 8388615\n}\n';
    const map: Record<string, Record<string, string>> = { pid: { "29249": "31000" }, window: { "8388615": "6291463" }, snapshot: { s00000002: "s00000003" } };
    const out = rewriteIds(text, (kind, value) => map[kind]![value]);
    expect(out).toBe(
      text
        .replace(/29249(?!")/g, "31000")
        .replace("8388615 pid", "6291463 pid")
        .replace(/"window_id": 8388615/, '"window_id": 6291463')
        .replace(/s00000002/g, "s00000003")
        .replace('"pid=31000"', '"pid=29249"'),
    );
    expect(out).toContain('"scale": 1.0');
  });

  it("reads the driver's text forms: [xid=…] pid=Some(…), (pid N), pid N, window_id N", () => {
    const ids = emptyIdSets();
    collectIds(
      '{"text":"Found 1 windows:\\n  [xid=4194311] pid=Some(29390) \\"Header Bar\\"; Clicked element [18] (pid 29390). Window target pid 7, window_id 9 is stale"}',
      ids,
    );
    expect([...ids.pid].sort()).toEqual(["29390", "7"]);
    expect([...ids.window].sort()).toEqual(["4194311", "9"]);
  });

  it("treats text that is not JSON as text", () => {
    expect(rewriteIds("Window target pid 1, window_id 2 is stale", (kind) => (kind === "pid" ? "10" : "20"))).toBe(
      "Window target pid 10, window_id 20 is stale",
    );
  });
});

describe("createIdTable", () => {
  it("translates requests to live ids and live answers back, keeping unknown live ids and freshening ones the cassette uses", () => {
    const table = createIdTable({ taken: taken({ pid: ["100"], snapshot: ["s00000001", "s00000002"] }) });
    table.pair("pid", "100", "900");
    table.pair("snapshot", "s00000001", "s00000001");
    expect(table.toLive('{"pid":100,"element_token":"s00000001:4","window_id":5}')).toBe('{"pid":900,"element_token":"s00000001:4","window_id":5}');
    // live s00000002 is the recording's name of another look: it gets s00000003; live pid 901 is free and keeps its value
    expect(table.toRecorded('{"pid":901,"snapshot_id":"s00000002"}')).toBe('{"pid":901,"snapshot_id":"s00000003"}');
    expect(table.toRecorded('{"pid":900,"element_token":"s00000002:7"}')).toBe('{"pid":100,"element_token":"s00000003:7"}');
    // the choice sticks, both ways
    expect(table.live("snapshot", "s00000003")).toBe("s00000002");
    expect(table.toLive('{"element_token":"s00000003:7"}')).toBe('{"element_token":"s00000002:7"}');
    expect(table.entries().filter((e) => e.fresh)).toEqual([{ kind: "snapshot", recorded: "s00000003", live: "s00000002", fresh: true }]);
  });

  it("a live id mentioned only in text is translated when known and never invented", () => {
    const table = createIdTable({ taken: taken({ pid: ["100"] }) });
    table.pair("pid", "100", "900");
    expect(table.toRecorded('{"text":"pid=900 and pid=555"}')).toBe('{"text":"pid=100 and pid=555"}');
    expect(table.recorded("pid", "555")).toBeUndefined();
  });

  it("a recorded id paired again to another live id says so and uses the newer pairing", () => {
    const table = createIdTable({ taken: taken({}) });
    table.pair("window", "5", "50");
    table.pair("window", "5", "51");
    expect(table.live("window", "5")).toBe("51");
    expect(table.recorded("window", "50")).toBeUndefined();
    expect(table.notes).toEqual(["recorded window 5 was live 50, now live 51: the newer pairing is used"]);
  });
});

describe("pairAnswers", () => {
  it("pairs windows by app and title whatever their order, and reports what only one side has", () => {
    const w = (pid: number, id: number, title: string) => ({ app_name: "Demo", pid, title, window_id: id });
    const recorded = JSON.stringify({ windows: [w(1, 10, "Main"), w(1, 11, "Dialog")] });
    const live = JSON.stringify({ windows: [w(9, 91, "Dialog"), w(9, 90, "Main"), w(9, 92, "Other")] });
    const paired = pairAnswers(recorded, live);
    expect(paired.pairs).toEqual([
      { kind: "pid", recorded: "1", live: "9" },
      { kind: "window", recorded: "10", live: "90" },
      { kind: "pid", recorded: "1", live: "9" },
      { kind: "window", recorded: "11", live: "91" },
    ]);
    expect(paired.differences).toEqual(['live window Demo "Other" is not in the recorded answer']);
  });

  it("pairs a window state's snapshot and tokens by element index and tells when the elements differ", () => {
    const state = (snap: string, labels: string[]) =>
      JSON.stringify({
        elements: labels.map((label, i) => ({ element_index: i, element_token: `${snap}:${i}`, label, role: "push button" })),
        pid: 1,
        snapshot_id: snap,
        window_id: 2,
      });
    const paired = pairAnswers(state("s00000002", ["Open", "Close"]), state("s00000005", ["Open", "Quit"]));
    expect(new Set(paired.pairs.filter((p) => p.kind === "snapshot").map((p) => `${p.recorded}=${p.live}`))).toEqual(new Set(["s00000002=s00000005"]));
    expect(paired.differences).toEqual([
      '1 element(s) differ between the recorded and the live window (element [1] is push button "Close" recorded, push button "Quit" live): tokens by index may name other elements',
    ]);
  });
});

describe("createGrowth", () => {
  const ev = (seq: number, origin: "harness" | "recorder" = "harness") =>
    ({ seq, t_ms: seq * 10, origin, kind: "cli", duration_ms: 1, argv: ["call", `t${seq}`], stdout: "", stderr: "", exit_code: 0 }) as CassetteEvent;
  const added = (name: string): AddedInput => ({ kind: "cli", duration_ms: 1, argv: ["call", name], stdout: "", stderr: "", exit_code: 0, origin: "harness" });
  const names = (g: ReturnType<typeof createGrowth>, events: CassetteEvent[]) =>
    g
      .plan()
      .order.map((o) =>
        "old" in o ? (events[o.old] as { argv: string[] }).argv[1] : `${o.added.kind === "cli" ? o.added.argv[1] : "?"}@${o.added.seq}/${o.added.t_ms}`,
      );

  it("adds after the recorded event last answered, after the identity calls at first, in the order the run made them", () => {
    const events = [ev(0, "recorder"), ev(1), ev(2), ev(3)];
    const g = createGrowth({ events });
    g.add([added("first")]);
    g.served(2);
    g.served(1); // an earlier read of the same epoch answered later: the place does not move back
    g.add([added("second")]);
    g.add([added("third")]);
    expect(names(g, events)).toEqual(["t0", "first@4/0", "t1", "t2", "second@5/20", "third@6/20", "t3"]);
    expect(g.plan().dropped).toEqual([]);
  });

  it("after a divergence the rest goes at the end of the epoch and the recorded events from its end on are dropped", () => {
    const events = [ev(0), ev(1), ev(2), ev(3), ev(4)];
    const g = createGrowth({ events });
    g.served(0);
    g.add([added("read")]);
    g.diverge(3);
    g.served(4); // nothing recorded answers any more
    g.add([added("mutation")]);
    g.add([added("after")]);
    expect(names(g, events)).toEqual(["t0", "read@5/0", "t1", "t2", "mutation@6/20", "after@7/20"]);
    expect(g.plan().dropped.map((e) => e.seq)).toEqual([3, 4]);
  });

  it("a stream's end added before a line of that stream (its harness went away mid-call) still ends it", () => {
    const events = [ev(0), ev(1)];
    const g = createGrowth({ events });
    const line = (dir: "c2s" | "s2c"): AddedInput => ({ kind: "mcp", stream: 1, dir, line: "{}", origin: "harness" });
    g.served(0);
    g.add([{ kind: "mcp_open", stream: 1, argv: ["mcp"], origin: "harness" }, line("c2s")]);
    g.add([{ kind: "mcp_close", stream: 1, exit_code: null, origin: "harness" }]);
    g.served(1);
    g.add([line("s2c")]);
    expect(g.plan().order.map((o) => ("old" in o ? `t${o.old}` : `${o.added.kind}${"dir" in o.added ? `:${o.added.dir}` : ""}`))).toEqual([
      "t0",
      "mcp_open",
      "mcp:c2s",
      "t1",
      "mcp:s2c",
      "mcp_close",
    ]);
  });
});
