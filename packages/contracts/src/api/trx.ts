/**
 * `/api/v1/trx`: request schemas the trx-proxy validates with, and the OpenAPI description of every
 * Tron endpoint, one route family per module in `trx/`.
 */
import type { OpenAPIRegistry } from "../openapi/openapi-registry.ts";
import { registerTrxAccountPaths } from "./trx/register-trx-account-paths.ts";
import { registerTrxDeprecatedPaths } from "./trx/register-trx-deprecated-paths.ts";
import { registerTrxHealthPath } from "./trx/register-trx-health-path.ts";
import { registerTrxJsonRpcPath } from "./trx/register-trx-jsonrpc-path.ts";
import { registerTrxLatestBlocksPath } from "./trx/register-trx-latest-blocks-path.ts";
import { registerTrxTokensPath } from "./trx/register-trx-tokens-path.ts";
import { registerTrxTransactionPaths } from "./trx/register-trx-transaction-paths.ts";

export { TRX_JSONRPC_ALLOWED_METHODS, TRX_JSONRPC_MAX_BATCH_CALLS, trxCreateTransactionRequestSchema } from "./trx/trx-requests.ts";

/** Registers every Tron path; the order of the calls is the order of the paths in the document. */
export function registerTrxPaths(registry: OpenAPIRegistry): void {
  registerTrxHealthPath(registry);
  registerTrxAccountPaths(registry);
  registerTrxLatestBlocksPath(registry);
  registerTrxTokensPath(registry);
  registerTrxTransactionPaths(registry);
  registerTrxJsonRpcPath(registry);
  registerTrxDeprecatedPaths(registry);
}
