import type { McpSessionHandler, ShimBackend } from "#src/shim-server/backend.js";

/**
 * A client of one MCP stdio session a ShimBackend serves (verify's candidate, live or replayed),
 * driven one request at a time: a request's answer is the line with its id.
 */
export interface McpStreamClient {
  /** Sends a line; for a request (it has an id), resolves with the answer line, or undefined past the deadline. */
  send(line: string, id: unknown): Promise<string | undefined>;
  /** Every line the candidate wrote, in order (for --update). */
  readonly lines: Array<{ dir: "c2s" | "s2c"; line: string }>;
  readonly stderr: string[];
  /** Ends stdin and waits for the session to exit. */
  close(): Promise<number | null>;
}

/** Opens a session on the backend with the argv and environment `cua-driver mcp` was started with. */
export function openMcpStreamClient(options: {
  backend: ShimBackend;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
}): McpStreamClient {
  const waiting = new Map<string, (line: string) => void>();
  const lines: McpStreamClient["lines"] = [];
  const stderr: string[] = [];
  let exited: (code: number | null) => void = () => {};
  const exit = new Promise<number | null>((resolve) => (exited = resolve));
  const handler: McpSessionHandler = options.backend.mcp(
    { argv: options.argv, cwd: options.cwd, env: options.env },
    {
      send: (line) => {
        lines.push({ dir: "s2c", line });
        const id = idOf(line);
        if (id !== undefined) {
          waiting.get(id)?.(line);
          waiting.delete(id);
        }
      },
      stderr: (data) => stderr.push(String(data)),
      exit: (code) => exited(code),
    },
  );
  return {
    lines,
    stderr,
    send(line, id) {
      lines.push({ dir: "c2s", line });
      if (id === undefined || id === null) {
        handler.line(line);
        return Promise.resolve(undefined);
      }
      const key = JSON.stringify(id);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(key);
          resolve(undefined);
        }, options.timeoutMs);
        waiting.set(key, (answer) => {
          clearTimeout(timer);
          resolve(answer);
        });
        handler.line(line);
      });
    },
    async close() {
      handler.end();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), options.timeoutMs)));
      const code = await Promise.race([exit, late]);
      clearTimeout(timer);
      handler.gone?.();
      return code;
    },
  };
}

function idOf(line: string): string | undefined {
  try {
    const msg = JSON.parse(line) as { id?: unknown; method?: unknown };
    return msg.id !== undefined && msg.method === undefined ? JSON.stringify(msg.id) : undefined;
  } catch {
    return undefined;
  }
}
