// The shim's wire format: 1 byte type, 4 bytes big-endian length, payload. Small enough to speak
// from a dependency-free node script and from a few lines of C.

/** Shim → server: D cwd, T stdin-is-tty, A argv item, E env `K=V`, G header done, I stdin bytes, Z stdin EOF. */
export type ShimToServer = "D" | "T" | "A" | "E" | "G" | "I" | "Z";
/** Server → shim: W start reading stdin, O stdout bytes, R stderr bytes, X exit code, S signal number. */
export type ServerToShim = "W" | "O" | "R" | "X" | "S";

export function encodeFrame(type: ServerToShim | ShimToServer, payload: Uint8Array | string = ""): Buffer {
  const body = typeof payload === "string" ? Buffer.from(payload) : payload;
  const head = Buffer.alloc(5);
  head[0] = type.charCodeAt(0);
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

/** Splits a byte stream into frames; feed it chunks, it calls `onFrame` per complete frame. */
export function createFrameDecoder(onFrame: (type: string, body: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let offset = 0;
    while (pending.length - offset >= 5) {
      const len = pending.readUInt32BE(offset + 1);
      if (pending.length - offset < 5 + len) break;
      const type = String.fromCharCode(pending[offset]!);
      onFrame(type, pending.subarray(offset + 5, offset + 5 + len));
      offset += 5 + len;
    }
    pending = offset === 0 ? pending : pending.subarray(offset);
  };
}
