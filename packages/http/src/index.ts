export {
  acceptedRequestId,
  createHttpApp,
  send,
  DEFAULT_JSON_BODY_LIMIT,
  READINESS_CHECK_TIMEOUT_MS,
  type HttpApp,
  type HttpAppOptions,
  type HttpMethod,
} from "./create-http-app.ts";
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
export {
  createBufferGarbageBound,
  DEFAULT_GARBAGE_THRESHOLD_BYTES,
  gcNudgeBytesSetting,
  type BufferGarbageBound,
} from "./bound-buffer-garbage.ts";
export { createMajorGcNudge, DEFAULT_MAJOR_GC_NUDGE_BYTES, type MajorGcNudge } from "./gc-nudge.ts";
export { assertJsonDepth, JsonTooDeepError, MAX_JSON_DEPTH } from "./json-depth.ts";
export { QueryParameterError, strictQuery } from "./strict-query.ts";
export { abortOnClose } from "./abort-on-close.ts";
export { MISSING_ACCOUNT_MESSAGE, MissingAccountError, readAccountId } from "./read-account-id.ts";
