import { describe, expect, it } from "vitest";
import { checkBatchSize, checkWaitBudget } from "./batch-budget.js";
import { checkLoopGuard, initialLoopGuardState, recordLoopStep, type LoopGuardState, type LoopStep } from "./loop-guard.js";
import { checkStaleClick, initialStaleClickState, recordClick, recordObservation } from "./stale-click.js";

function run(steps: LoopStep[]): LoopGuardState {
  return steps.reduce(recordLoopStep, initialLoopGuardState());
}
const click: LoopStep = { kind: "mutation", key: "click a", failed: false };
const look: LoopStep = { kind: "observation", key: "observe", failed: false };
const wait: LoopStep = { kind: "wait", key: "wait", failed: false };

describe("loop guard", () => {
  it("pauses after the same mutation 6 times, not 5", () => {
    expect(checkLoopGuard(run(Array(5).fill(click))).ok).toBe(true);
    const s = run(Array(6).fill(click));
    expect(s.paused).toBe("the same action was sent 6 times in a row");
    expect(checkLoopGuard(s).ok).toBe(false);
  });

  it("observations and waits neither count nor reset the streak", () => {
    const s = run([click, look, click, wait, click, look, look, click, click, wait, click]);
    expect(s.paused).toMatch(/6 times/);
    expect(run(Array(50).fill(look)).paused).toBeUndefined();
  });

  it("a different mutation resets the same-action streak", () => {
    expect(run([...Array(5).fill(click), { ...click, key: "click b" }, ...Array(5).fill(click)]).paused).toBeUndefined();
  });

  it("pauses after the same error 8 times", () => {
    const err = (i: number): LoopStep => ({ kind: "mutation", key: `k${i}`, failed: true, error: "stale_frame" });
    expect(run(Array.from({ length: 7 }, (_, i) => err(i))).paused).toBeUndefined();
    expect(run(Array.from({ length: 8 }, (_, i) => err(i))).paused).toBe("the same error came back 8 times in a row");
  });

  it("pauses after 14 failures in a row, and a success resets the count", () => {
    const fail = (i: number): LoopStep => ({ kind: "mutation", key: `k${i}`, failed: true, error: `e${i}` });
    expect(run(Array.from({ length: 14 }, (_, i) => fail(i))).paused).toBe("14 steps failed in a row");
    const broken = [...Array.from({ length: 13 }, (_, i) => fail(i)), { ...click, key: "ok" }, ...Array.from({ length: 13 }, (_, i) => fail(i + 20))];
    expect(run(broken).paused).toBeUndefined();
  });
});

describe("batch budget", () => {
  it("holds 1 to 64 steps", () => {
    expect(checkBatchSize(64).ok).toBe(true);
    expect(checkBatchSize(1).ok).toBe(true);
    const r = checkBatchSize(65);
    expect(!r.ok && r.note).toBe("A batch holds at most 64 steps; this one has 65. Nothing was run.");
    expect(checkBatchSize(0).ok).toBe(false);
  });

  it("waits share 60 s", () => {
    expect(checkWaitBudget({ usedMs: 30_000, waitMs: 30_000 }).ok).toBe(true);
    expect(checkWaitBudget({ usedMs: 30_000, waitMs: 30_001 }).ok).toBe(false);
  });
});

describe("stale-click guard", () => {
  it("blocks a third click on the same target after two clicks with no visible change", () => {
    let s = initialStaleClickState();
    for (let i = 0; i < 2; i++) {
      expect(checkStaleClick(s, "ok-button").ok).toBe(true);
      s = recordObservation(recordClick(s, "ok-button", false), false);
    }
    const r = checkStaleClick(s, "ok-button");
    expect(r.ok).toBe(false);
    expect(!r.ok && r.note).toMatch(/2 times with no visible change/);
    expect(checkStaleClick(s, "cancel-button").ok).toBe(true);
  });

  it("a visible change or a confirmed effect resets the streak", () => {
    let s = recordObservation(recordClick(initialStaleClickState(), "t", false), false);
    s = recordObservation(recordClick(s, "t", false), true);
    expect(s.unchanged).toBe(0);
    s = recordObservation(recordClick(s, "t", false), false);
    s = recordClick(s, "t", true);
    expect(checkStaleClick(s, "t").ok).toBe(true);
  });

  it("clicks without an observation in between do not count as unchanged", () => {
    let s = initialStaleClickState();
    for (let i = 0; i < 5; i++) s = recordClick(s, "t", false);
    expect(checkStaleClick(s, "t").ok).toBe(true);
  });
});

describe("loop guard and refused steps", () => {
  it("a refused step that sent nothing neither extends nor breaks the same-action streak", () => {
    const blockedType: LoopStep = { kind: "mutation", key: "type_text", failed: true, error: "typed_text", sent: false };
    const s = run([click, blockedType, click, click, click, click, click]);
    expect(s.paused).toBe("the same action was sent 6 times in a row");
  });
});
