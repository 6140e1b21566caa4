export { type ProxyRoute } from "./proxy-route.ts";
export {
  createJsonRpcProxyPolicy,
  jsonRpcProxyErrorBody,
  type ForwardedJsonRpcCall,
  type JsonRpcPolicyDecision,
  type JsonRpcProxyErrorBody,
  type JsonRpcProxyPolicy,
  type JsonRpcProxyPolicyOptions,
  type JsonValue,
} from "./jsonrpc-proxy-policy.ts";
export { forwardJsonRpc, type ForwardJsonRpcOptions } from "./forward-jsonrpc.ts";
export { type JsonRpcForwardOutcome } from "./exchange-jsonrpc.ts";
export { NODE_CHUNKS_IN_FLIGHT } from "./forward-batch-in-chunks.ts";
export { sendJsonRpcOutcome, type SendJsonRpcOutcomeOptions } from "./send-jsonrpc-outcome.ts";
export { jsonRpcBody, postJsonRpc, type JsonRpcBatchSettings } from "./post-jsonrpc.ts";
export { getHealth, type HealthProbe } from "./get-health.ts";
export { genericNodeError, nodeErrorResponses, nodeFailureResponse } from "./node-error-responses.ts";
export { pipeNodeBody, type PipeNodeBodyOptions } from "./pipe-node-body.ts";
export { peekFirstByte } from "./peek-first-byte.ts";
export { streamNodeResult, type StreamNodeResultOptions } from "./stream-node-result.ts";
export { jsonRpcBodyLimitSetting } from "./jsonrpc-body-limit-setting.ts";
