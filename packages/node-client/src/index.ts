export { createNodeClient } from "./create-node-client.ts";
export {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_NODE_BATCH_CALLS,
  DEFAULT_COOL_DOWN_MS,
  DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  type NodeClientOptions,
} from "./node-client-options.ts";
export {
  type BufferedCallOptions,
  type CallOptions,
  type NodeClient,
  type NodeEndpoint,
  type RawNodeResponse,
  type RequestOptions,
  type UpstreamState,
} from "./node-client.ts";
export { type NodeAuth } from "./node-auth.ts";
export { JSONRPC_1_0, JSONRPC_2_0, reasonTable, type JsonRpcEnvelope, type NodeChain } from "./node-chain.ts";
export {
  NodeAnswerError,
  NodeAuthError,
  NodeCallAbortedError,
  nodeErrorCodes,
  nodeFailureDetails,
  NodeNotConfiguredError,
  NodeRpcError,
  NodeUnreachableError,
  type ChainLabel,
  type NodeClientError,
  type NodeFailureReason,
} from "./node-errors.ts";
export { bitcoin, BITCOIN_REASON_CODES } from "./chains/bitcoin.ts";
export { ethereum, ETHEREUM_REASON_CODES, evmChain } from "./chains/ethereum.ts";
export { tron } from "./chains/tron.ts";
export { JsonNumber, parseLosslessJson, stringifyLosslessJson } from "./lossless-json.ts";
export { streamJsonRpcResult, type StreamResultHandlers } from "./stream-jsonrpc-result.ts";
export { observeNodeCalls, type NodeCallObservation, type NodeCallObserver } from "./observe-node-calls.ts";
