/**
 * Wires a btc-proxy from its config. Every route of `/api/v1/btc` except xpub is listed here, in
 * one place; each handler lives in `http/`.
 */
import { createBufferGarbageBound, createHttpApp, type HttpApp } from "@chaingate/http";
import {
  createServiceMetrics,
  nodeCallMetrics,
  listenOptions,
  serveHttpApp,
  type ServiceMetrics,
  type ServedApp,
} from "@chaingate/service-kit";
import { getHealth, jsonRpcBody, nodeErrorResponses, postJsonRpc } from "@chaingate/chain-proxy";
import type { Logger } from "@chaingate/logger";
import { bitcoinNodeAuth } from "@chaingate/bitcoin";
import { bitcoin, createNodeClient, type NodeClient } from "@chaingate/node-client";
import type { BtcProxyConfig } from "./config.ts";
import { btcJsonRpcRules } from "./domain/jsonrpc-rules.ts";
import { getAccount } from "./http/get-account.ts";
import { getBestBlock, getBlockByHash, getBlockByHeight, getBlockHeader, getBlockTransactionCount } from "./http/get-blocks.ts";
import { getFeeEstimate, getMempoolInfo } from "./http/get-network-info.ts";
import { btcHealthProbe } from "./http/health-probe.ts";
import { getTransaction, getTransactionOutput } from "./http/get-transactions.ts";
import { sendRawTransaction } from "./http/send-raw-transaction.ts";

export type BtcProxy = ServedApp;

export async function createBtcProxy(config: BtcProxyConfig, logger: Logger): Promise<BtcProxy> {
  const metrics = createServiceMetrics("btc-proxy");
  const node = createNodeClient({
    chain: bitcoin,
    urls: config.BTC_RPC_URL ?? [],
    auth: bitcoinNodeAuth(config),
    timeoutMs: config.BTC_RPC_TIMEOUT_MS,
    streamIdleTimeoutMs: config.BTC_RPC_STREAM_IDLE_TIMEOUT_MS,
    onCall: nodeCallMetrics(metrics, "btc"),
  });
  const http = createBtcProxyApp(node, config, logger, metrics);
  return serveHttpApp(http, listenOptions(config, logger), () => node.close());
}

/** The route table of `/api/v1/btc` (except xpub). */
export function createBtcProxyApp(
  node: NodeClient,
  config: { JSONRPC_BODY_LIMIT: string | number; BTC_RPC_MAX_BATCH?: number; GC_NUDGE_BYTES: number; INTERNAL_TOKEN?: string | undefined },
  logger: Logger,
  metrics?: ServiceMetrics,
): HttpApp {
  const http = createHttpApp({
    service: "btc-proxy",
    logger,
    errorResponses: nodeErrorResponses(bitcoin, logger),
    internalToken: config.INTERNAL_TOKEN,
    metrics,
  });
  // Verbosity-2 blocks are megabytes: keep their dead read buffers bounded.
  const route = { node, logger, garbageBound: createBufferGarbageBound(config.GC_NUDGE_BYTES) };
  const base = "/api/v1/btc";
  http.route("get", `${base}/health`, getHealth(route, btcHealthProbe));
  http.route("get", `${base}/block/best`, getBestBlock(route));
  http.route("get", `${base}/block/:blockNumber(-?\\d+)`, getBlockByHeight(route));
  http.route("get", `${base}/block/hash/:blockHash`, getBlockByHash(route));
  http.route("get", `${base}/block/hash/:blockHash/header`, getBlockHeader(route));
  http.route("get", `${base}/block/hash/:blockHash/transactions/count`, getBlockTransactionCount(route));
  http.route("get", `${base}/account`, getAccount(route));
  http.route("post", `${base}/transactions/send-raw`, http.jsonBody, sendRawTransaction(route));
  http.route("get", `${base}/transactions/:txid`, getTransaction(route));
  http.route("get", `${base}/transactions/:txid/outputs/:n(\\d{1,9})`, getTransactionOutput(route));
  http.route("get", `${base}/fee-estimate`, getFeeEstimate(route));
  http.route("get", `${base}/mempool`, getMempoolInfo(route));
  http.route(
    "post",
    `${base}/jsonrpc`,
    jsonRpcBody(config.JSONRPC_BODY_LIMIT),
    postJsonRpc(route, btcJsonRpcRules, { nodeBatchCalls: config.BTC_RPC_MAX_BATCH }),
  );
  http.finish();
  return http;
}
