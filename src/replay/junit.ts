import type { ReplayLogEntry, RequestEntry } from "#src/schema/replay-log.js";
import type { JunitCase, JunitSuite } from "#src/util/junit.js";

export interface ReplayJunitInput {
  /** The cassette directory, as given. */
  dir: string;
  entries: readonly ReplayLogEntry[];
  violations: readonly { id: string; message: string; events: number[] }[];
  unused: readonly { seq: number; tool?: string | undefined; kind: string }[];
  failOnUnused: boolean;
  harnessExitCode: number;
}

/**
 * Replay as JUnit: one suite with a test case per served request (failed when it was unmatched or
 * an invariant names it), and a `run` suite for what belongs to no request (the harness's exit,
 * unused recorded mutations).
 */
export function replayJunitSuites(input: ReplayJunitInput): JunitSuite[] {
  const requests = input.entries.filter((e): e is RequestEntry => e.type === "request");
  const byRequest = new Map<number, { id: string; message: string }[]>();
  for (const v of input.violations) for (const n of v.events) byRequest.set(n, [...(byRequest.get(n) ?? []), v]);
  const cases: JunitCase[] = requests.map((r) => requestCase(r, byRequest.get(r.n) ?? []));
  const run: JunitCase[] = [
    {
      name: "harness exit",
      classname: "run",
      ...(input.harnessExitCode === 0 ? {} : { failure: { message: `the harness exited ${input.harnessExitCode}`, type: "harness-exit" } }),
    },
  ];
  const orphan = input.violations.filter((v) => v.events.length === 0);
  for (const v of orphan) run.push({ name: `invariant ${v.id}`, classname: "run", failure: { message: v.message, type: v.id } });
  const mutations = input.unused.filter((u) => u.kind === "mutation");
  if (input.failOnUnused) {
    run.push({
      name: "every recorded mutation used",
      classname: "run",
      ...(mutations.length === 0
        ? {}
        : {
            failure: {
              message: `${mutations.length} recorded mutation(s) never requested: ${mutations.map((u) => `#${u.seq} ${u.tool ?? ""}`.trim()).join(", ")}`,
              type: "unused",
            },
          }),
    });
  }
  return [
    { name: `replay ${input.dir}`, cases },
    { name: `replay ${input.dir}: run`, cases: run },
  ];
}

function requestCase(r: RequestEntry, violations: readonly { id: string; message: string }[]): JunitCase {
  const what = r.tool ? `${r.method} ${r.tool}` : r.method;
  const name = `#${r.n} ${what}`;
  const classname = `requests.${r.transport}`;
  const time = r.duration_ms !== undefined ? { time: r.duration_ms / 1000 } : {};
  if (r.outcome === "unmatched") {
    const reason = r.unmatched?.reason ?? "no recorded request matches";
    return {
      name,
      classname,
      ...time,
      failure: {
        message: `unmatched: ${reason}`,
        type: "unmatched",
        details: JSON.stringify({ args: r.args, nearest_seq: r.unmatched?.nearest_seq, path: r.unmatched?.path }),
      },
    };
  }
  if (violations.length > 0) {
    return { name, classname, ...time, failure: { message: violations.map((v) => `${v.id}: ${v.message}`).join("; "), type: violations[0]!.id } };
  }
  return { name, classname, ...time };
}
