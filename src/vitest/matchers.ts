import { runInvariants } from "#src/invariants/run.js";
import { knownToolsOptions, type KnownTools } from "#src/replay/engine/known-tools.js";
import type { ReplayLogEntry, RequestEntry } from "#src/schema/replay-log.js";

/**
 * What a matcher judges: a cassette handle, a replay run summary, or a replay log. A handle or
 * summary that knows the tools its recording's driver offers (`knownTools`) is judged against them.
 */
export type Judged =
  | { log(): ReplayLogEntry[]; mode?: string; knownTools?: KnownTools | undefined }
  | { entries: readonly ReplayLogEntry[]; knownTools?: KnownTools | undefined }
  | readonly ReplayLogEntry[];

/** What a matcher returns, in the shape vitest and jest expect. */
export interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/** A decision to expect of one request: its outcome, or a part of its log entry. */
export type ExpectedDecision =
  | RequestEntry["outcome"]
  | { outcome?: RequestEntry["outcome"]; fault?: string; tool?: string; matched_seq?: number; synthesized?: string };

function entriesOf(received: Judged): readonly ReplayLogEntry[] {
  if (Array.isArray(received)) return received as readonly ReplayLogEntry[];
  if ("log" in received) return received.log();
  return (received as { entries: readonly ReplayLogEntry[] }).entries;
}

const recordedOnly = (received: Judged) => !Array.isArray(received) && "mode" in received && received.mode !== undefined && received.mode !== "replay";
const requestsOf = (entries: readonly ReplayLogEntry[]) => entries.filter((e): e is RequestEntry => e.type === "request");
const describeRequest = (r: RequestEntry) => `#${r.n} ${r.tool ? `${r.method} ${r.tool}` : r.method} ${JSON.stringify(r.args ?? {})}`;

/** Every invariant (or those named) holds over the replay log; the message lists each violation with its requests. */
export function toPassInvariants(received: Judged, only?: readonly string[]): MatcherResult {
  if (recordedOnly(received)) return { pass: true, message: () => "recorded, not replayed: nothing to judge (replay the cassette to check invariants)" };
  const entries = entriesOf(received);
  const known = Array.isArray(received) ? undefined : (received as { knownTools?: KnownTools }).knownTools;
  const report = runInvariants(entries, { ...(only ? { only } : {}), ...(known ? { options: knownToolsOptions(known) } : {}) });
  const failed = report.results.filter((r) => !r.passed);
  return {
    pass: failed.length === 0,
    message: () =>
      failed.length === 0
        ? `expected an invariant to be violated, but all ${report.results.length} held over ${report.requests} requests`
        : [
            `expected the replay to pass the invariants; ${failed.length} violated:`,
            ...failed.flatMap((r) => [
              `  ${r.id}: ${r.statement}`,
              ...r.violations.map((v) => `    ${v.message} (requests ${v.evidence.requests.map((n) => `#${n}`).join(", ")})`),
            ]),
          ].join("\n"),
  };
}

/**
 * Every request was answered from the cassette and every recorded mutation was used. An
 * unmatched request is shown with the nearest recorded one and where they differ.
 */
export function toHaveServedAll(received: Judged, unused?: readonly { seq: number; tool?: string | undefined; kind: string }[]): MatcherResult {
  if (recordedOnly(received)) return { pass: true, message: () => "recorded, not replayed: nothing to judge" };
  const entries = entriesOf(received);
  const unmatched = requestsOf(entries).filter((r) => r.outcome === "unmatched");
  const summaries = entries.filter((e) => e.type === "summary");
  const left = (
    unused ??
    summaries.at(-1)?.unused ??
    (!Array.isArray(received) && "summary" in received && typeof received.summary === "function"
      ? (received.summary() as { unused: { seq: number; tool?: string | undefined; kind: string }[] }).unused
      : [])
  ).filter((u) => u.kind === "mutation");
  const pass = unmatched.length === 0 && left.length === 0;
  return {
    pass,
    message: () =>
      pass
        ? "expected a request to go unserved or a recorded mutation to go unused, but every request was served and every mutation used"
        : [
            "expected every request served from the cassette and every recorded mutation used:",
            ...unmatched.map(
              (r) =>
                `  unmatched ${describeRequest(r)}: ${r.unmatched?.reason ?? "no recorded request matches"}${r.unmatched?.nearest_seq !== undefined ? ` (nearest: recorded seq ${r.unmatched.nearest_seq}${r.unmatched.path ? `, differs at ${r.unmatched.path}` : ""})` : ""}`,
            ),
            ...left.map((u) => `  unused recorded mutation seq ${u.seq}${u.tool ? ` (${u.tool})` : ""}`),
          ].join("\n"),
  };
}

/** Request `step` (the log's `n`, or the nth call of a tool) was decided as expected: outcome, fault, match. */
export function toHaveDecision(received: Judged, step: number | { tool: string; nth?: number }, expected: ExpectedDecision): MatcherResult {
  const requests = requestsOf(entriesOf(received));
  const entry = typeof step === "number" ? requests.find((r) => r.n === step) : requests.filter((r) => r.tool === step.tool)[(step.nth ?? 1) - 1];
  const where = typeof step === "number" ? `request #${step}` : `call ${step.nth ?? 1} of ${step.tool}`;
  const want = typeof expected === "string" ? { outcome: expected } : expected;
  if (!entry)
    return {
      pass: false,
      message: () =>
        `expected ${where} to be ${JSON.stringify(want)}, but the log has no such request (it has ${requests.length}: ${requests.map(describeRequest).join("; ") || "none"})`,
    };
  const got: Record<string, unknown> = {
    outcome: entry.outcome,
    fault: entry.fault?.kind,
    tool: entry.tool,
    matched_seq: entry.matched_seq,
    synthesized: entry.synthesized,
  };
  const differs = Object.entries(want).filter(([k, v]) => got[k] !== v);
  return {
    pass: differs.length === 0,
    message: () =>
      differs.length === 0
        ? `expected ${where} not to be ${JSON.stringify(want)}`
        : `expected ${where} (${describeRequest(entry)}) to be ${JSON.stringify(want)}, but ${differs.map(([k, v]) => `${k} was ${JSON.stringify(got[k])}, not ${JSON.stringify(v)}`).join("; ")}${entry.unmatched ? ` — unmatched: ${entry.unmatched.reason}` : ""}`,
  };
}

/** The matchers `cua-contract/vitest` registers, to pass to another runner's `expect.extend`. */
export const cassetteMatchers = { toPassInvariants, toHaveServedAll, toHaveDecision };
