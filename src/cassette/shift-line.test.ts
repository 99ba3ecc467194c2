import { describe, expect, it } from "vitest";
import { shiftLineHead } from "./shift-line.js";

const shift = { seq: 100, t: 0.5, stream: 3 };
/** The line as a reader sees it after the shift, or "fallback". */
function shifted(line: string): unknown {
  const r = shiftLineHead(Buffer.from(line), shift);
  return r ? JSON.parse(r.head + r.rest.toString("utf8")) : "fallback";
}

describe("shiftLineHead", () => {
  it("moves seq, t_ms and an MCP stream and keeps every other byte", () => {
    const cli =
      '{"seq":7,"t_ms":2.305,"origin":"recorder","kind":"cli","duration_ms":1,"argv":["--version"],"stdout":"a \\"seq\\": 1\\n","stderr":"","exit_code":0}';
    const r = shiftLineHead(Buffer.from(cli), shift)!;
    expect(r.seq).toBe(107);
    expect(r.head + r.rest.toString()).toBe(cli.replace('"seq":7,"t_ms":2.305', '"seq":107,"t_ms":2.805'));
    expect(shifted('{"seq":2,"t_ms":99,"origin":"harness","kind":"mcp","stream":0,"dir":"c2s","line":"{}"}')).toMatchObject({
      seq: 102,
      t_ms: 99.5,
      stream: 3,
    });
    // keys after t_ms in another order (a hand-made or older cassette): still only seq and t_ms move
    expect(shifted('{"seq":3,"t_ms":80,"duration_ms":12,"kind":"cli","argv":["call","x"],"stdout":"","stderr":"","exit_code":0}')).toMatchObject({
      seq: 103,
      t_ms: 80.5,
      duration_ms: 12,
    });
    expect(shiftLineHead(Buffer.from('{"seq":3,"t_ms":80,"duration_ms":12,"kind":"cli"}'), shift)?.head).toBe('{"seq":103,"t_ms":80.5,');
    const added = '{"seq":9,"t_ms":1,"added":{"by":"record-missing","at":"2026-05-01T00:00:00.000Z","source":"synthetic"},"kind":"cli","argv":[]}';
    expect(shifted(added)).toMatchObject({ seq: 109, t_ms: 1.5, kind: "cli", added: { by: "record-missing" } });
  });

  it("leaves to the caller a line laid out otherwise, or one that names seq, t_ms or stream again", () => {
    expect(shifted('{"kind":"cli","seq":1,"t_ms":1}')).toBe("fallback");
    expect(shifted('{ "seq":1,"t_ms":1,"kind":"cli"}')).toBe("fallback");
    // JSON.parse keeps the last of a repeated key: rewriting the first would change nothing a reader sees
    expect(shifted('{"seq":1,"t_ms":1,"kind":"cli","seq":5}')).toBe("fallback");
    expect(shifted('{"seq":1,"t_ms":1,"kind":"cli","s\\u0065q":5}')).toBe("fallback");
    expect(shifted('{"seq":1,"t_ms":1,"kind":"mcp","dir":"c2s","stream":2}')).toBe("fallback");
    expect(shifted('{"seq":1,"t_ms":1,"kind":"cli","x":{"t_ms":4}}')).toBe("fallback");
  });
});
