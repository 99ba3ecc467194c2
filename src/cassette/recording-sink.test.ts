import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readCassette } from "./reader.js";
import { createRecordingSink } from "./recording-sink.js";
import { SYNTHETIC_HEADER } from "../../test/helpers/synthetic-sink.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const header = SYNTHETIC_HEADER;
const cli = (origin: "harness" | "recorder") => ({
  kind: "cli" as const,
  t_ms: 1,
  duration_ms: 1,
  argv: ["--version"],
  stdout: "x",
  stderr: "",
  exit_code: 0,
  origin,
});

describe("recording sink", () => {
  it("writes the header at the first harness event with its transport, identity events first", async () => {
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), "sink-")), "rec");
    dirs.push(path.dirname(dir));
    const sink = createRecordingSink({ dir, header });
    sink.append(cli("recorder"));
    sink.append({ kind: "mcp_open", t_ms: 2, stream: 0, argv: ["mcp"], origin: "harness" });
    sink.append(cli("harness"));
    sink.close();
    sink.append(cli("harness")); // after close: dropped
    const c = await readCassette(dir);
    expect(c.header.transport).toBe("mixed");
    expect(c.events.map((e) => [e.seq, e.kind, e.origin])).toEqual([
      [0, "cli", "recorder"],
      [1, "mcp_open", "harness"],
      [2, "cli", "harness"],
    ]);
    expect(readFileSync(path.join(dir, "cassette.jsonl"), "utf8").split("\n")).toHaveLength(5);
  });

  it("gets a cli header when the harness never called the driver, and refuses to overwrite", async () => {
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), "sink-")), "rec");
    dirs.push(path.dirname(dir));
    const sink = createRecordingSink({ dir, header });
    sink.append(cli("recorder"));
    sink.close();
    const c = await readCassette(dir);
    expect([c.header.transport, c.events.length]).toEqual(["cli", 1]);
    expect(() => createRecordingSink({ dir, header })).toThrow(/already holds a cassette\. Pass --append/);
    const again = createRecordingSink({ dir, header, append: true });
    again.append(cli("harness"));
    again.close();
    expect((await readCassette(dir)).events.map((e) => e.seq)).toEqual([0, 1]);
  });
});
