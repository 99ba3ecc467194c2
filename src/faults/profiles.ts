import { REFUSAL } from "#src/driver/refusals.js";
import type { FaultPlan } from "#src/schema/fault-plan.js";

/**
 * Named fault profiles (`--faults profile:NAME`): the failures real harnesses met, bundled with
 * rates drawn from the field reports each one cites (docs/faults.md, "Profiles"). A profile is a
 * plain fault plan; its probability rules draw from the run's seed (`--seed`, default 0), so a
 * profile replays identically by seed.
 */
export interface FaultProfile {
  readonly name: string;
  /** One line for the CLI's help. */
  readonly summary: string;
  /** Public reports the kinds and rates come from. */
  readonly sources: readonly string[];
  readonly plan: FaultPlan;
}

const OSWORLD_PAPERCUTS = "https://github.com/trycua/cua/blob/main/libs/cua-driver/docs/research/2026-09-osworld/03-papercuts.md";
const IDLE_SESSION_ISSUE = "https://github.com/trycua/cua/issues/3433";
const IDLE_TTL_RFC = "https://github.com/trycua/cua/pull/3009";

/** The pointer and element actions the OSWorld report saw stall or do nothing. */
const POINTER = "*click";

const PROFILES: readonly FaultProfile[] = [
  {
    name: "osworld-stall",
    summary: "an element click stalls, then every call is about 62 s late until the harness rebuilds",
    sources: [OSWORLD_PAPERCUTS],
    // papercuts 23, 27, 33: two stalls in two runs of a 25-action budget; ~62 s per later call
    plan: { rules: [{ match: { tool: POINTER, probability: 0.04 }, fault: { kind: "stall", ms: 62_000 } }] },
  },
  {
    name: "osworld-no-effect",
    summary: "clicks answered as delivered while nothing changes on screen",
    sources: [OSWORLD_PAPERCUTS],
    // papercuts 25, 29, 36: every GTK menu click said "Clicked" and changed nothing (five in a row)
    plan: { rules: [{ match: { tool: POINTER, probability: 0.3 }, fault: { kind: "no_effect" } }] },
  },
  {
    name: "osworld-late-refusal",
    summary: "typing refused background_unavailable after 13-26 s",
    sources: [OSWORLD_PAPERCUTS],
    // papercuts 29, 35, 41: the refusal took 13.3 s and 25.6 s (13-34 s while probing); most background typing was refused
    plan: {
      rules: [
        {
          match: { tool: "type_text", probability: 0.5 },
          fault: { kind: "refusal", code: REFUSAL.background_unavailable, delay: { ms: 19_500, jitter_ms: 6_500 } },
        },
      ],
    },
  },
  {
    name: "osworld-freeze",
    summary: "typing freezes the X session: nothing answers until the harness rebuilds",
    sources: [OSWORLD_PAPERCUTS],
    // papercuts 28, 29: the foreground typing route froze the session in both driver runs
    plan: { rules: [{ match: { tool: "type_text", probability: 0.1 }, fault: { kind: "freeze" } }] },
  },
  {
    name: "sdk-buffer",
    summary: "a full-resolution screenshot larger than a client's 1 MiB stdio line buffer",
    sources: [OSWORLD_PAPERCUTS],
    // papercut 18: get_desktop_state's full-resolution PNG passed the Agent SDK's 1 MB buffer
    plan: { rules: [{ match: { tool: "get_desktop_state" }, fault: { kind: "oversized", bytes: 1_048_576 } }] },
  },
  {
    name: "idle-session",
    summary: "the driver ends the session after 5 idle minutes while status and health stay healthy",
    sources: [IDLE_SESSION_ISSUE, IDLE_TTL_RFC],
    // the default idle TTL is five minutes; health reads do not refresh it; only start_session revives
    plan: { rules: [{ match: { nth: 1 }, fault: { kind: "session_expired", after_ms: 300_000 } }] },
  },
  {
    name: "osworld",
    summary: "all of the OSWorld report's failures at once, at its rates",
    sources: [OSWORLD_PAPERCUTS],
    plan: {
      rules: [
        { match: { tool: "type_text", probability: 0.1 }, fault: { kind: "freeze" } },
        {
          match: { tool: "type_text", probability: 0.5 },
          fault: { kind: "refusal", code: REFUSAL.background_unavailable, delay: { ms: 19_500, jitter_ms: 6_500 } },
        },
        { match: { tool: POINTER, probability: 0.04 }, fault: { kind: "stall", ms: 62_000 } },
        { match: { tool: POINTER, probability: 0.3 }, fault: { kind: "no_effect" } },
        { match: { tool: "get_desktop_state" }, fault: { kind: "oversized", bytes: 1_048_576 } },
      ],
    },
  },
];

/** Every profile, in the order the help lists them. */
export const FAULT_PROFILES: readonly FaultProfile[] = PROFILES;

export const PROFILE_PREFIX = "profile:";

export function faultProfile(name: string): FaultProfile | undefined {
  return PROFILES.find((p) => p.name === name);
}

/** `osworld-stall, osworld-no-effect, …`: for help texts and error fixes. */
export function profileNames(): string {
  return PROFILES.map((p) => p.name).join(", ");
}
