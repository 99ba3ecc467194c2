// Hand-built driver answers for the replay engine's state-model tests (labelled synthetic where a
// cassette holds them): a two-element look of window 70 of pid 7 under a given snapshot id, and an
// accepted action; an in-process request and a one-rule fault plan to drive the engine with.

import type { ReplayRequest } from "#src/replay/engine/request.js";
import type { FaultPlan } from "#src/schema/fault-plan.js";

export const WINDOW = { pid: 7, window_id: 70 };

/** A get_window_state result: two elements whose tokens belong to `snapshot`. */
export const look = (snapshot: string) =>
  JSON.stringify({
    content: [{ text: "tree", type: "text" }],
    structuredContent: {
      elements: [
        { element_index: 0, element_token: `${snapshot}:0`, label: "Search", role: "text" },
        { element_index: 1, element_token: `${snapshot}:1`, label: "Button Boxes", role: "table cell" },
      ],
      pid: 7,
      snapshot_id: snapshot,
      window_id: 70,
    },
  });

/** An action answered as delivered in the background, effect unverifiable. */
export const ACTION =
  '{"content":[{"text":"ok","type":"text"}],"structuredContent":{"delivery":{"mode":"background"},"effect":"unverifiable","route":"accessibility"}}';

/** An in-process `call` request for the engine. */
export const call = (tool: string, args: Record<string, unknown> = {}, extra: Partial<ReplayRequest> = {}): ReplayRequest => ({
  transport: "inprocess",
  method: "call",
  tool,
  args,
  ...extra,
});

/** A fault plan of one rule: `kind` on the `nth` call of `tool`. */
export const at = (tool: string, nth: number, kind: string, more: Record<string, unknown> = {}): FaultPlan => ({
  rules: [{ match: { tool, nth }, fault: { kind, ...more } as never }],
});
