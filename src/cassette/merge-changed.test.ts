import { appendFileSync, cpSync, existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { tmpDir } from "../../test/helpers/tmp-dir.js";

// B is written to (here: a line appended) after merge has checked it and before it copies it
const changeB = vi.hoisted(() => ({ file: "" }));
vi.mock("./copy-lines.js", async (original) => {
  const actual = await original<typeof import("./copy-lines.js")>();
  return {
    ...actual,
    copyKeptLines: (o: Parameters<typeof actual.copyKeptLines>[0]) => {
      actual.copyKeptLines(o);
      if (changeB.file)
        appendFileSync(
          changeB.file,
          `${JSON.stringify({ seq: 99, t_ms: 999, kind: "cli", argv: ["--version"], stdout: "", stderr: "", exit_code: 0, duration_ms: 1 })}\n`,
        );
    },
  };
});

const { mergeCassettes } = await import("./merge.js");

describe("cassette merge of a B another program changes meanwhile", () => {
  it("is refused naming B (was: merged with what B had become, against counts of what it was); OUT gets no cassette", async () => {
    await using tmp = await tmpDir();
    const b = path.join(tmp.path, "b");
    cpSync("test/fixtures/cassettes/replay-cli-gtk", b, { recursive: true });
    changeB.file = path.join(b, "cassette.jsonl");
    const out = path.join(tmp.path, "out");
    expect(() => mergeCassettes({ a: "test/fixtures/cassettes/replay-cli-gtk", b, out })).toThrow(
      expect.objectContaining({ message: expect.stringMatching(/b\/cassette\.jsonl: the cassette changed while it was being merged/), exitCode: 2 }),
    );
    expect(existsSync(path.join(out, "cassette.jsonl"))).toBe(false);
  });
});
