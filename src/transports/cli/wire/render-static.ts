/**
 * The finite `cua-driver` subcommands that need no tool call: `--version`, `--help`,
 * `list-tools`, `describe`, `manifest`, rendered from the runtime's own tool inventory
 * (`listToolsJson()`) and version, the way the 0.21.0 binary prints them.
 */
import { firstSentence, helpText, MANIFEST_SCHEMA_VERSION, MANIFEST_SUBCOMMANDS_JSON, versionText } from "#src/driver/binary-reference.js";
import { unknownToolText, USAGE_EXIT_CODE } from "#src/driver/messages.js";
import { serdeString } from "#src/wire/json/string.js";
import { member, parseSerdeJson, serdeCompact, serdePretty, stringValue, type SerdeNode } from "#src/wire/json/tree.js";

export interface RenderedText {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export function renderVersion(version: string): RenderedText {
  return { stdout: versionText(version), stderr: "", exitCode: 0 };
}

export function renderHelp(version: string): RenderedText {
  return { stdout: helpText(version), stderr: "", exitCode: 0 };
}

interface InventoryTool {
  name: string;
  description: string;
  inputSchema: SerdeNode | undefined;
}

/** The tools of a `listToolsJson()` document, in registration order. */
export function inventoryTools(listToolsJson: string): InventoryTool[] {
  const tools = member(parseSerdeJson(listToolsJson), "tools");
  if (tools?.kind !== "array") return [];
  return tools.items.map((tool) => ({
    name: stringValue(member(tool, "name")) ?? "",
    description: stringValue(member(tool, "description")) ?? "",
    inputSchema: member(tool, "inputSchema"),
  }));
}

/** `list-tools`: one `name: first sentence` line per tool, sorted by name. */
export function renderListTools(listToolsJson: string): RenderedText {
  const lines = inventoryTools(listToolsJson)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((tool) => {
      const sentence = firstSentence(tool.description);
      return sentence ? `${tool.name}: ${sentence}` : tool.name;
    });
  return { stdout: lines.map((l) => `${l}\n`).join(""), stderr: "", exitCode: 0 };
}

/** `describe <tool>`: name, description, pretty input schema; unknown → the tool list, exit 64. */
export function renderDescribe(listToolsJson: string, name: string): RenderedText {
  const tools = inventoryTools(listToolsJson);
  const tool = tools.find((t) => t.name === name);
  if (!tool) {
    const names = tools.map((t) => t.name).sort();
    return { stdout: "", stderr: `${unknownToolText(name)}\nAvailable tools:\n${names.map((n) => `  ${n}\n`).join("")}`, exitCode: USAGE_EXIT_CODE };
  }
  let out = `name: ${tool.name}\n\n`;
  if (tool.description) out += `description:\n${tool.description}\n\n`;
  out += `input_schema:\n${tool.inputSchema ? serdePretty(tool.inputSchema) : "null"}\n`;
  return { stdout: out, stderr: "", exitCode: 0 };
}

/** `manifest [--pretty]`: the 0.21.0 subcommand table with this runtime's version and binary path. */
export function renderManifest(options: { version: string; binaryPath: string; pretty: boolean }): RenderedText {
  const path = { kind: "scalar", raw: serdeString(options.binaryPath) } as const;
  const node: SerdeNode = {
    kind: "object",
    entries: [
      entry("binary_path", path),
      entry("binary_version", { kind: "scalar", raw: serdeString(options.version) }),
      entry("mcp_invocation", {
        kind: "object",
        entries: [entry("args", { kind: "array", items: [{ kind: "scalar", raw: '"mcp"' }] }), entry("command", path)],
      }),
      entry("schema_version", { kind: "scalar", raw: serdeString(MANIFEST_SCHEMA_VERSION) }),
      entry("subcommands", parseSerdeJson(MANIFEST_SUBCOMMANDS_JSON)),
    ],
  };
  return { stdout: `${options.pretty ? serdePretty(node) : serdeCompact(node)}\n`, stderr: "", exitCode: 0 };
}

function entry(key: string, value: SerdeNode) {
  return { key, rawKey: serdeString(key), value };
}
