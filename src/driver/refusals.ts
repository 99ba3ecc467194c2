/**
 * The one table of cua-driver's refusal codes (docs/decisions/0220): for each code, the envelope
 * its tool result carries, the text the driver itself uses where it is known, and what the code
 * means to the toolkit. Every list of refusal codes elsewhere is read off this table; a new code
 * is one row here. Envelopes (0.21 source, docs/reference/cua-driver-contract.md §3.2,
 * docs/faults.md): element/daemon style `{refusal:{code,message},status:"refused"}`, target style
 * `{candidates,code,effect:"refused",pid}`, the `background_unavailable` escalation, and flat `{code}`.
 */

export type RefusalEnvelope = "element" | "target" | "background" | "flat";

export type RefusalFlag =
  /**
   * The frame or element the harness acted on is out of date: a new look is needed before the next
   * input (0.21–0.28 source; `browser_ref_stale` is the browser's).
   */
  | "stale"
  /**
   * The driver never honours the refused token again (it belongs to a look the driver has retired):
   * the replay refuses the rest of that look's tokens too.
   */
  | "token-retiring"
  /**
   * "Not now": the same request later is the right move (the input lane was busy), so re-sending it
   * unchanged is no retry of a refused request (the harness's loop guard, `no-resend-after-refusal`).
   */
  | "not-now"
  /** The driver acted in part before it gave up: the call is `done` with a partial effect, not refused. */
  | "partial-effect"
  /** The envelope lists the requested pid's candidate windows (target style). */
  | "lists-candidates";

/**
 * Which calls the fuzzer aims the code at (what the call's arguments name): a code the driver can
 * give any call, a mutation, one naming an element, pixel coordinates or a window.
 */
export type RefusalAim = "any" | "mutation" | "element" | "pixels" | "window";

/** What a call's arguments name: an element (`element_token`, `element_index`), pixel coordinates (`x` and `y`), a window (`window_id`, `pid`). */
export function namedTargets(args: Record<string, unknown>): { element: boolean; pixels: boolean; window: boolean } {
  return {
    element: "element_token" in args || "element_index" in args,
    pixels: "x" in args && "y" in args,
    window: "window_id" in args || "pid" in args,
  };
}

interface RefusalRow {
  envelope: RefusalEnvelope;
  flags?: readonly RefusalFlag[];
  /** The driver's own text, where it is known (captured or read in the source). */
  message?: (tool: string, args: Record<string, unknown>) => string;
  /** Drawn by the fuzzer for calls like this (src/fuzz/arbitraries/fault-plan.ts). */
  fuzz?: RefusalAim;
}

/** The pid a call names, directly or in its `target` (0 when it names none). */
export function pidOf(args: Record<string, unknown>): number {
  const target = args.target as Record<string, unknown> | undefined;
  return typeof args.pid === "number" ? args.pid : typeof target?.pid === "number" ? target.pid : 0;
}

const BACKGROUND_DETAIL = "the requested target has no focus-free input backend; the remaining XTest/X11 route can only deliver to the globally focused widget";
const FOREGROUND_SUGGESTION = 'Retry this action with delivery_mode:"foreground".';
/** The escalation reason of a `background_unavailable` refusal. */
export const BACKGROUND_ESCALATION_REASON = 'background input is unavailable on this surface; retry this action with delivery_mode:"foreground".';

// The order of the rows is the fuzzer's draw order among the codes it draws (kept stable for seeds).
const TABLE = {
  stale_element_token: {
    envelope: "element",
    flags: ["stale", "token-retiring"],
    message: () => "element_token is stale; call get_window_state again to refresh",
    fuzz: "element",
  },
  snapshot_id_required: {
    envelope: "element",
    message: (tool) => `${tool}: bare element_index is not accepted; pass element_token, or snapshot_id together with element_index`,
  },
  element_index_required: { envelope: "element" },
  invalid_snapshot_id: { envelope: "element", flags: ["stale", "token-retiring"] },
  conflicting_element_target: { envelope: "element" },
  generation_mismatch: { envelope: "element", flags: ["stale", "token-retiring"] },
  invalid_element_token: { envelope: "element" },
  /**
   * After 0.28.2 (read from source, docs/discoveries/modern-mcp-era.md): a native action addressed by
   * `element_index` (with or without `snapshot_id`) and no identity-bearing `element_token` is
   * refused before any lookup. Not a stale look: the harness must address the element by token.
   */
  element_identity_required: {
    envelope: "element",
    message: (tool) => `${tool}: pass an identity-bearing element_token from get_window_state; an index alone cannot identify an observed control`,
  },
  /** After 0.28.2 (read from source): resolving an identity-bearing target failed; the resolver's own text is passed through. */
  element_resolution_failed: { envelope: "element" },
  session_ended: {
    envelope: "element",
    message: () => "this session has ended; call start_session explicitly to reuse its label",
    fuzz: "any",
  },
  facility_unavailable: { envelope: "element" },
  background_unavailable: {
    envelope: "background",
    message: () =>
      `Background delivery is not available: ${BACKGROUND_DETAIL}. Retry this action with delivery_mode:"foreground"; Cua Driver will activate the target for the action and restore the previous foreground afterward.`,
    fuzz: "mutation",
  },
  input_busy: { envelope: "element", flags: ["not-now"], fuzz: "mutation" },
  authorization_suspended: { envelope: "element" },
  authorization_revoked: { envelope: "element" },
  px_frame_mismatch: { envelope: "flat", flags: ["stale"], fuzz: "pixels" },
  browser_ref_stale: { envelope: "flat", flags: ["stale"] },
  window_target_not_found: {
    envelope: "target",
    flags: ["lists-candidates"],
    message: (_t, a) => `No eligible top-level windows found for pid ${pidOf(a)}.`,
  },
  ambiguous_window_target: {
    envelope: "target",
    flags: ["lists-candidates"],
    message: (_t, a) => `pid ${pidOf(a)} has more than one eligible top-level window; pass window_id.`,
    fuzz: "window",
  },
  window_target_resolution_failed: { envelope: "target" },
  invalid_action_target: { envelope: "flat", message: () => "target cannot be combined with legacy scope, pid, or window_id fields" },
  type_text_incomplete: { envelope: "flat", flags: ["partial-effect"] },
} as const satisfies Record<string, RefusalRow>;

/** A refusal code the toolkit knows. */
export type RefusalCode = keyof typeof TABLE;

/** Every known code, in table order. */
export const REFUSAL_CODES: readonly RefusalCode[] = Object.keys(TABLE) as RefusalCode[];

/** The codes by name, for code that has to name one (`REFUSAL.session_ended`), so a typo fails the type-check. */
export const REFUSAL: { readonly [C in RefusalCode]: C } = Object.fromEntries(REFUSAL_CODES.map((c) => [c, c])) as { [C in RefusalCode]: C };

function rowOf(code: string): RefusalRow | undefined {
  return Object.hasOwn(TABLE, code) ? (TABLE as Record<string, RefusalRow>)[code] : undefined;
}

/** Whether the table gives `code` this flag (false for a code it does not know). */
export function refusalHas(code: string | undefined, flag: RefusalFlag): boolean {
  return code !== undefined && (rowOf(code)?.flags?.includes(flag) ?? false);
}

/** The codes with a flag, in table order. */
export function refusalCodesWith(flag: RefusalFlag): RefusalCode[] {
  return REFUSAL_CODES.filter((c) => refusalHas(c, flag));
}

/** The envelope of a code's tool result; an unknown code gets the flat `{code}`. */
export function refusalEnvelope(code: string): RefusalEnvelope {
  return rowOf(code)?.envelope ?? "flat";
}

/** The codes the fuzzer draws, with the calls it aims each at, in draw order. */
export const FUZZ_REFUSALS: readonly { code: RefusalCode; aim: RefusalAim }[] = REFUSAL_CODES.flatMap((code) => {
  const aim = rowOf(code)?.fuzz;
  return aim ? [{ code, aim }] : [];
});

/** The driver's own text for a refusal where it is known, else `<tool> refused: <code>`. */
export function refusalMessage(code: string, tool: string, args: Record<string, unknown>): string {
  return rowOf(code)?.message?.(tool, args) ?? `${tool} refused: ${code}`;
}

/**
 * One entry of a target-style refusal's `candidates`: window_id, title, app name and on-screen
 * state, named as `list_windows` names them (docs/faults.md).
 */
export interface WindowCandidate {
  app_name?: unknown;
  is_on_screen?: unknown;
  title?: unknown;
  window_id?: unknown;
}

/**
 * The structuredContent of a refusal, by its envelope. `candidates`: the requested pid's windows
 * as last known (codes that list them only; default none).
 */
export function refusalStructured(options: {
  code: string;
  message: string;
  args: Record<string, unknown>;
  candidates?: readonly WindowCandidate[] | undefined;
}): Record<string, unknown> {
  const { code, message, args } = options;
  switch (refusalEnvelope(code)) {
    case "element":
      return { refusal: { code, message }, status: "refused" };
    case "target": {
      const candidates = refusalHas(code, "lists-candidates") ? (options.candidates ?? []) : [];
      return { candidates, code, effect: "refused", pid: pidOf(args) };
    }
    case "background":
      return {
        code,
        detail: BACKGROUND_DETAIL,
        escalation: {
          reason: BACKGROUND_ESCALATION_REASON,
          recommended: "foreground",
        },
        suggestion: FOREGROUND_SUGGESTION,
      };
    case "flat":
      return { code };
  }
}

function exactly(text: string): RegExp {
  return new RegExp(`^(${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")})$`);
}

/**
 * The refusal texts whose envelope the text alone determines, each read back beside the message it
 * parses: the element-style texts exactly, the background text for its detail and suggestion.
 */
const TEXT_READERS: readonly { match: RegExp; read: (m: RegExpExecArray) => RefusalText }[] = [
  { match: exactly(refusalMessage("stale_element_token", "", {})), read: (m) => ({ code: "stale_element_token", message: m[1]! }) },
  { match: exactly(refusalMessage("session_ended", "", {})), read: (m) => ({ code: "session_ended", message: m[1]! }) },
  {
    match: /^Background delivery is not available: (.+?)\. (Retry this action with delivery_mode:"foreground")/s,
    read: (m) => ({ code: "background_unavailable", detail: m[1]!, suggestion: `${m[2]!}.` }),
  },
];

/** What a refusal text says: its code, and what the envelope carries besides. */
export type RefusalText =
  | { code: "stale_element_token" | "session_ended"; message: string }
  | { code: "background_unavailable"; detail: string; suggestion: string };

/** Reads a tool result's text back into the refusal it is, when the text determines the envelope. */
export function readRefusalText(text: string): RefusalText | undefined {
  for (const reader of TEXT_READERS) {
    const m = reader.match.exec(text);
    if (m) return reader.read(m);
  }
  return undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * Whether a structuredContent is a refusal envelope, read back: a `refusal` object, `status:
 * "refused"`, `effect: "refused"`, or a flat `code` with no `effect` (an ActionResult with a code
 * and an effect is an answer, not a refusal).
 */
export function isRefusalEnvelope(structured: Record<string, unknown>): boolean {
  if (isRecord(structured.refusal) || structured.status === "refused" || structured.effect === "refused") return true;
  return typeof structured.code === "string" && structured.effect === undefined;
}

/** The code a structuredContent carries: `refusal.code`, else a flat `code`. */
export function envelopeCode(structured: Record<string, unknown> | undefined): string | undefined {
  const refusal = structured?.refusal as { code?: unknown } | undefined;
  return typeof refusal?.code === "string" ? refusal.code : typeof structured?.code === "string" ? structured.code : undefined;
}
