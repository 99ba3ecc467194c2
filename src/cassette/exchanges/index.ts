export {
  createExchangeReader,
  readExchanges,
  storedText,
  storedTextsOf,
  toolOf,
  transportOf,
  type CliExchange,
  type ExchangeReader,
  type ExchangeVisitor,
  type HttpExchange,
  type McpExchange,
  type McpStreamEvent,
  type OtherLine,
  type ReadOptions,
  type RecordedExchange,
  type RecordedTransport,
} from "./reader.js";
export { idKey, readRpcMessage, RpcMessage } from "./rpc-message.js";
