import type { Driver, Reply, ToolInfo } from "#src/driver/port.js";

/**
 * What a scripted driver answers for a tool: one reply every time, a list consumed in order (the
 * last one repeating), or a function of the arguments and the call's index for that tool.
 */
export type Script = Record<string, Reply | Reply[] | ((args: Record<string, unknown>, n: number) => Reply)>;

/** A Driver that answers from a script and remembers the tools it was called with. */
export interface ScriptedDriver extends Driver {
  /** Every call, in order. */
  log: { tool: string; args: Record<string, unknown> }[];
  /** The tools called, in order. */
  tools(): string[];
}

/**
 * An in-memory Driver for unit tests of a harness: no process, no cassette, answers from a script.
 * A tool with no scripted reply throws, so a test notices a call it did not expect.
 */
export function scriptedDriver(script: Script, tools: ToolInfo[] = []): ScriptedDriver {
  const counts = new Map<string, number>();
  const log: ScriptedDriver["log"] = [];
  return {
    log,
    tools: () => log.map((c) => c.tool),
    async call(tool, args) {
      log.push({ tool, args });
      const n = counts.get(tool) ?? 0;
      counts.set(tool, n + 1);
      const entry = script[tool];
      if (entry === undefined) throw new Error(`scripted driver: no reply scripted for ${tool}`);
      if (typeof entry === "function") return entry(args, n);
      if (Array.isArray(entry)) return entry[Math.min(n, entry.length - 1)]!;
      return entry;
    },
    async listTools() {
      return tools;
    },
  };
}
