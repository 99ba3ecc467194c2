import { describe, expect, it } from "vitest";
import type { CassetteEvent } from "../../schema/cassette.js";
import { assignEpochs, buildExchanges } from "./exchanges.js";
import { createHeldMutations } from "./held-mutations.js";
import { keyOptions } from "./match-key.js";
import { cliRequest } from "./request.js";

const ev = (seq: number, argv: string[], extra: Partial<CassetteEvent> = {}): CassetteEvent =>
  ({ seq, t_ms: seq, kind: "cli", duration_ms: 1, argv, stdout: "{}\n", stderr: "", exit_code: 0, origin: "harness", ...extra }) as CassetteEvent;
const CLICK_OLD = ["call", "click", '{"pid":1,"window_id":2,"element_token":"s00000001:3"}'];
const CLICK_NEW = ["call", "click", '{"pid":1,"window_id":2,"element_token":"s00000002:3"}'];
const tbe = { kind: "timeout_before_effect" as const, rule: 0, forwarded: false };

// a recording with timeout_before_effect on the first click: rebuild, re-read, the click sent anew
const events = [
  ev(0, ["call", "get_window_state", '{"pid":1,"window_id":2}']),
  ev(1, CLICK_OLD, { stdout: "", exit_code: null, signal: "SIGKILL", fault: tbe } as Partial<CassetteEvent>),
  ev(2, ["call", "start_session", '{"session":"rf"}']),
  ev(3, ["call", "get_window_state", '{"pid":1,"window_id":2}']),
  ev(4, CLICK_NEW),
];

describe("mutations a recording fault kept from the driver", () => {
  it("end no epoch, and a replayed request with the same fault takes them once", () => {
    const exchanges = buildExchanges({ events });
    assignEpochs(exchanges);
    expect(exchanges.map((x) => x.epoch)).toEqual([0, 0, 0, 1, 1]);
    expect(exchanges[1]!.fault).toEqual(tbe);
    const held = createHeldMutations({ exchanges, keys: keyOptions({}) });
    const fault = { rule: 0, fault: { kind: "timeout_before_effect" as const } };
    expect(held.take({ request: cliRequest({ argv: CLICK_NEW }), epoch: 0, fault })).toBeUndefined(); // another key
    expect(held.take({ request: cliRequest({ argv: CLICK_OLD }), epoch: 0, fault: { rule: 0, fault: { kind: "hang" } } })).toBeUndefined(); // another fault
    expect(held.take({ request: cliRequest({ argv: CLICK_OLD }), epoch: 1, fault })).toBeUndefined(); // another epoch
    expect(held.untaken()).toEqual([1]);
    expect(held.take({ request: cliRequest({ argv: CLICK_OLD }), epoch: 0, fault })?.seq).toBe(1);
    expect(held.take({ request: cliRequest({ argv: CLICK_OLD }), epoch: 0, fault })).toBeUndefined();
    expect(held.untaken()).toEqual([]);
  });

  it("a forwarded faulted mutation ends its epoch like any other", () => {
    const exchanges = buildExchanges({ events: events.map((e) => (e.seq === 1 ? ({ ...e, fault: { ...tbe, kind: "timeout_after_effect", forwarded: true } } as CassetteEvent) : e)) });
    assignEpochs(exchanges);
    expect(exchanges.map((x) => x.epoch)).toEqual([0, 0, 1, 2, 2]);
    expect(createHeldMutations({ exchanges, keys: keyOptions({}) }).untaken()).toEqual([]);
  });
});
