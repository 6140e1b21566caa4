export { type ProxyRoute } from "./proxy-route.ts";
export {
  createJsonRpcProxyPolicy,
  DEFAULT_MAX_JSONRPC_DEPTH,
  jsonRpcProxyErrorBody,
  JSONRPC_INVALID_REQUEST,
  JSONRPC_METHOD_NOT_ALLOWED,
  JSONRPC_NODE_UNREACHABLE,
  JSONRPC_PARSE_ERROR,
  type ForwardedJsonRpcCall,
  type JsonRpcPolicyDecision,
  type JsonRpcProxyErrorBody,
  type JsonRpcProxyPolicy,
  type JsonRpcProxyPolicyOptions,
  type JsonValue,
} from "./jsonrpc-proxy-policy.ts";
export {
  forwardJsonRpc,
  JSONRPC_CONTENT_TYPE,
  NODE_CHUNKS_IN_FLIGHT,
  type ForwardJsonRpcOptions,
  type JsonRpcForwardOutcome,
} from "./forward-jsonrpc.ts";
export { sendJsonRpcOutcome, type SendJsonRpcOutcomeOptions } from "./send-jsonrpc-outcome.ts";
export { jsonRpcBody, postJsonRpc, type JsonRpcBatchSettings } from "./post-jsonrpc.ts";
export { getHealth, type HealthProbe } from "./get-health.ts";
export { genericNodeError, nodeErrorResponses, nodeFailureResponse } from "./node-error-responses.ts";
export { pipeNodeBody, type PipeNodeBodyOptions } from "./pipe-node-body.ts";
export { peekFirstByte } from "./peek-first-byte.ts";
export { streamNodeResult, type StreamNodeResultOptions } from "./stream-node-result.ts";
export { jsonRpcBodyLimitSetting } from "./jsonrpc-body-limit-setting.ts";
