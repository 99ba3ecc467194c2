// Stands between an MCP client and an MCP stdio server: starts argv[3..] with the same stdin and
// stderr, passes its stdout on unchanged, and appends every line it writes, as written, to the file
// argv[2] as {"stream": <this process's pid>, "line": ...} (one JSON line each, written at once, so
// a stream the client kills keeps what it saw).
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";

const [file, command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["inherit", "pipe", "inherit"] });
let rest = "";
child.stdout.setEncoding("utf8");
child.stdout.on("data", (chunk) => {
  process.stdout.write(chunk);
  const parts = (rest + chunk).split("\n");
  rest = parts.pop();
  for (const line of parts) appendFileSync(file, `${JSON.stringify({ stream: process.pid, line })}\n`);
});
child.on("exit", (code) => process.exit(code ?? 1));
