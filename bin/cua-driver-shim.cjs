// cua-driver shim (node fallback): forwards argv, env, cwd and stdin to the cua-contract session
// over the unix socket beside this file and mirrors stdout, stderr and the exit code or signal back.
// Dependency-free on purpose: it runs once per driver call. Frames: 1 byte type, 4 bytes length, payload.
"use strict";
const net = require("node:net");
const path = require("node:path");
const os = require("node:os");

const socketPath = process.env.CUA_CONTRACT_SHIM_SOCKET_OVERRIDE || path.join(__dirname, "s.sock");
const sock = net.connect(socketPath);

function frame(type, payload) {
  const body = Buffer.isBuffer(payload) ? payload : Buffer.from(String(payload));
  const head = Buffer.alloc(5);
  head[0] = type.charCodeAt(0);
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

const out = [frame("D", process.cwd()), frame("T", process.stdin.isTTY ? "1" : "0")];
for (const arg of process.argv.slice(2)) out.push(frame("A", arg));
for (const [k, v] of Object.entries(process.env)) out.push(frame("E", `${k}=${v}`));
out.push(frame("G", ""));
sock.write(Buffer.concat(out));

let pending = Buffer.alloc(0);
let writes = 0;
let finish = null;
function written() {
  writes--;
  if (writes === 0 && finish) finish();
}
function emit(stream, data) {
  writes++;
  stream.write(data, written);
}
function done(fn) {
  if (writes === 0) fn();
  else finish = fn;
}
function wantStdin() {
  process.stdin.on("data", (chunk) => sock.write(frame("I", chunk)));
  process.stdin.on("end", () => sock.write(frame("Z", "")));
  process.stdin.on("error", () => sock.write(frame("Z", "")));
}
let ended = false;
sock.on("data", (chunk) => {
  pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
  while (pending.length >= 5) {
    const len = pending.readUInt32BE(1);
    if (pending.length < 5 + len) break;
    const type = String.fromCharCode(pending[0]);
    const body = pending.subarray(5, 5 + len);
    pending = pending.subarray(5 + len);
    if (type === "O") emit(process.stdout, body);
    else if (type === "R") emit(process.stderr, body);
    else if (type === "W") wantStdin();
    else if (type === "X") {
      ended = true;
      done(() => process.exit(Number(body.toString())));
    } else if (type === "S") {
      ended = true;
      const signo = Number(body.toString());
      const name = Object.keys(os.constants.signals).find((n) => os.constants.signals[n] === signo) || "SIGTERM";
      done(() => {
        process.removeAllListeners(name);
        process.kill(process.pid, name);
        setTimeout(() => process.exit(128 + signo), 1000);
      });
    }
  }
});
sock.on("error", (err) => {
  if (ended) return;
  process.stderr.write(`cua-driver shim: cannot reach the cua-contract session at ${socketPath}: ${err.message}\n`);
  process.exit(1);
});
sock.on("close", () => {
  if (ended) return;
  process.stderr.write("cua-driver shim: the cua-contract session closed the connection without an exit status\n");
  done(() => process.exit(1));
});
process.stdout.on("error", () => {});
