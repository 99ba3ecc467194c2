/**
 * Moving an event's numbers (seq, t_ms, an MCP stream) without decoding the rest of its line, as
 * `cassette merge` does to cassette B's events. A line as cua-contract writes it starts with its
 * top-level `seq` and `t_ms`; an MCP event's `stream` follows `kind` (after `origin` and `added`,
 * when present). Those numbers are rewritten and the rest is copied byte for byte. A line laid out
 * otherwise, or one that could name a key a second time further on (JSON.parse keeps the last), is
 * left to the caller (`undefined`).
 */

const HEAD = /^\{"seq":(\d+),"t_ms":(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?),/;
const STREAM = /^((?:"origin":"[a-z]+",)?(?:"added":\{[^{}]*\},)?"kind":"[a-z_]+",)"stream":(\d+),/;
const HEAD_BYTES = 512;
const [SEQ_KEY, T_KEY, STREAM_KEY, ESCAPE] = ['"seq":', '"t_ms":', '"stream":', "\\u"].map((s) => Buffer.from(s)) as [Buffer, Buffer, Buffer, Buffer];

export interface Shift {
  seq: number;
  t: number;
  stream: number;
}

/** The line with its numbers moved: the new first bytes, the rest of the line (a view of `line`), and the new seq. */
export function shiftLineHead(line: Buffer, shift: Shift): { head: string; rest: Buffer; seq: number } | undefined {
  const text = line.toString("latin1", 0, Math.min(line.length, HEAD_BYTES));
  const m = HEAD.exec(text);
  if (!m) return undefined;
  let end = m[0].length;
  // a key written again later (plainly, or with \u escapes in its name) would be the one a reader keeps
  if (line.indexOf(ESCAPE, end) >= 0 || line.indexOf(SEQ_KEY, end) >= 0 || line.indexOf(T_KEY, end) >= 0) return undefined;
  const seq = Number(m[1]) + shift.seq;
  let head = `{"seq":${seq},"t_ms":${Number(m[2]) + shift.t},`;
  if (line.indexOf(STREAM_KEY, end) >= 0) {
    // in a string a quote is escaped: "stream": is a key, and only the top-level one right after kind is moved
    const s = STREAM.exec(text.slice(end));
    if (!s) return undefined;
    end += s[0].length;
    if (line.indexOf(STREAM_KEY, end) >= 0) return undefined;
    head += `${s[1]}"stream":${Number(s[2]) + shift.stream},`;
  }
  return { head, rest: line.subarray(end), seq };
}
