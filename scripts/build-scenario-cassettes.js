#!/usr/bin/env node
// Rebuilds the synthetic cassettes under contracts/scenarios/cassettes/ (run after `npm run build`).
//
// Each cassette is what the reference harness sends for one scenario's step script, answered with
// the exact bytes cua-driver 0.21.0 returned in the captured SDK calls (shared reference data), or
// with a hand-made variant of them where no capture exists (confirmed / suspected_noop clicks, a
// moved window, the harness's session label). Everything is labelled `driver.source: "synthetic"`.
//
// Usage: node scripts/build-scenario-cassettes.js [CAPTURED_DIR]
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openCassetteWriter, storeText } from "../dist/cassette/index.js";
import { createHarnessSession } from "../dist/harness/core/session.js";
import { createVirtualClock } from "../dist/driver/clock-virtual.js";
import { FLOWS } from "./scenario-flows.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const captured = process.argv[2] ?? new URL("../test/fixtures/reference/cua-driver/captured/sdk-tool-calls-0.21.0-linux-x64", import.meta.url).pathname;
const outRoot = path.join(root, "contracts/scenarios/cassettes");

/** The exact bytes of one captured result (`X/11_click_element_token` or `H/15_…`). */
function capturedResult(ref) {
  const [set, name] = ref.split("/");
  const dir = set === "X" ? "xvfb-openbox-gtk3demo" : "headless-no-display";
  return readFileSync(path.join(captured, dir, `${name}.result.json`), "utf8");
}

function answerBytes(answer) {
  if (answer.captured) {
    const raw = capturedResult(answer.captured);
    return answer.edit ? answer.edit(raw) : raw;
  }
  return answer.raw;
}

/** A Driver that answers the harness from a flow's answer list, in order, and records each exchange. */
function recordingDriver({ flow, writer }) {
  let i = 0;
  let id = 0;
  let t = 0;
  return {
    async listTools() {
      return [];
    },
    async call(tool, args) {
      const answer = flow.answers[i++];
      if (!answer || answer.tool !== tool) {
        throw new Error(`${flow.name}: call ${i} is ${tool} ${JSON.stringify(args)}, but the flow expects ${answer ? answer.tool : "no more calls"}`);
      }
      const raw = answerBytes(answer);
      id += 1;
      const request = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: tool, arguments: args } });
      const response = `{"jsonrpc":"2.0","id":${id},"result":${raw}}`;
      writer.append({ kind: "mcp", t_ms: (t += 5), stream: 0, dir: "c2s", line: request });
      const stored = storeText({ bytes: response, field: "line", putFrame: (bytes, ext) => writer.putFrame(bytes, ext) });
      writer.append({ kind: "mcp", t_ms: (t += 20), stream: 0, dir: "s2c", line: stored.stored, ...(stored.splices.length ? { frames: stored.splices } : {}) });
      if (answer.as) return { kind: answer.as, tool, message: `${tool}: ${answer.as} (simulated while building the cassette)` };
      const value = JSON.parse(raw);
      return { ...value, content: value.content ?? [], raw };
    },
    done() {
      if (i !== flow.answers.length) throw new Error(`${flow.name}: the harness made ${i} calls, the flow lists ${flow.answers.length}`);
      writer.append({ kind: "mcp_close", t_ms: (t += 5), stream: 0, exit_code: 0 });
    },
  };
}

for (const flow of FLOWS) {
  const dir = path.join(outRoot, flow.name);
  rmSync(dir, { recursive: true, force: true });
  const writer = openCassetteWriter({
    dir,
    header: {
      format: "cua-cassette",
      version: 1,
      transport: "mcp",
      driver: { version: "0.21.0", platform: "linux-x64", source: "synthetic", location: "sdk:@trycua/cua-driver@0.21.0 (captured results)" },
      recorded_at: "2026-11-29T00:00:00.000Z",
      recorder: { name: "cua-contract scripts/build-scenario-cassettes.js", version: "1" },
      notes: [
        flow.about,
        ...flow.answers.map(
          (a, n) =>
            `call ${n + 1} ${a.tool}: ${a.captured ? `captured ${a.captured}${a.edit ? ` (edited: ${a.why})` : ""}` : `hand-made (${a.why})`}${a.as ? `; the harness saw ${a.as}` : ""}`,
        ),
      ],
    },
  });
  writer.append({ kind: "mcp_open", t_ms: 0, stream: 0, argv: ["cua-driver", "mcp"] });
  const driver = recordingDriver({ flow, writer });
  const session = createHarnessSession({ driver, clock: createVirtualClock() });
  for (const step of flow.steps) await session.step(step);
  driver.done();
  writer.close();
  console.log(`wrote ${path.relative(root, dir)} (${flow.answers.length} calls)`);
}
