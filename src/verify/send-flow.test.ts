import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { tmpDir } from "../../test/helpers/tmp-dir.js";
import { loadFrame } from "#src/cassette/frame-store.js";
import { readCassette } from "#src/cassette/reader.js";
import { restoreText } from "#src/cassette/restore.js";
import type { CassetteEvent } from "#src/schema/cassette.js";
import type { ShimBackend } from "#src/shim-server/backend.js";
import { sendFlow } from "./run-verify.js";
import { createUnredactor } from "./secrets.js";

const DIR = "recordings/gtk3-demo-cli";
type CliEvent = Extract<CassetteEvent, { kind: "cli" }>;

/**
 * A candidate that answers each request with the recorded answer of its place in the flow, except
 * that the read at `seq` first answers `early` times with what the desktop showed before the
 * mutation (the recorded `list_windows` of seq 7: one window where the recording has two).
 */
async function scripted(options: { seq: number; early: number }) {
  const cassette = await readCassette(DIR, { frames: "skip" });
  const events = cassette.events.filter((e): e is CliEvent => e.kind === "cli");
  const before = events.find((e) => e.seq === 7)!;
  let at = 0;
  let last: string | undefined;
  let early = options.early;
  const sent: number[] = [];
  const backend: ShimBackend = {
    cli: async (request) => {
      const key = JSON.stringify(request.argv);
      // a re-read is the same request again: it gets the same place in the flow
      const event = key === last ? events[at - 1]! : events[at++]!;
      last = key;
      sent.push(event.seq);
      let answer = event;
      if (event.seq === options.seq && early > 0) {
        early--;
        answer = before;
      }
      for (const [flag, file] of Object.entries(answer.files ?? {})) {
        const target = request.argv[request.argv.indexOf(flag) + 1]!;
        writeFileSync(target, loadFrame({ dir: DIR, ref: file.ref }));
      }
      return {
        stdout: Buffer.from(restoreText(cassette, answer, "stdout")),
        stderr: Buffer.from(restoreText(cassette, answer, "stderr")),
        exitCode: answer.exit_code,
      };
    },
    mcp: () => {
      throw new Error("no MCP in this flow");
    },
  };
  return { cassette, backend, sent };
}

// What scripts/record-fixtures.harness.mjs typed; the recording holds only its placeholder.
const TYPED = "hello from cua-contract";

async function flow(options: { seq: number; early: number; settleMs?: number; secrets?: string[] }) {
  await using work = await tmpDir();
  const { cassette, backend, sent } = await scripted(options);
  const readOnly = new Map(
    ["list_windows", "get_window_state", "get_screen_size", "get_config", "verify_state", "start_session", "end_session"].map((t) => [
      t,
      !t.endsWith("session"),
    ]),
  );
  const calls = await sendFlow({
    cassette,
    backend,
    readOnly,
    work: work.path,
    env: {},
    tolerance: 0.1,
    timeoutMs: 5000,
    desktop: true,
    update: undefined,
    secrets: createUnredactor(options.secrets ?? [TYPED]),
    ...(options.settleMs !== undefined ? { settleMs: options.settleMs } : {}),
  });
  return { calls, sent, call: calls.find((c) => c.seq === options.seq)! };
}

describe("verify: a read right after a mutation, on a desktop still settling", () => {
  it("is sent again until it answers as recorded, and says so", async () => {
    const { call, sent } = await flow({ seq: 10, early: 2 });
    expect(call.label).toBe("call list_windows");
    expect(call.differences).toEqual([]);
    expect(call.notes).toContainEqual(
      expect.stringMatching(/^answered as recorded on read 3, \d+ ms after the first: the desktop was still settling after the click$/),
    );
    expect(sent.filter((s) => s === 10)).toHaveLength(3);
  });

  it("is judged on its last answer when the settling time runs out", async () => {
    const { call } = await flow({ seq: 10, early: 1000, settleMs: 500 });
    expect(call.worst).toBe("behavioural");
    expect(call.differences).toMatchObject([{ path: "$.windows", kind: "length_changed", recorded: 2, live: 1 }]);
    expect(call.notes).toEqual([expect.stringMatching(/^read \d+ times over \d+ ms after the click: the answer still differs$/)]);
  });

  it("a read that answers as recorded is sent once", async () => {
    const { calls, sent } = await flow({ seq: 10, early: 0 });
    expect(calls.flatMap((c) => c.notes).filter((n) => /\bread \d+|on read/.test(n))).toEqual([]);
    expect(new Set(sent).size).toBe(sent.length);
  });

  it("once the flow has parted from the recording (a placeholder typed), a differing read is sent once", async () => {
    const { call, sent } = await flow({ seq: 10, early: 1000, secrets: [] });
    expect(call.worst).toBe("behavioural");
    expect(sent.filter((s) => s === 10)).toHaveLength(1);
    expect(call.notes).toEqual([expect.stringMatching(/^after event 6 \(call type_text\) answered differently/)]);
  });
});
