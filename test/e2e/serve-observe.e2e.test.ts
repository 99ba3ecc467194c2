import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { cliPath, repoRoot } from "../helpers/run-cli.js";
import { tmpDir } from "../helpers/tmp-dir.js";

// A harness that `serve` does not start gets the observation file by name: `serve --observe FILE`,
// handed to the harness as CUA_CONTRACT_OBSERVE.
describe("serve --observe", () => {
  const CASSETTE = path.join(repoRoot, "recordings/gtk3-demo-mcp");
  const target = { pid: 29390, window_id: 4194311, session: "fixture-harness" };
  const call = (id: number, name: string, args: object) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

  async function session(declare: boolean) {
    await using dir = await tmpDir();
    const observe = path.join(dir.path, "looks.txt");
    writeFileSync(observe, "a line from an earlier run: not this run's\n");
    const plan = path.join(dir.path, "plan.json");
    // the click's answer is lost: the proxy's daemon error, the stream goes on
    writeFileSync(plan, JSON.stringify({ rules: [{ match: { tool: "click", nth: 1 }, fault: { kind: "daemon_died_midcall", mode: "proxy" } }] }));
    const child = execa("node", [cliPath, "serve", CASSETTE, "--transport", "mcp", "--faults", plan, "--observe", observe], { reject: false });
    const answers: string[] = [];
    let buffered = "";
    child.stdout!.on("data", (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      answers.push(...lines);
    });
    const ask = async (line: string) => {
      const before = answers.length;
      child.stdin!.write(`${line}\n`);
      for (let i = 0; i < 200 && answers.length === before; i++) await new Promise((r) => setTimeout(r, 10));
    };
    const click = { ...target, element_token: "s00000002:18" };
    await ask(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    );
    await ask(call(1, "start_session", { session: "fixture-harness" }));
    await ask(call(2, "list_windows", {}));
    await ask(call(3, "get_window_state", target));
    // the recording typed first (its text stored redacted: the placeholder matches itself)
    await ask(call(4, "type_text", { ...target, text: "«redacted:text:a494af93»", delivery_mode: "foreground" }));
    await ask(call(5, "click", click));
    if (declare) writeFileSync(observe, "read the app's own state\n", { flag: "a" });
    await ask(call(6, "click", click));
    child.stdin!.end();
    const run = await child;
    return { run, mode: statSync(observe).mode & 0o777, kept: readFileSync(observe, "utf8") };
  }

  it("a click re-sent after its answer was lost is a violation without a declared look", async () => {
    const { run } = await session(false);
    expect(run.stderr).not.toContain("UNMATCHED");
    expect(run.stderr).toMatch(/violation no-replay-after-unknown: #6 click .* re-sends #5 click/);
    expect(run.exitCode).toBe(1);
  });

  it("with a line in the file between the two clicks there is none; earlier lines are not this run's", async () => {
    const { run, kept } = await session(true);
    expect(run.stderr).not.toContain("UNMATCHED");
    expect(run.stderr).toMatch(/served 6, unmatched 0, faults injected 1/);
    expect(run.stderr).not.toContain("violation no-replay-after-unknown");
    // a look is not a rebuild: after a daemon death the session still needs one
    expect(run.stderr).toContain("violation rebuild-before-mutation: #6 click");
    expect(kept).toBe("a line from an earlier run: not this run's\nread the app's own state\n");
  });

  it("a file it cannot open is a usage error naming --observe", async () => {
    const r = await execa("node", [cliPath, "serve", CASSETTE, "--transport", "mcp", "--observe", "/nonexistent-dir/looks.txt"], { reject: false, input: "" });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("--observe");
    expect(r.stderr).toContain("/nonexistent-dir/looks.txt");
  });
});
