// A harness for `replay`: makes the recorded setup calls once (start_session), then one recorded
// read-only call N times, each as `cua-driver …` (the replaying shim on PATH), and writes each
// timed call's milliseconds to OUT as JSON. The calls are argv arrays, as JSON.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const [out, n, setup, call] = process.argv.slice(2);
for (const argv of JSON.parse(setup)) execFileSync("cua-driver", argv, { stdio: ["ignore", "ignore", "ignore"] });
const times = [];
for (let i = 0; i < Number(n); i++) {
  const t = performance.now();
  execFileSync("cua-driver", JSON.parse(call), { stdio: ["ignore", "ignore", "ignore"] });
  times.push(performance.now() - t);
}
writeFileSync(out, JSON.stringify(times));
