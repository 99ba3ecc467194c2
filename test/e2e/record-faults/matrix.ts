// What the `record --faults` tests share: every fault kind, a record-then-replay run, and the matrix
// of tests (record-faults.e2e.test.ts against the fake driver, record-faults-desktop-*.e2e.test.ts
// against the real runtime, one file per transport so the desktop runs go side by side).
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect, it } from "vitest";
import { record } from "#src/recorder/record-session.js";
import { readFaultPlan, replay } from "#src/transports/run-replay.js";
import { repoRoot, runCli } from "../../helpers/run-cli.js";
import { tmpDir } from "../../helpers/tmp-dir.js";

const HARNESS = path.join(repoRoot, "test/e2e/record-faults/fail-closed.py");
export const FAKE = path.join(repoRoot, "test/fixtures/drivers/cua-driver-0.21.0");
/**
 * The harness's own per-call timeout: well above a live answer's latency on a loaded machine, or a
 * slow live answer would read as a fault and the replay (which answers at once) would differ. The
 * real runtime's click takes ~0.3 s alone and over 2.5 s with several desktops busy on two cores.
 * Replays, which answer at once, run with the fake's.
 */
export const TIMEOUT_S = { fake: "2.5", desktop: "8" } as const;

/**
 * Every fault kind, on the first click (a mutation) where it can land there, else on a read. Faults
 * after the effect are forwarded: the real answer recorded and withheld. Faults before the effect
 * never reach the driver: the recorded click is consumed on replay without ending its epoch, so the
 * click sent anew after the recovery meets the real one recorded after it.
 */
const KINDS: { fault: Record<string, unknown>; tool: string; forwarded: boolean }[] = [
  { fault: { kind: "timeout_after_effect" }, tool: "click", forwarded: true },
  { fault: { kind: "delay", ms: 200 }, tool: "click", forwarded: true },
  { fault: { kind: "truncated" }, tool: "click", forwarded: true },
  { fault: { kind: "empty" }, tool: "click", forwarded: true },
  { fault: { kind: "corrupt_image" }, tool: "get_window_state", forwarded: true },
  { fault: { kind: "timeout_before_effect" }, tool: "click", forwarded: false },
  { fault: { kind: "hang" }, tool: "click", forwarded: false },
  { fault: { kind: "daemon_died_midcall" }, tool: "click", forwarded: false },
  { fault: { kind: "daemon_down" }, tool: "list_windows", forwarded: false },
  { fault: { kind: "exit", code: 3, stderr: "boom\n" }, tool: "click", forwarded: false },
  { fault: { kind: "refusal", code: "stale_element_token" }, tool: "click", forwarded: false },
];

/**
 * How a recording is made: the CLI spawned with these driver flags (the real runtime on a desktop
 * must not live in the test process: its X connections outlive the desktop), or the record API in
 * this process against an executable driver. The replay runs in this process either way.
 */
export type Driver = { cli: string[] } | { inProcess: { driver: string; driverSource: "binary" | "synthetic" } };

async function recordAndReplay(options: { mode: "cli" | "mcp"; fault: Record<string, unknown>; tool: string; driver: Driver; timeoutS: string }) {
  await using dir = await tmpDir();
  const plan = path.join(dir.path, "plan.json");
  await writeFile(plan, JSON.stringify({ rules: [{ match: { tool: options.tool, nth: 1 }, fault: options.fault }] }));
  const out = path.join(dir.path, "rec");
  const live = path.join(dir.path, "live.txt");
  const again = path.join(dir.path, "replayed.txt");
  // Replay answers at once, so the replayed harness waits out its timeout only on the faulted call:
  // it is given the short one, and must still print the same bytes.
  const harness = (file: string, timeoutS = options.timeoutS) => ["python3", HARNESS, options.mode, timeoutS, file];
  if ("cli" in options.driver) {
    const recorded = await runCli(["record", "--out", out, ...options.driver.cli, "--faults", plan, "--", ...harness(live)]);
    expect(recorded.exitCode, String(recorded.stderr)).toBe(0);
  } else {
    const recorded = await record({ out, command: harness(live), ...options.driver.inProcess, faults: readFaultPlan(plan), harness: { output: "pipe" } });
    expect(recorded.exitCode, recorded.harnessOutput?.stderr).toBe(0);
  }
  // the replay reaches no driver, so it runs in this process whatever recorded the cassette
  const notices: string[] = [];
  const r = await replay({
    dir: out,
    command: harness(again, TIMEOUT_S.fake),
    faultsFile: plan,
    onNotice: (m) => notices.push(m),
    harness: { output: "pipe" },
  });
  const replayed = { exitCode: r.exitCode, unmatched: r.unmatched, stderr: [...notices, r.harnessOutput?.stderr ?? ""].join("\n") };
  const events = (await readFile(path.join(out, "cassette.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => JSON.parse(l) as { fault?: { kind: string; forwarded: boolean; rule: number } });
  return { replayed, live: await readFile(live, "utf8"), again: await readFile(again, "utf8"), marks: events.flatMap((e) => (e.fault ? [e.fault] : [])) };
}

/** Every kind on the given transports, or (`alternate`) every kind once, the transports taking turns (CLI the even kinds). */
export function matrix(driver: Driver, modes: readonly ("cli" | "mcp")[], options: { timeoutS: string; alternate?: boolean }) {
  for (const mode of modes) {
    for (const [i, k] of KINDS.entries()) {
      if (options.alternate && (i % 2 === 0) !== (mode === "cli")) continue;
      it(`${mode}: ${String(k.fault.kind)} on ${k.tool}`, { timeout: 90_000 }, async () => {
        const run = await recordAndReplay({ mode, fault: k.fault, tool: k.tool, driver, timeoutS: options.timeoutS });
        expect(run.marks).toEqual([
          { kind: k.fault.kind, rule: 0, ...(Object.keys(k.fault).length > 1 ? { params: expect.any(Object) } : {}), forwarded: k.forwarded },
        ]);
        expect(run.again).toBe(run.live);
        expect(run.replayed.unmatched, run.replayed.stderr).toBe(0);
        expect(run.replayed.exitCode, run.replayed.stderr).toBe(0);
        // the harness met the fault (a delay, an empty result or a corrupt image still parse) and recovered through the driver
        if (!["delay", "empty", "corrupt_image"].includes(String(k.fault.kind))) expect(run.live).toMatch(new RegExp(`^${k.tool} (unknown|refused) `, "m"));
        expect(run.live.trim().split("\n").at(-1)).toMatch(/^end_session ok /);
      });
    }
  }
}
