import path from "node:path";
import { findScenarioFiles, loadScenario } from "#src/check/load-scenario.js";
import { loadReplayCassette, type LoadedCassette } from "#src/check/replay-cassette.js";
import type { HarnessAction } from "#src/schema/harness-step.js";
import type { FuzzBase } from "./arbitraries/fuzz-case.js";
import { faultTargets, type FaultTarget } from "./arbitraries/fault-plan.js";
import { isReadOnlyTool } from "#src/driver/catalogue.js";
import { LIFECYCLE_TOOLS } from "#src/invariants/classify.js";

/** A base and the cassette it replays against. */
export interface LoadedBase extends FuzzBase {
  cassetteDir: string;
  cassette: LoadedCassette;
  /** Where the base came from: a scenario file or a cassette directory. */
  from: string;
}

/** Bases from scenario files: each scenario's step script and fault plan over its cassette. */
export function basesFromScenarios(files: readonly string[]): LoadedBase[] {
  return files.map((file) => {
    const { scenario, cassetteDir } = loadScenario(file);
    const cassette = loadReplayCassette(cassetteDir);
    return {
      name: scenario.id,
      steps: scenario.steps,
      rules: scenario.faults.rules,
      tools: toolsOf(cassette),
      targets: targetsOf(cassette),
      ...windowOf(scenario.steps),
      cassetteDir,
      cassette,
      from: file,
    };
  });
}

export function bundledBases(bundledDir: string): LoadedBase[] {
  return basesFromScenarios(findScenarioFiles({ args: [], bundledDir }));
}

/** Bases from bare cassettes: the step script is the harness calls the cassette recorded, as actions. */
export function basesFromCassettes(dirs: readonly string[]): LoadedBase[] {
  return dirs.map((dir) => {
    const cassetteDir = path.resolve(dir);
    const cassette = loadReplayCassette(cassetteDir);
    const steps = cassette.replay.prepared.exchanges
      .filter((x) => x.origin === "harness" && x.request.method === "call" && x.request.tool)
      .map((x) => actionFor(x.request.tool!, (x.request.args ?? {}) as Record<string, unknown>));
    return {
      name: path.basename(cassetteDir),
      steps,
      rules: [],
      tools: toolsOf(cassette),
      targets: targetsOf(cassette),
      ...windowOf(steps),
      cassetteDir,
      cassette,
      from: dir,
    };
  });
}

function toolsOf(cassette: LoadedCassette): string[] {
  return [...new Set(cassette.replay.prepared.exchanges.flatMap((x) => (x.request.method === "call" && x.request.tool ? [x.request.tool] : [])))].sort();
}

/** The harness calls the cassette recorded, in order, as places to aim faults at. */
function targetsOf(cassette: LoadedCassette): FaultTarget[] {
  const calls = cassette.replay.prepared.exchanges.flatMap((x) => {
    const tool = x.origin === "harness" && x.request.method === "call" ? x.request.tool : undefined;
    if (!tool) return [];
    const args = (x.request.args ?? {}) as Record<string, unknown>;
    return [{ tool, args, mutation: !LIFECYCLE_TOOLS.has(tool) && !isReadOnlyTool(tool, cassette.tools) }];
  });
  return faultTargets(calls);
}

function windowOf(steps: readonly HarnessAction[]): { window?: { pid: number; window_id: number } } {
  for (const s of steps) {
    const t = s as { pid?: number; window_id?: number };
    if (typeof t.pid === "number" && typeof t.window_id === "number") return { window: { pid: t.pid, window_id: t.window_id } };
  }
  return {};
}

const only = (args: Record<string, unknown>, keys: readonly string[]) => Object.keys(args).every((k) => keys.includes(k));

/** The harness action that makes exactly this recorded call, or a generic `call`. */
export function actionFor(tool: string, args: Record<string, unknown>): HarnessAction {
  const a = { ...args };
  delete a.session;
  if (tool === "list_windows" && Object.keys(a).length === 0) return { action: "list_windows" };
  if (tool === "get_window_state" && only(a, ["pid", "window_id", "query"]) && typeof a.pid === "number" && typeof a.window_id === "number") {
    return { action: "get_window_state", pid: a.pid, window_id: a.window_id, ...(typeof a.query === "string" ? { query: a.query } : {}) };
  }
  if (tool === "click" && only(a, ["pid", "window_id", "element_token", "x", "y", "button", "delivery_mode"])) {
    return { action: "click", ...(a as object), ...(a.element_token === undefined ? { frame: "latest" } : {}) } as HarnessAction;
  }
  if (tool === "type_text" && only(a, ["pid", "window_id", "element_token", "text", "delivery_mode"]) && typeof a.text === "string") {
    return { action: "type_text", ...(a as object) } as HarnessAction;
  }
  if (tool === "press_key" && only(a, ["pid", "window_id", "key", "delivery_mode"]) && typeof a.key === "string")
    return { action: "press_key", ...(a as object) } as HarnessAction;
  if (tool === "hotkey" && only(a, ["pid", "window_id", "keys", "delivery_mode"]) && a.keys !== undefined)
    return { action: "hotkey", ...(a as object) } as HarnessAction;
  if (tool === "set_window_frame" && only(a, ["pid", "window_id", "x", "y", "width", "height"]))
    return { action: "set_window_frame", ...(a as object) } as HarnessAction;
  return { action: "call", tool, args: a };
}
