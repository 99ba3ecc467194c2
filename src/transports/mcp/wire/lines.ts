/**
 * MCP stdio framing (docs/reference/cua-driver-contract.md §2.2): one JSON-RPC message per line, `\n`-terminated, no
 * Content-Length headers. Chunks arrive cut anywhere, a multi-byte character included: bytes are
 * split at `\n` first and each line decoded whole. What is left when the stream ends is a last,
 * unterminated line.
 */
export interface LineFramer {
  push(chunk: Uint8Array | string): void;
  /** The stream ended: hands on what is left as a last line, if anything is. */
  end(): void;
}

export function createLineFramer(onLine: (line: string) => void): LineFramer {
  const decoder = new TextDecoder("utf-8");
  let partial: Uint8Array = new Uint8Array(0);
  let text = "";
  return {
    push(chunk) {
      if (typeof chunk === "string") {
        text += chunk;
        let nl: number;
        while ((nl = text.indexOf("\n")) >= 0) {
          const line = text.slice(0, nl);
          text = text.slice(nl + 1);
          onLine(line);
        }
        return;
      }
      partial = partial.length > 0 ? concat(partial, chunk) : chunk;
      let nl: number;
      while ((nl = partial.indexOf(0x0a)) >= 0) {
        const line = decoder.decode(partial.subarray(0, nl));
        partial = partial.subarray(nl + 1);
        onLine(line);
      }
      // the caller may reuse the chunk's memory: keep a copy of what waits for its newline
      if (partial.length > 0 && partial.buffer === chunk.buffer) partial = new Uint8Array(partial);
    },
    end() {
      const rest = partial.length > 0 ? decoder.decode(partial) : text;
      partial = new Uint8Array(0);
      text = "";
      if (rest.length > 0) onLine(rest);
    },
  };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
