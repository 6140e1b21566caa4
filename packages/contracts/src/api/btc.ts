/**
 * `/api/v1/btc` (except xpub): request schemas the btc-proxy validates with, and the OpenAPI
 * description of every Bitcoin endpoint, one route family per module in `btc/`.
 */
import type { OpenAPIRegistry } from "../openapi/openapi-registry.ts";
import { registerBtcAccountPath } from "./btc/register-btc-account-path.ts";
import { registerBtcBlockPaths } from "./btc/register-btc-block-paths.ts";
import { registerBtcFeePaths } from "./btc/register-btc-fee-paths.ts";
import { registerBtcHealthPath } from "./btc/register-btc-health-path.ts";
import { registerBtcJsonRpcPath } from "./btc/register-btc-jsonrpc-path.ts";
import { registerBtcTransactionPaths } from "./btc/register-btc-transaction-paths.ts";

export {
  BTC_JSONRPC_ALLOWED_METHODS,
  BTC_JSONRPC_MAX_BATCH_CALLS,
  btcFeeEstimateQuerySchema,
  btcSendRawRequestSchema,
} from "./btc/btc-requests.ts";

/** Registers every Bitcoin path; the order of the calls is the order of the paths in the document. */
export function registerBtcPaths(registry: OpenAPIRegistry): void {
  registerBtcHealthPath(registry);
  registerBtcBlockPaths(registry);
  registerBtcAccountPath(registry);
  registerBtcTransactionPaths(registry);
  registerBtcFeePaths(registry);
  registerBtcJsonRpcPath(registry);
}
