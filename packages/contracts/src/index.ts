export { z } from "./zod.ts";
export * from "./events/index.ts";
export * from "./api/error-bodies.ts";
export { btcFeeEstimateQuerySchema, btcSendRawRequestSchema, registerBtcPaths } from "./api/btc.ts";
export * from "./api/xpub.ts";
export { registerTrxPaths, trxCreateTransactionRequestSchema } from "./api/trx.ts";
export { buildOpenApiDocument, documentedRoutes } from "./openapi/build-openapi-document.ts";
export { GATEWAY_RESPONSES, SECURITY, json, OpenAPIRegistry } from "./openapi/openapi-registry.ts";
