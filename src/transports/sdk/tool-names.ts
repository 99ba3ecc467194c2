/**
 * Which tool names the cua-driver binary would accept, from the runtime's own inventory. The
 * binary authorizes before it looks a tool up: a name with no reviewed risk class is refused as
 * `permission_denied`; a classified name the platform does not register is `Unknown tool`.
 */
import { classifiedNames } from "#src/driver/catalogue.js";
import { inventoryTools } from "#src/transports/cli/wire/render-static.js";

export interface ToolNames {
  registered: ReadonlySet<string>;
  classified: ReadonlySet<string>;
}

export function toolNames(listToolsJson: string): ToolNames {
  const registered = new Set(inventoryTools(listToolsJson).map((t) => t.name));
  return { registered, classified: classifiedNames(registered) };
}

/** The text of an SDK `DriverError` as the driver would print it. */
export function driverErrorText(error: unknown): string {
  if (error && typeof error === "object" && "inner" in error) {
    const inner = (error as { inner: unknown }).inner;
    if (inner && typeof inner === "object") {
      const { tool, reason } = inner as { tool?: unknown; reason?: unknown };
      if (typeof reason === "string") return typeof tool === "string" ? `invalid arguments for ${tool}: ${reason}` : reason;
    }
    if (typeof inner === "string") return inner;
  }
  return error instanceof Error ? error.message : String(error);
}
