/**
 * Moving an event's numbers (seq, t_ms, an MCP stream) without decoding the rest of its line, as
 * `cassette merge` does to cassette B's events. A line as cua-contract writes it starts with its
 * top-level `seq`, `t_ms`, [`origin`, `added`,] `kind` [, `stream`]: those few bytes are rewritten
 * and the rest is copied byte for byte. A line laid out otherwise, or one that could name a key a
 * second time further on (JSON.parse keeps the last), is left to the caller (`undefined`).
 */

const HEAD = /^\{"seq":(\d+),"t_ms":(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?),((?:"origin":"[a-z]+",)?(?:"added":\{[^{}]*\},)?"kind":"[a-z_]+",)(?:"stream":(\d+),)?/;
const HEAD_BYTES = 512;
const AGAIN = ['"seq":', '"t_ms":', '"stream":', "\\u"].map((s) => Buffer.from(s));

export interface Shift {
  seq: number;
  t: number;
  stream: number;
}

/** The line with its numbers moved: the new first bytes, the rest of the line (a view of `line`), and the new seq. */
export function shiftLineHead(line: Buffer, shift: Shift): { head: string; rest: Buffer; seq: number } | undefined {
  const m = HEAD.exec(line.toString("latin1", 0, Math.min(line.length, HEAD_BYTES)));
  if (!m) return undefined;
  const headBytes = m[0].length;
  // a key written again later (plainly, or with \u escapes in its name) would be the one a reader keeps
  for (const again of AGAIN) if (line.indexOf(again, headBytes) >= 0) return undefined;
  const seq = Number(m[1]) + shift.seq;
  const t = Number(m[2]) + shift.t;
  const stream = m[4] === undefined ? "" : `"stream":${Number(m[4]) + shift.stream},`;
  return { head: `{"seq":${seq},"t_ms":${t},${m[3]}${stream}`, rest: line.subarray(headBytes), seq };
}
