// A harness that starts a private daemon as hermes does (serve in the background, readiness by
// `status --socket`, `stop` at the end), recorded from the real runtime through the shim.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { tmpDir } from "../helpers/tmp-dir.js";

const harness = `
set -e
S="$1"
cua-driver serve --embedded --socket "$S" --no-permissions-gate --permission-mode bounded 2>"$2" &
SERVE=$!
ready=no
for i in $(seq 1 100); do if cua-driver status --socket "$S" >/dev/null 2>&1; then ready=yes; break; fi; sleep 0.1; done
echo "ready=$ready"
cua-driver status --socket "$S"
cua-driver stop --socket "$S"
wait $SERVE && echo "serve exited 0"
cua-driver status --socket "$S" || echo "status after stop exited $?"
`;

describe("record --driver sdk: a private daemon's lifecycle", () => {
  it("serve runs until stop, status answers with the documented texts, and every call is recorded", { timeout: 60_000 }, async () => {
    await using dir = await tmpDir();
    const out = path.join(dir.path, "rec");
    const sock = path.join(dir.path, "private.sock");
    const serveErr = path.join(dir.path, "serve.err");
    const r = await runCli(["record", "--driver", "sdk:0.21.0", "--no-probe", "--out", out, "--", "sh", "-c", harness, "sh", sock, serveErr]);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout).replace(/pid: \d+/, "pid: N")).toBe(
      `ready=yes\nCua Driver daemon is running\n  socket: ${sock}\n  pid: N\nserve exited 0\nstatus after stop exited 1`,
    );
    expect(await readFile(serveErr, "utf8")).toBe(`Cua Driver daemon listening on ${sock}\nCua Driver daemon shutting down.\n`);
    const events = (await readFile(path.join(out, "cassette.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => JSON.parse(l) as { argv: string[]; exit_code: number; origin: string });
    const harnessCalls = events.filter((e) => e.origin === "harness").map((e) => [e.argv[0], e.exit_code]);
    expect(harnessCalls.filter(([c]) => c === "serve")).toEqual([["serve", 0]]);
    expect(harnessCalls.filter(([c]) => c === "stop")).toEqual([["stop", 0]]);
    expect(harnessCalls.filter(([c]) => c === "status").at(-1)).toEqual(["status", 1]);
    expect(harnessCalls.filter(([c, code]) => c === "status" && code === 0).length).toBeGreaterThanOrEqual(2);
  });
});
