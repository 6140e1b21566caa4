/**
 * Wires a btc-proxy from its config. Every route of `/api/v1/btc` except xpub is listed here, in
 * one place; each handler lives in `http/`.
 */
import { createBufferGarbageBound, createHttpApp, serveHttpApp, type HttpApp, type ServedApp } from "@chaingate/http";
import type { Logger } from "@chaingate/logger";
import type { BtcProxyConfig } from "./config.ts";
import { getAccount } from "./http/get-account.ts";
import { getBestBlock, getBlockByHash, getBlockByHeight, getBlockHeader, getBlockTransactionCount } from "./http/get-blocks.ts";
import { getHealth } from "./http/get-health.ts";
import { getFeeEstimate, getMempoolInfo } from "./http/get-network-info.ts";
import { nodeErrorResponses } from "./http/node-error-response.ts";
import { postJsonRpc, rawJsonRpcBody } from "./http/post-jsonrpc.ts";
import { getTransaction, getTransactionOutput, sendRawTransaction } from "./http/transactions.ts";
import { createBitcoinRpcClient, type BitcoinRpcAuth, type BitcoinRpcClient } from "./infra/bitcoin-rpc-client.ts";

export type BtcProxy = ServedApp;

export async function createBtcProxy(config: BtcProxyConfig, logger: Logger): Promise<BtcProxy> {
  const auth: BitcoinRpcAuth | undefined = config.BTC_RPC_COOKIE_FILE
    ? { cookieFile: config.BTC_RPC_COOKIE_FILE }
    : config.BTC_RPC_USER !== undefined
      ? { user: config.BTC_RPC_USER, password: config.BTC_RPC_PASSWORD ?? "" }
      : undefined;
  const node = createBitcoinRpcClient({
    urls: config.BTC_RPC_URL ?? [],
    auth,
    timeoutMs: config.BTC_RPC_TIMEOUT_MS,
    streamIdleTimeoutMs: config.BTC_RPC_STREAM_IDLE_TIMEOUT_MS,
  });

  const http = createBtcProxyApp(node, config, logger);
  return serveHttpApp(http, { host: config.HOST, port: config.PORT, logger, drainTimeoutMs: config.DRAIN_TIMEOUT_MS }, () => node.close());
}

/** The route table of `/api/v1/btc` (except xpub). */
export function createBtcProxyApp(node: BitcoinRpcClient, config: Pick<BtcProxyConfig, "JSONRPC_BODY_LIMIT" | "GC_NUDGE_BYTES">, logger: Logger): HttpApp {
  const http = createHttpApp({ service: "btc-proxy", logger, errorResponses: nodeErrorResponses });
  // Verbosity-2 blocks are megabytes: keep their dead read buffers bounded.
  const garbageBound = createBufferGarbageBound(config.GC_NUDGE_BYTES);
  const base = "/api/v1/btc";
  http.route("get", `${base}/health`, getHealth(node));
  http.route("get", `${base}/block/best`, getBestBlock(node));
  http.route("get", `${base}/block/:blockNumber(-?\\d+)`, getBlockByHeight(node, garbageBound));
  http.route("get", `${base}/block/hash/:blockHash`, getBlockByHash(node, garbageBound));
  http.route("get", `${base}/block/hash/:blockHash/header`, getBlockHeader(node));
  http.route("get", `${base}/block/hash/:blockHash/transactions/count`, getBlockTransactionCount(node));
  http.route("get", `${base}/account`, getAccount(node));
  http.route("post", `${base}/transactions/send-raw`, http.jsonBody, sendRawTransaction(node));
  http.route("get", `${base}/transactions/:txid`, getTransaction(node));
  http.route("get", `${base}/transactions/:txid/outputs/:n(\\d{1,9})`, getTransactionOutput(node));
  http.route("get", `${base}/fee-estimate`, getFeeEstimate(node));
  http.route("get", `${base}/mempool`, getMempoolInfo(node));
  http.route("post", `${base}/jsonrpc`, rawJsonRpcBody(config.JSONRPC_BODY_LIMIT), postJsonRpc(node, garbageBound));
  http.finish();
  return http;
}
