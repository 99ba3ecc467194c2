import os from "node:os";
import type net from "node:net";
import { callReadsStdin, parseDriverArgv } from "#src/transports/cli/wire/argv.js";
import { createLineFramer } from "#src/transports/mcp/wire/lines.js";
import type { CliResponse, McpSessionHandler, ShimBackend } from "./backend.js";
import { createFrameDecoder, encodeFrame } from "./frames.js";

interface ShimHello {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  stdinIsTty: boolean;
}

/** Serves one shim invocation: reads its header, then runs it as a per-call CLI request or an MCP session. */
export function handleConnection(options: {
  socket: net.Socket;
  backend: ShimBackend;
  cleanEnv: (env: Record<string, string>) => Record<string, string>;
  onError: (error: unknown) => void;
}): void {
  const { socket } = options;
  const hello: ShimHello = { argv: [], env: {}, cwd: "", stdinIsTty: false };
  let onBody: ((type: string, body: Buffer) => void) | undefined;
  const decode = createFrameDecoder((type, body) => {
    if (onBody) return onBody(type, body);
    if (type === "A") hello.argv.push(body.toString("utf8"));
    else if (type === "E") {
      const s = body.toString("utf8");
      const eq = s.indexOf("=");
      if (eq > 0) hello.env[s.slice(0, eq)] = s.slice(eq + 1);
    } else if (type === "D") hello.cwd = body.toString("utf8");
    else if (type === "T") hello.stdinIsTty = body.toString() === "1";
    else if (type === "G") {
      hello.env = options.cleanEnv(hello.env);
      const parsed = parseDriverArgv(hello.argv);
      onBody =
        parsed.subcommand === "mcp"
          ? serveMcp({ ...options, hello })
          : serveCli({ ...options, hello, needsStdin: callReadsStdin(parsed) && !hello.stdinIsTty });
    }
  });
  socket.on("data", decode);
  socket.on("error", () => {});
}

function serveCli(options: {
  socket: net.Socket;
  backend: ShimBackend;
  hello: ShimHello;
  needsStdin: boolean;
  onError: (error: unknown) => void;
}): (type: string, body: Buffer) => void {
  const { socket, hello } = options;
  const abort = new AbortController();
  let answered = false;
  socket.on("close", () => {
    if (!answered) abort.abort(new Error("the shim process went away"));
  });
  const chunks: Buffer[] = [];
  const run = () => {
    options.backend
      .cli({ argv: hello.argv, stdin: Buffer.concat(chunks), cwd: hello.cwd, env: hello.env, signal: abort.signal, stdinIsTty: hello.stdinIsTty })
      .then((response) => {
        answered = true;
        if (!socket.destroyed) socket.end(responseFrames(response));
      })
      .catch((error: unknown) => {
        answered = true;
        options.onError(error);
        if (!socket.destroyed) {
          const message = `cua-contract: the session could not answer this call: ${error instanceof Error ? error.message : String(error)}\n`;
          socket.end(Buffer.concat([encodeFrame("R", message), encodeFrame("X", "1")]));
        }
      });
  };
  if (options.needsStdin) {
    socket.write(encodeFrame("W"));
  } else {
    run();
  }
  return (type, body) => {
    if (!options.needsStdin) return;
    if (type === "I") chunks.push(Buffer.from(body));
    else if (type === "Z") run();
  };
}

function responseFrames(response: CliResponse): Buffer {
  const parts: Buffer[] = [];
  if (response.stdout.length) parts.push(encodeFrame("O", response.stdout));
  if (response.stderr.length) parts.push(encodeFrame("R", response.stderr));
  if (response.signal) {
    const signo = os.constants.signals[response.signal] ?? os.constants.signals.SIGTERM;
    parts.push(encodeFrame("S", String(signo)));
  } else {
    parts.push(encodeFrame("X", String(response.exitCode ?? 1)));
  }
  return Buffer.concat(parts);
}

function serveMcp(options: {
  socket: net.Socket;
  backend: ShimBackend;
  hello: ShimHello;
  onError: (error: unknown) => void;
}): (type: string, body: Buffer) => void {
  const { socket, hello } = options;
  let exited = false;
  let ended = false;
  let handler: McpSessionHandler | undefined;
  const end = () => {
    if (ended) return;
    ended = true;
    handler?.end();
  };
  handler = options.backend.mcp(
    { argv: hello.argv, cwd: hello.cwd, env: hello.env },
    {
      send(line) {
        if (!exited && !socket.destroyed) socket.write(encodeFrame("O", `${line}\n`));
      },
      stderr(data) {
        if (!exited && !socket.destroyed) socket.write(encodeFrame("R", data));
      },
      exit(code, signal) {
        if (exited) return;
        exited = true;
        if (socket.destroyed) return;
        const signo = signal ? os.constants.signals[signal] : undefined;
        socket.end(signo ? encodeFrame("S", String(signo)) : encodeFrame("X", String(code ?? 1)));
      },
    },
  );
  socket.on("close", () => {
    end();
    if (!exited) {
      exited = true;
      handler?.gone?.();
    }
  });
  socket.write(encodeFrame("W"));
  let ending = false;
  const lines = createLineFramer((line) => {
    if (ending) return void handler?.line(line);
    try {
      handler?.line(line);
    } catch (error) {
      options.onError(error);
    }
  });
  return (type, body) => {
    if (type === "I") lines.push(body);
    else if (type === "Z") {
      ending = true;
      lines.end();
      end();
    }
  };
}
