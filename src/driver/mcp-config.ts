/**
 * What `cua-driver mcp-config [--client NAME]` says, as the 0.21.0 binary says it on Linux
 * (cli.rs:1910-2139): client-specific wiring text around the binary's own path
 * (`std::env::current_exe()`, else `cua-driver`), or the error for a client it does not know.
 * Pure: the caller says what the binary path is; `src/transports/cli/wire/render-mcp-config.ts` prints it.
 */

/** The guidance for a known client (without the final newline), or the error text for an unknown one. */
export type McpConfigGuidance = { ok: true; text: string } | { ok: false; error: string };

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

export function mcpConfigGuidance(options: { client: string | undefined; binary: string }): McpConfigGuidance {
  const { binary } = options;
  const out = (text: string): McpConfigGuidance => ({ ok: true, text });
  const normalised = binary.replace(/\\/g, "/");
  switch (options.client) {
    case undefined:
    case "":
      return out(`{\n  "mcpServers": {\n    "cua-driver": {\n      "command": "${binary}",\n      "args": ["mcp"]\n    }\n  }\n}`);
    case "claude":
    case "claude-code":
      // serde_json::json! builds a Value: keys sorted, compact (cli.rs:1962-1972)
      return out(`claude mcp add-json --scope user cua-computer-use '${JSON.stringify({ args: ["mcp"], command: normalised })}'`);
    case "codex":
      return out(`codex mcp add cua-driver -- ${binary} mcp`);
    case "cursor":
      return out(`{\n  "mcpServers": {\n    "cua-driver": {\n      "command": "${binary}",\n      "args": ["mcp"],\n      "type": "stdio"\n    }\n  }\n}`);
    case "openclaw":
      return out(`openclaw mcp set cua-driver '{"command":"${binary}","args":["mcp"]}'`);
    case "opencode":
      return out(
        `// paste under "mcp" in opencode.json:\n{\n  "$schema": "https://opencode.ai/config.json",\n  "mcp": {\n    "cua-driver": {\n      "type": "local",\n      "command": ["${binary}", "mcp"],\n      "enabled": true\n    }\n  }\n}`,
      );
    case "hermes":
      return out(
        `# paste under mcp_servers in ~/.hermes/config.yaml,\n# then run /reload-mcp inside Hermes:\nmcp_servers:\n  cua-driver:\n    command: "${binary}"\n    args: ["mcp"]`,
      );
    case "antigravity":
    case "gemini":
      return out(
        "# Antigravity CLI (the `agy` binary) reads MCP server configs from:\n" +
          "#   ~/.gemini/config/mcp_config.json   (Unix)\n" +
          "#   %USERPROFILE%\\.gemini\\config\\mcp_config.json   (Windows)\n" +
          "#\n" +
          "# No `agy` subcommand for this — drop the JSON below into that file (or\n" +
          '# merge under the existing top-level "mcpServers" object if it already\n' +
          "# exists), then restart `agy` to pick up the change.\n" +
          "#\n" +
          "# The same file is shared with the Antigravity IDE.\n" +
          pretty({ mcpServers: { "cua-driver": { args: ["mcp"], command: normalised } } }),
      );
    case "pi":
      return out(
        "Pi (badlogic/pi-mono) does not support MCP natively — the author\n" +
          "has stated MCP support will not be added for context-budget reasons.\n\n" +
          "Use cua-driver as a plain CLI from inside Pi instead:\n\n" +
          `${binary} list_apps\n` +
          `${binary} click  '{"pid": 1234, "x": 100, "y": 200}'\n` +
          `${binary} --help        # full tool catalog\n\n` +
          "Each call is one-shot and returns JSON / text on stdout, which is\n" +
          "exactly the shape Pi is designed around.",
      );
    case "prime-agent":
      return out(
        "Prime Agent loads Agent Skills and can call cua-driver directly from its\n" +
          "persistent IPython control environment. No MCP registration is required.\n\n" +
          "Install and verify the Cua Driver skill pack:\n\n" +
          `${binary} skills install\n` +
          `${binary} skills status\n\n` +
          "Then run /reload in Prime Agent (or start a new session) and ask it to\n" +
          "use the Cua Driver skill. Use /skill:cua-driver to invoke it explicitly.\n" +
          "The skill calls the cua-driver CLI with a snapshot/action/verify workflow.",
      );
    case "qwen":
    case "qwen-code":
      return out(`qwen mcp add cua-driver ${binary} mcp`);
    case "droid":
    case "factory":
      return out(`droid mcp add cua-driver "${binary} mcp"`);
    case "zcode":
      return out(
        "# ZCode (Z.ai) is a GUI app — add via Settings -> MCP Servers ->\n" +
          '# New MCP Server (type: stdio), or paste this under "Full\n' +
          "# configuration\". If you use Z.ai's `zai` CLI instead, run:\n" +
          `#   zai mcp add cua-driver --transport stdio --command "${binary}" --args mcp\n` +
          pretty({ mcpServers: { "cua-driver": { args: ["mcp"], command: normalised, type: "stdio" } } }),
      );
    default:
      return {
        ok: false,
        error: `Unknown client '${options.client}'. Valid: claude, codex, cursor, antigravity, openclaw, opencode, hermes, pi, prime-agent, qwen, droid, zcode.`,
      };
  }
}
