// `cua-contract/msw`: msw handlers that answer MCP over HTTP from a cassette, in process.
export { cassetteHandlers, type CassetteHandlers, type CassetteHandlersOptions } from "#src/transports/http/msw.js";
