import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliInProcess } from "../helpers/run-cli-in-process.js";

const fixture = (name: string) => path.join("test/fixtures/cassettes", name);

describe("inspect", () => {
  it("summarises a good cassette, human and --json", async () => {
    const human = await runCliInProcess(["inspect", fixture("golden-cli")]);
    expect(human.exitCode).toBe(0);
    expect(human.stdout).toContain("driver     0.21.0 (synthetic, linux-x64)");
    expect(human.stdout).toMatch(/^events {5}8 \(cli 8; origin: harness 6, recorder 2\)$/m);
    expect(human.stdout).toMatch(/^frames {5}1 \(49022 bytes\); missing: none; mismatched: none$/m);
    const json = await runCliInProcess(["inspect", fixture("golden-cli"), "--json"]);
    const doc = JSON.parse(String(json.stdout));
    expect(doc).toMatchObject({
      header: { format: "cua-cassette", version: 1, transport: "cli" },
      events: 8,
      frames: { count: 1, bytes: 49022, missing: [], mismatched: [] },
      warnings: [],
      by_tool: { get_desktop_state: 2, get_screen_size: 1, type_text: 1, click: 1, get_window_state: 1 },
    });
  });

  it("counts the answers a recording's stand-in built, and the parts it built around the driver's results", async () => {
    const human = await runCliInProcess(["inspect", fixture("mcp-sdk-0.28.2-eras")]);
    expect(human.exitCode).toBe(0);
    expect(human.stdout).toMatch(
      /^stand-in {3}answers the recording's stand-in built: discover 1, initialize 1, ping 1; parts it built around the driver's results: modern_envelope 4, host_tools 2$/m,
    );
    const json = JSON.parse(String((await runCliInProcess(["inspect", fixture("mcp-sdk-0.28.2-eras"), "--json"])).stdout));
    expect(json.stand_in).toEqual({ synthesized: { initialize: 1, discover: 1, ping: 1 }, wrapped: { host_tools: 2, modern_envelope: 4 } });
    // a cassette without marks says nothing of them
    const plain = await runCliInProcess(["inspect", fixture("golden-cli"), "--json"]);
    expect(JSON.parse(String(plain.stdout))).not.toHaveProperty("stand_in");
  });

  it("reports a torn last line as a warning naming the line, exit 0", async () => {
    const r = await runCliInProcess(["inspect", fixture("torn-last-line"), "--json"]);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(String(r.stdout));
    expect(doc.events).toBe(3);
    expect(doc.warnings).toEqual([
      `${fixture("torn-last-line")}/cassette.jsonl:5: torn last line (40 characters, not valid JSON) ignored; the recording was probably killed while writing it`,
    ]);
  });

  it("rejects broken cassettes with exit 2 and one message naming file, line or field, and the fix", async () => {
    const cases: Array<[string, string]> = [
      [
        "bad-header",
        'cassette.jsonl:1: bad header: not valid JSON. Line 1 must be the header {"format":"cua-cassette","version":1,…}; re-record the cassette.',
      ],
      [
        "unknown-version",
        "cassette.jsonl:1: version: unknown cassette format version 7; this cua-contract reads version 1. Use the cua-contract release that wrote it, or re-record the cassette with this one.",
      ],
      [
        "torn-middle-line",
        "cassette.jsonl:3: torn or invalid JSON line in the middle of the cassette. Only the last line may be torn by a crash; repair or delete this line by hand, or re-record.",
      ],
      [
        "frame-path-segment",
        'cassette.jsonl:2: files.--screenshot-out-file.ref: frame reference "frames/../../../etc/passwd.png" is not frames/<sha256>.<png|jpg> (path segments are not allowed). Re-record the cassette, or fix the reference by hand; cua-contract never reads files outside frames/.',
      ],
      [
        "frame-mismatch",
        "cassette.jsonl: frames: frames/ebc1a12310fa96efae931acb75771ee38856cfb70a921e7fb5bfa34128a9262b.png does not match its hash. Restore the frames from the original recording, or re-record the cassette.",
      ],
    ];
    for (const [name, message] of cases) {
      const r = await runCliInProcess(["inspect", fixture(name)]);
      expect([name, r.exitCode, r.stderr]).toEqual([name, 2, `cua-contract: ${fixture(name)}/${message}`]);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    const mismatch = JSON.parse(String((await runCliInProcess(["inspect", fixture("frame-mismatch"), "--json"])).stdout));
    expect(mismatch.frames.mismatched).toEqual(["frames/ebc1a12310fa96efae931acb75771ee38856cfb70a921e7fb5bfa34128a9262b.png"]);
    const missing = await runCliInProcess(["inspect", "test/fixtures/cassettes/does-not-exist"]);
    expect([missing.exitCode, missing.stderr]).toEqual([
      2,
      "cua-contract: test/fixtures/cassettes/does-not-exist: no cassette directory at test/fixtures/cassettes/does-not-exist. Pass the directory that `cua-contract record --out DIR` wrote (it holds cassette.jsonl).",
    ]);
  });
});
