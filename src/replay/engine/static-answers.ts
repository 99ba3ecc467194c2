import { withHostTools } from "#src/transports/mcp/wire/host-tools.js";
import { renderMcpConfig } from "#src/transports/cli/wire/render-mcp-config.js";
import { checkedAt, offlineUpdateState, type UpdateState } from "#src/driver/update-check.js";
import { checkForUpdateResult, renderCheckUpdate } from "#src/transports/cli/wire/update-check.js";
import type { SynthesizedAnswer } from "#src/schema/replay-log.js";
import { renderDescribe, renderHelp, renderListTools } from "#src/transports/cli/wire/render-static.js";
import { canonicalJson } from "#src/wire/json/canonical.js";
import type { RecordedExchange } from "./exchanges.js";
import { rawMember } from "#src/wire/json/spans.js";
import { renderCall } from "#src/transports/cli/wire/render-call.js";
import type { ReplayRequest } from "./request.js";

export interface StaticCliAnswer {
  stdout: string;
  stderr: string;
  exitCode: number;
  synthesized: SynthesizedAnswer;
}

/** What the replay knows about the recorded driver, for answers it builds itself. */
export interface RecordedDriver {
  /** The crate version (cassette header). */
  version: string;
  /** `--version` output recorded in the header, when there is one. */
  versionOutput?: string;
  /** Header `recorded_at`: the instant the synthesized driver state is from. */
  recordedAt?: string;
  /** The probe's whole tools/list result; `runtimeInventory` when it lacks the binary's own tools. */
  toolsList?: { result: Record<string, unknown>; runtimeInventory: boolean };
}

const OFFLINE = "offline: replay never reaches api.github.com; the check fails as on a machine without DNS";

/** The update state a replayed driver reports: the check cannot reach GitHub, at the instant of the recording. */
export function replayUpdateState(driver: RecordedDriver): UpdateState {
  return offlineUpdateState({ version: driver.version, checkedAt: checkedAt(driver.recordedAt ?? "1970-01-01T00:00:00Z") });
}

/**
 * The tools/list result the replay serves when the cassette recorded none: the probe's (every
 * top-level field, the binary's host tools added to a runtime inventory). Undefined without a probe.
 */
export function probeToolsList(driver: RecordedDriver): { raw: string; synthesized: SynthesizedAnswer } | undefined {
  const list = driver.toolsList;
  if (!list) return undefined;
  const result = list.runtimeInventory ? withHostTools(list.result) : list.result;
  return {
    raw: canonicalJson(result),
    synthesized: {
      kind: "tools_list",
      basis: {
        source: "probe",
        detail: list.runtimeInventory ? "tools_list of the runtime, with check_for_update appended as the binary registers it" : "tools_list",
      },
    },
  };
}

/** `check_for_update` over MCP when the cassette recorded no call of it: the raw tool result. */
export function checkForUpdateAnswer(options: {
  driver: RecordedDriver;
  exchanges: readonly RecordedExchange[];
}): { raw: string; synthesized: SynthesizedAnswer } | undefined {
  if (options.exchanges.some((x) => x.request.method === "call" && x.request.tool === "check_for_update")) return undefined;
  return {
    raw: checkForUpdateResult(replayUpdateState(options.driver)),
    synthesized: { kind: "check_update", basis: { source: "reference", detail: OFFLINE } },
  };
}

/**
 * Answers for finite subcommands the cassette did not record but can still answer as the binary
 * would: `--version` from the header; `list-tools` and `describe` from a recorded `tools/list`
 * result (else the probe's); `--help`, `mcp-config`, `check-update` and `call check_for_update`
 * from the driver's source (docs/reference/cua-driver-contract.md §1.2, §1.4, §1.5; docs/discoveries/maintenance-surface.md).
 * `binaryPath` stands for `current_exe()`: the first `cua-driver` on the harness's PATH apart from the shim.
 */
export function staticCliAnswer(options: {
  request: ReplayRequest;
  exchanges: readonly RecordedExchange[];
  driver: RecordedDriver;
  binaryPath?: string;
}): StaticCliAnswer | undefined {
  const { request, exchanges, driver } = options;
  if (request.method === "call") {
    if (request.tool !== "check_for_update") return undefined;
    const answer = checkForUpdateAnswer({ driver, exchanges });
    if (!answer) return undefined;
    const out = renderCall({ raw: answer.raw });
    return { stdout: out.stdout, stderr: out.stderr, exitCode: out.exitCode, synthesized: answer.synthesized };
  }
  if (exchanges.some((x) => x.transport === "cli" && x.request.method === request.method)) return undefined;
  const flags = request.flags ?? {};
  switch (request.method) {
    case "--version": {
      const stdout = driver.versionOutput;
      return stdout === undefined
        ? undefined
        : { stdout, stderr: "", exitCode: 0, synthesized: { kind: "version", basis: { source: "header", detail: "version_output" } } };
    }
    case "--help":
      return {
        ...renderHelp(driver.version),
        synthesized: { kind: "help", basis: { source: "reference", detail: "cli.rs:488-657 help text with the recorded version" } },
      };
    case "check-update": {
      const out = renderCheckUpdate({ state: replayUpdateState(driver), json: flags["--json"] !== undefined });
      return { ...out, synthesized: { kind: "check_update", basis: { source: "reference", detail: OFFLINE } } };
    }
    case "mcp-config": {
      const client = typeof flags["--client"] === "string" ? flags["--client"] : undefined;
      const out = renderMcpConfig({ client, binary: options.binaryPath ?? "cua-driver" });
      return { ...out, synthesized: { kind: "mcp_config", basis: { source: "reference", detail: "cli.rs:1910-2139 with the harness's cua-driver path" } } };
    }
    case "list-tools":
    case "describe": {
      const listed = toolsListFor({ exchanges, driver });
      if (!listed) return undefined;
      const kind = request.method === "list-tools" ? "list_tools" : "describe";
      if (request.method === "list-tools") return { ...renderListTools(listed.raw), synthesized: { kind, basis: listed.basis } };
      const name = ((request.args as { positionals?: string[] } | undefined)?.positionals ?? [])[0] ?? "";
      return { ...renderDescribe(listed.raw, name), synthesized: { kind, basis: listed.basis } };
    }
    default:
      return undefined;
  }
}

function toolsListFor(options: {
  exchanges: readonly RecordedExchange[];
  driver: RecordedDriver;
}): { raw: string; basis: SynthesizedAnswer["basis"] } | undefined {
  const list = options.exchanges.find((x) => x.request.method === "tools/list" && x.rpc?.response);
  const result = list?.rpc?.response ? rawMember(list.rpc.response, "result") : undefined;
  if (list && result) return { raw: result, basis: { source: "cassette", seq: list.seq, detail: "tools/list result" } };
  const probe = probeToolsList(options.driver);
  return probe ? { raw: probe.raw, basis: probe.synthesized.basis } : undefined;
}
