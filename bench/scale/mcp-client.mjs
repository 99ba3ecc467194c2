// A bare MCP stdio client: sends the recorded initialize and setup calls (start_session), then one
// recorded read-only tools/call N times, one at a time, and returns each timed call's milliseconds.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";

export async function mcpCalls({ command, args, initialize, setup = [], call, n, env }) {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "ignore"], env: env ?? process.env });
  const lines = createInterface({ input: child.stdout });
  const waiting = new Map();
  lines.on("line", (line) => {
    let id;
    try {
      id = JSON.parse(line).id;
    } catch {
      return;
    }
    waiting.get(id)?.(line);
    waiting.delete(id);
  });
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const send = (message) =>
    new Promise((resolve, reject) => {
      waiting.set(message.id, resolve);
      child.stdin.write(`${JSON.stringify(message)}\n`);
      exited.then((e) => reject(new Error(`the server exited (${JSON.stringify(e)}) before answering ${message.method}`)));
    });
  const times = [];
  try {
    await send({ ...initialize, id: 1 });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    for (const [i, message] of setup.entries()) await send({ ...message, id: 10 + i });
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const answer = await send({ ...call, id: 1000 + i });
      times.push(performance.now() - t);
      if (i === 0 && !/^\{"jsonrpc":"2\.0","id":\d+,"result"/.test(answer)) throw new Error(`the first call failed: ${answer.slice(0, 300)}`);
    }
  } finally {
    child.stdin.end();
    await exited;
  }
  return times;
}
