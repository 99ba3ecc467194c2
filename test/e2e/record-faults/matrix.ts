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
 * Every fault kind, on a click (a mutation) where it can land there, else on a read. Faults
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

/** One rule of a plan: a kind of KINDS on the nth call of its tool. */
type Aimed = (typeof KINDS)[number] & { nth: number };

async function recordAndReplay(options: { mode: "cli" | "mcp"; rules: Aimed[]; driver: Driver; timeoutS: string }) {
  await using dir = await tmpDir();
  const plan = path.join(dir.path, "plan.json");
  await writeFile(plan, JSON.stringify({ rules: options.rules.map((r) => ({ match: { tool: r.tool, nth: r.nth }, fault: r.fault })) }));
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

/** Kinds the harness takes as an answer (a delay, an empty result or a corrupt image still parse): it does not act again. */
const TAKEN_AS_ANSWER = new Set(["delay", "empty", "corrupt_image"]);

/**
 * Every kind once, several to a run, so that a run (on the real runtime a desktop and the runtime
 * reading its app's tree; over per-call CLI a driver started per call) carries two click faults and,
 * in two plans, a read fault. The harness clicks once per act, and once more after a click it could
 * not take as an answer, so the second click fault is aimed at the first click of the second act.
 */
function combinedPlans(): Aimed[][] {
  const clicks = KINDS.filter((k) => k.tool === "click");
  const reads = KINDS.filter((k) => k.tool !== "click");
  const plans: Aimed[][] = [];
  for (let i = 0; i < clicks.length; i += 2) {
    const first = clicks[i]!;
    const plan: Aimed[] = [{ ...first, nth: 1 }];
    const second = clicks[i + 1];
    if (second) plan.push({ ...second, nth: TAKEN_AS_ANSWER.has(String(first.fault.kind)) ? 2 : 3 });
    const read = reads[plans.length];
    if (read) plan.push({ ...read, nth: 1 });
    plans.push(plan);
  }
  return plans;
}

/**
 * Every kind on each of the given transports: one kind to a run (`each`), several to a run
 * (`combined`), or several to a run with the transports taking turns, so that each kind runs once
 * in all (`combined-alternating`: CLI the even plans).
 */
export function matrix(driver: Driver, modes: readonly ("cli" | "mcp")[], options: { timeoutS: string; plans: "each" | "combined" | "combined-alternating" }) {
  for (const mode of modes) {
    const plans =
      options.plans === "each"
        ? KINDS.map((k) => [{ ...k, nth: 1 }])
        : combinedPlans().filter((_, i) => options.plans === "combined" || (i % 2 === 0) === (mode === "cli"));
    for (const rules of plans) {
      const name = rules.map((r) => `${String(r.fault.kind)} on ${r.tool}${r.nth > 1 ? ` #${r.nth}` : ""}`).join(", ");
      it(`${mode}: ${name}`, { timeout: 90_000 }, async () => {
        const run = await recordAndReplay({ mode, rules, driver, timeoutS: options.timeoutS });
        // each rule fired once, where it was aimed, forwarded to the driver exactly when the kind takes effect
        expect([...run.marks].sort((a, b) => a.rule - b.rule)).toEqual(
          rules.map((r, rule) => ({
            kind: r.fault.kind,
            rule,
            ...(Object.keys(r.fault).length > 1 ? { params: expect.any(Object) } : {}),
            forwarded: r.forwarded,
          })),
        );
        expect(run.again).toBe(run.live);
        expect(run.replayed.unmatched, run.replayed.stderr).toBe(0);
        expect(run.replayed.exitCode, run.replayed.stderr).toBe(0);
        // the harness met each fault it could not take as an answer, and recovered through the driver
        for (const tool of new Set(rules.map((r) => r.tool))) {
          const met = rules.filter((r) => r.tool === tool && !TAKEN_AS_ANSWER.has(String(r.fault.kind))).length;
          expect(run.live.match(new RegExp(`^${tool} (unknown|refused) `, "gm"))?.length ?? 0, run.live).toBeGreaterThanOrEqual(met);
        }
        expect(run.live.trim().split("\n").at(-1)).toMatch(/^end_session ok /);
      });
    }
  }
}
