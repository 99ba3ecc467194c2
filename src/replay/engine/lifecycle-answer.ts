import { lifecycleText, referenceLifecycleStructured } from "#src/driver/result-shapes.js";
import type { SynthesisBasis } from "#src/schema/replay-log.js";
import { canonicalJson } from "#src/wire/json/canonical.js";
import type { RecordedExchange } from "./exchanges.js";
import { recordedOutcome } from "./tool-result.js";

/** A session start or end answered for the harness's own label and the session's state in this replay. */
export interface LifecycleResult {
  /** The raw tool result (`{"content":…,"structuredContent":…}`), keys sorted as the driver sorts them. */
  raw: string;
  /** What it was built from, for the replay log. */
  basis: SynthesisBasis;
}

type Structured = Record<string, unknown>;

export type LifecycleBuild = { ok: true; result: LifecycleResult } | { ok: false; missing: string };

/**
 * Build the answer to `start_session` / `end_session` for `label`: from a recorded answer of the same
 * tool anywhere in the cassette (its fields kept, the label and `revived` set for this replay's state),
 * else from the driver reference for the recorded version.
 */
export function buildLifecycleAnswer(options: {
  tool: string;
  label: string;
  /** start_session: the label was ended in this replay, so the driver revives it. */
  revived: boolean;
  exchanges: readonly RecordedExchange[];
  driverVersion: string;
}): LifecycleBuild {
  const { tool, label, revived } = options;
  const text = lifecycleText(tool, label);
  if (text === undefined) return { ok: false, missing: `an answer to ${tool}` };
  const template = templateOf(tool, options.exchanges);
  const reference = template ? undefined : referenceLifecycleStructured(tool, options.driverVersion);
  let structured: Structured;
  let from: string;
  let source: Pick<SynthesisBasis, "source" | "seq">;
  if (template) {
    structured = { ...template.structured };
    from = `the recorded ${tool} #${template.seq}`;
    source = { source: "cassette", seq: template.seq };
  } else if (reference !== undefined) {
    structured = reference;
    from =
      tool === "end_session"
        ? "the driver reference (docs/reference/cua-driver-contract.md §3.4)"
        : `the driver reference for ${options.driverVersion} (docs/reference/cua-driver-contract.md §3.4)`;
    source = { source: "reference" };
  } else {
    return {
      ok: false,
      missing: `a recorded start_session answer from cua-driver ${options.driverVersion} (its desktop_capture_authorized value is not in the reference)`,
    };
  }
  structured.session = label;
  if (tool === "start_session") structured.revived = revived;
  const raw = canonicalJson({ content: [{ text, type: "text" }], structuredContent: structured });
  const state = tool === "start_session" ? (revived ? ", revived (the label was ended in this replay)" : ", not revived") : "";
  return { ok: true, result: { raw, basis: { ...source, detail: `${from}, for label '${label}'${state}` } } };
}

/** The structured answer of a successful recorded call of `tool`, the latest one recorded. */
function templateOf(tool: string, exchanges: readonly RecordedExchange[]): { seq: number; structured: Structured } | undefined {
  for (let i = exchanges.length - 1; i >= 0; i--) {
    const x = exchanges[i]!;
    if (x.request.method !== "call" || x.request.tool !== tool) continue;
    const outcome = recordedOutcome(x);
    if (outcome.type !== "result") continue;
    try {
      const value = JSON.parse(outcome.raw) as { isError?: boolean; structuredContent?: unknown };
      const s = value.structuredContent;
      if (value.isError || !s || typeof s !== "object" || typeof (s as Structured).session !== "string") continue;
      return { seq: x.seq, structured: s as Structured };
    } catch {}
  }
  return undefined;
}

/** The `session` and `revived` a recorded lifecycle answer carries, to see whether it fits this replay's state. */
export function recordedLifecycleState(x: RecordedExchange): { session?: string; revived?: boolean } | undefined {
  const outcome = recordedOutcome(x);
  if (outcome.type !== "result") return undefined;
  try {
    const s = (JSON.parse(outcome.raw) as { structuredContent?: Structured }).structuredContent;
    if (!s || typeof s !== "object") return undefined;
    return {
      ...(typeof s.session === "string" ? { session: s.session } : {}),
      ...(typeof s.revived === "boolean" ? { revived: s.revived } : {}),
    };
  } catch {
    return undefined;
  }
}
