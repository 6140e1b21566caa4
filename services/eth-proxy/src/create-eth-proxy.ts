/**
 * Wires an eth-proxy from its config. Every route of `/api/v1/eth` except xpub is listed here, in
 * one place; each handler lives in `http/`. Each EVM chain of EVM_CHAINS gets the same routes
 * under its own prefix (`/api/v1/polygon/...`), in front of its own nodes.
 */
import { createBufferGarbageBound, createHttpApp, type HttpApp } from "@chaingate/http";
import { listenOptions, serveHttpApp, type ServedApp } from "@chaingate/service-kit";
import { getHealth, jsonRpcBody, postJsonRpc, type ProxyRoute } from "@chaingate/chain-proxy";
import type { Logger } from "@chaingate/logger";
import type { EthProxyConfig } from "./config.ts";
import { ethJsonRpcRules } from "./domain/jsonrpc-rules.ts";
import { estimateGas } from "./http/estimate-gas.ts";
import { ethErrorResponses } from "./http/eth-error-responses.ts";
import { getAccount, getBalance, getNonce } from "./http/get-account.ts";
import { getBlockByHash, getBlockByNumber } from "./http/get-blocks.ts";
import { getFeeHistory, getGasPrice } from "./http/get-fees.ts";
import { getReceipt, getTransaction } from "./http/get-transactions.ts";
import { ethHealthProbe } from "./http/health-probe.ts";
import { sendRawTransaction } from "./http/send-raw-transaction.ts";
import { sendTransaction } from "./http/send-transaction.ts";
import { createServedEvmChains, type ServedEvmChain } from "./served-evm-chains.ts";

export type EthProxy = ServedApp;

export async function createEthProxy(config: EthProxyConfig, logger: Logger): Promise<EthProxy> {
  const chains = createServedEvmChains(config, logger);
  // A configured chain's nodes are checked now (their chain id), not at the first client's call.
  for (const { node } of chains.slice(1)) void node.call("eth_chainId").catch(() => undefined);
  const http = createEthProxyApp(chains, config, logger);
  return serveHttpApp(http, listenOptions(config, logger), async () => void (await Promise.all(chains.map(({ node }) => node.close()))));
}

/** The route table of `/api/v1/eth` (except xpub), and of each configured EVM chain's prefix. */
export function createEthProxyApp(
  chains: readonly ServedEvmChain[],
  config: {
    JSONRPC_BODY_LIMIT: string | number;
    GC_NUDGE_BYTES: number;
    INTERNAL_TOKEN?: string | undefined;
    JSONRPC_MAX_BATCH?: number;
    ETH_RPC_MAX_BATCH?: number;
  },
  logger: Logger,
): HttpApp {
  const http = createHttpApp({
    service: "eth-proxy",
    logger,
    errorResponses: ethErrorResponses(
      logger,
      chains.map(({ node }) => node.chain),
    ),
    internalToken: config.INTERNAL_TOKEN,
  });
  // Blocks with full transactions are megabytes: keep their dead read buffers bounded.
  const garbageBound = createBufferGarbageBound(config.GC_NUDGE_BYTES);
  for (const { prefix, node } of chains) registerEvmRoutes(http, `/api/v1/${prefix}`, { node, logger, garbageBound }, config);
  http.finish();
  return http;
}

function registerEvmRoutes(
  http: HttpApp,
  base: string,
  route: ProxyRoute,
  config: { JSONRPC_BODY_LIMIT: string | number; JSONRPC_MAX_BATCH?: number; ETH_RPC_MAX_BATCH?: number },
): void {
  http.route("get", `${base}/health`, getHealth(route, ethHealthProbe));
  http.route("get", `${base}/account`, getAccount(route));
  http.route("get", `${base}/account/:address/nonce`, getNonce(route));
  http.route("get", `${base}/account/:address/balance`, getBalance(route));
  http.route("post", `${base}/account/estimate-gas`, http.jsonBody, estimateGas(route));
  http.route("post", `${base}/account/send`, http.jsonBody, sendTransaction(route));
  http.route("post", `${base}/transactions/send-raw`, http.jsonBody, sendRawTransaction(route));
  http.route("get", `${base}/transactions/:transactionHash`, getTransaction(route));
  http.route("get", `${base}/transactions/:transactionHash/receipt`, getReceipt(route));
  http.route("get", `${base}/block/hash/:blockHash`, getBlockByHash(route));
  http.route("get", `${base}/block/:block`, getBlockByNumber(route));
  http.route("get", `${base}/gas-price`, getGasPrice(route));
  http.route("get", `${base}/fee-history`, getFeeHistory(route));
  http.route(
    "post",
    `${base}/jsonrpc`,
    jsonRpcBody(config.JSONRPC_BODY_LIMIT),
    postJsonRpc(route, ethJsonRpcRules, { maxBatchCalls: config.JSONRPC_MAX_BATCH, nodeBatchCalls: config.ETH_RPC_MAX_BATCH }),
  );
}
