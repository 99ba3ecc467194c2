// Runs a stdio server and keeps a copy of what passes: tee-stdio.mjs DIR -- COMMAND [ARGS...]
// Every byte the client writes goes to the server and to DIR/c2s, every byte the server writes goes
// to the client and to DIR/s2c (the server's stderr passes through). Exits with the server's code;
// a SIGTERM is passed on to the server.
import { spawn } from "node:child_process";
import { appendFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const [dir, dashdash, command, ...args] = process.argv.slice(2);
if (dashdash !== "--" || !command) {
  console.error("usage: tee-stdio.mjs DIR -- COMMAND [ARGS...]");
  process.exit(2);
}
const c2s = path.join(dir, "c2s");
const s2c = path.join(dir, "s2c");
writeFileSync(c2s, "");
writeFileSync(s2c, "");
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
process.stdin.on("data", (chunk) => {
  appendFileSync(c2s, chunk);
  child.stdin.write(chunk);
});
process.stdin.on("end", () => child.stdin.end());
child.stdin.on("error", () => {});
child.stdout.on("data", (chunk) => {
  appendFileSync(s2c, chunk);
  process.stdout.write(chunk);
});
process.on("SIGTERM", () => child.kill("SIGTERM"));
child.on("close", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
