import { describe, expect, it } from "vitest";
import { createLineFramer } from "./lines.js";
import { errorLine, PARSE_ERROR_LINE, resultLine, withId } from "./envelope.js";

const framed = (chunks: (Uint8Array | string)[]) => {
  const lines: string[] = [];
  const framer = createLineFramer((l) => lines.push(l));
  for (const c of chunks) framer.push(c);
  framer.end();
  return lines;
};

describe("MCP line framing", () => {
  it("splits at newlines across chunks, a multi-byte character cut between two of them included", () => {
    const bytes = new TextEncoder().encode('{"a":"é"}\n{"b":1}\n{"c"');
    const cut = bytes.indexOf(0xc3) + 1; // inside "é"
    expect(framed([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(['{"a":"é"}', '{"b":1}', '{"c"']);
  });

  it("hands on the unterminated rest once, at the end, and nothing for a clean end", () => {
    expect(framed(["x\ny"])).toEqual(["x", "y"]);
    expect(framed(["x\n"])).toEqual(["x"]);
    expect(framed([])).toEqual([]);
  });

  it("keeps what waits for its newline even when the caller reuses the chunk's memory", () => {
    const lines: string[] = [];
    const framer = createLineFramer((l) => lines.push(l));
    const buffer = new TextEncoder().encode("abc");
    framer.push(buffer);
    buffer.set(new TextEncoder().encode("zzz"));
    framer.push(new TextEncoder().encode("\n"));
    expect(lines).toEqual(["abc"]);
  });
});

describe("the JSON-RPC envelope", () => {
  it("writes cua-driver's struct order and keeps the id as it came", () => {
    expect(resultLine('"x"', '{"content":[]}')).toBe('{"jsonrpc":"2.0","id":"x","result":{"content":[]}}');
    expect(errorLine("7", -32601, 'Unknown method: "a"')).toBe('{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"Unknown method: \\"a\\""}}');
    expect(PARSE_ERROR_LINE).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}');
  });

  it("swaps the id of a recorded line, every other byte kept", () => {
    expect(withId('{"jsonrpc":"2.0","id":1,"result":{"a":1.0}}', "42")).toBe('{"jsonrpc":"2.0","id":42,"result":{"a":1.0}}');
    expect(withId('{"result":{"a":1.0},"id":1,"jsonrpc":"2.0"}', '"s"')).toBe('{"result":{"a":1.0},"id":"s","jsonrpc":"2.0"}');
  });
});
