// The public surface of cua-contract. Each part adds its names here.
export { UserError, isUserError, type UserErrorCode } from "./errors.js";
export * from "./driver/port.js";
export { isReadOnlyTool, READ_ONLY_TOOLS_0_21 } from "./driver/tool-kinds.js";
export * from "./schema/cassette.js";
export * from "./schema/replay-log.js";
export * from "./cassette/index.js";
