/**
 * `/api/v1/eth` (except xpub): request schemas the eth-proxy validates with, and the OpenAPI
 * description of every Ethereum endpoint, one route family per module in `eth/`. Records (blocks,
 * transactions, receipts, fee history) are the node's own JSON-RPC objects, passed through unchanged.
 */
import type { OpenAPIRegistry } from "../openapi/openapi-registry.ts";
import { registerEthAccountPaths } from "./eth/register-eth-account-paths.ts";
import { registerEthBlockPaths } from "./eth/register-eth-block-paths.ts";
import { registerEthFeePaths } from "./eth/register-eth-fee-paths.ts";
import { registerEthHealthPath } from "./eth/register-eth-health-path.ts";
import { registerEthJsonRpcPath } from "./eth/register-eth-jsonrpc-path.ts";
import { registerEthTransactionPaths } from "./eth/register-eth-transaction-paths.ts";

export { ETH_BLOCK_TAGS, ETH_DATA, ETH_HASH, ETH_QUANTITY, isEthBlockParameter } from "./eth/eth-value-formats.ts";
export {
  ETH_JSONRPC_ALLOWED_METHODS,
  ETH_JSONRPC_MAX_BATCH_CALLS,
  ethEstimateGasRequestSchema,
  ethSendRawRequestSchema,
  ethSendTransactionRequestSchema,
  ethTransactionParametersSchema,
} from "./eth/eth-requests.ts";

/** Registers every Ethereum path; the order of the calls is the order of the paths in the document. */
export function registerEthPaths(registry: OpenAPIRegistry): void {
  registerEthHealthPath(registry);
  registerEthAccountPaths(registry);
  registerEthTransactionPaths(registry);
  registerEthBlockPaths(registry);
  registerEthFeePaths(registry);
  registerEthJsonRpcPath(registry);
}
