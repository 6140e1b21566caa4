export { z } from "./zod.ts";
export * from "./events/index.ts";
export * from "./webhook-settings.ts";
export * from "./api/error-bodies.ts";
export {
  BTC_JSONRPC_ALLOWED_METHODS,
  BTC_JSONRPC_MAX_BATCH_CALLS,
  btcFeeEstimateQuerySchema,
  btcSendRawRequestSchema,
  registerBtcPaths,
} from "./api/btc.ts";
export * from "./api/xpub.ts";
export * from "./api/webhooks.ts";
export * from "./api/eth.ts";
export * from "./api/account.ts";
export { REQUEST_BODY_LIMITS, requestBodyLimitBytes, type RouteFamily } from "./api/request-body-limits.ts";
export {
  registerTrxPaths,
  TRX_JSONRPC_ALLOWED_METHODS,
  TRX_JSONRPC_MAX_BATCH_CALLS,
  trxCreateTransactionRequestSchema,
} from "./api/trx.ts";
export { buildOpenApiDocument, documentedRoutes } from "./openapi/build-openapi-document.ts";
export { GATEWAY_RESPONSES, SECURITY, json, OpenAPIRegistry } from "./openapi/openapi-registry.ts";
export { QUOTA_USAGE_ROUTE, quotaUsagePath, quotaUsageSchema, type QuotaUsage } from "./internal/quota-usage.ts";
export { chainListSchema, chainSchema, type ChainListBody } from "./api/chains.ts";
