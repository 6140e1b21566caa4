export { acceptedRequestId, createHttpApp, send, DEFAULT_JSON_BODY_LIMIT, READINESS_CHECK_TIMEOUT_MS, type HttpApp, type HttpAppOptions, type HttpMethod } from "./create-http-app.ts";
export { listenOptions, serveHttpApp, startHttpServer, DEFAULT_DRAIN_TIMEOUT_MS, type RunningHttpServer, type ServedApp, type StartHttpServerOptions } from "./start-http-server.ts";
export { onShutdownSignal } from "./on-shutdown-signal.ts";
export { checkRequest, parseRequest, type CheckedRequest } from "./parse-request.ts";
export {
  errorResponseFor,
  INTERNAL_ERROR,
  methodNotAllowed,
  routeNotFound,
  type ErrorResponse,
  type ErrorResponseTable,
} from "./http-errors.ts";
export { ACCOUNT_ID_HEADER, INTERNAL_TOKEN_HEADER, REQUEST_ID_HEADER } from "./internal-headers.ts";
export { INTERNAL_TOKEN_REFUSED_MESSAGE, MIN_INTERNAL_TOKEN_LENGTH, requireInternalToken } from "./require-internal-token.ts";
export { runService, type RunningService } from "./run-service.ts";
export { createBufferGarbageBound, DEFAULT_GARBAGE_THRESHOLD_BYTES, type BufferGarbageBound } from "./bound-buffer-garbage.ts";
export { assertJsonDepth, JsonTooDeepError, MAX_JSON_DEPTH } from "./json-depth.ts";
export { createServiceMetrics, DURATION_BUCKETS_SECONDS, metricPrefix, nodeCallMetrics, serveMetrics, type ServiceMetrics } from "./service-metrics.ts";
export { QueryParameterError, strictQuery } from "./strict-query.ts";
export { abortOnClose } from "./abort-on-close.ts";
export { pipeNodeBody, type PipeNodeBodyOptions } from "./pipe-node-body.ts";
export { sendJsonRpcOutcome, type JsonRpcOutcome, type SendJsonRpcOutcomeOptions } from "./send-jsonrpc-outcome.ts";
