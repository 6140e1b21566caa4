/**
 * Wires a trx-proxy from its config. Every route of `/api/v1/trx` is listed here, in one place;
 * each handler lives in `http/`.
 */
import { createBufferGarbageBound, createHttpApp, type HttpApp } from "@chaingate/http";
import {
  createServiceMetrics,
  nodeCallMetrics,
  listenOptions,
  serveHttpApp,
  type ServedApp,
  type ServiceMetrics,
} from "@chaingate/service-kit";
import { getHealth, jsonRpcBody, nodeErrorResponses, postJsonRpc } from "@chaingate/chain-proxy";
import type { Logger } from "@chaingate/logger";
import { createNodeClient, tron, type NodeClient } from "@chaingate/node-client";
import { tronNodeAuth } from "@chaingate/tron";
import type { TrxProxyConfig } from "./config.ts";
import { trxJsonRpcRules } from "./domain/jsonrpc-rules.ts";
import { createTrc10MetadataCache } from "./domain/trc10-metadata-cache.ts";
import { deprecatedEndpoints, KEY_REPLACEMENT, SEND_REPLACEMENT } from "./http/deprecated-endpoints.ts";
import { getAccountRecord } from "./http/get-account.ts";
import { getAccountBalance } from "./http/get-balance.ts";
import { trxHealthProbe } from "./http/health-probe.ts";
import { getLatestBlocks } from "./http/get-latest-blocks.ts";
import { getTrc20Tokens } from "./http/get-tokens.ts";
import { getTransaction } from "./http/get-transaction.ts";
import { broadcastTransaction, createTransaction, losslessJsonBody } from "./http/write-transactions.ts";
import type { TrxRoute } from "./http/trx-route.ts";
import { createTrc10Source } from "./infra/tron-wallet.ts";

export type TrxProxy = ServedApp;

/** The settings the route table reads (tests build them directly). */
export type TrxProxyAppConfig = Pick<
  TrxProxyConfig,
  | "TRC20_WHITELIST"
  | "TRC10_METADATA_CACHE_SIZE"
  | "BLOCK_LATEST_MAX"
  | "JSONRPC_BODY_LIMIT"
  | "JSONRPC_BODY_LIMIT_BYTES"
  | "JSONRPC_MAX_BATCH"
  | "TRON_NODE_MAX_BATCH"
  | "TRX_DEPRECATED_SUNSET"
  | "INTERNAL_TOKEN"
  | "GC_NUDGE_BYTES"
>;

export interface TrxProxyDependencies {
  /** The clock the deprecated endpoints' sunset is read against (tests move it). */
  now?: () => Date;
  /** Where request and node-call metrics go (made for the app when absent). */
  metrics?: ServiceMetrics;
}

export async function createTrxProxy(config: TrxProxyConfig, logger: Logger, dependencies: TrxProxyDependencies = {}): Promise<TrxProxy> {
  const metrics = createServiceMetrics("trx-proxy");
  const node = createNodeClient({
    chain: tron,
    urls: config.TRON_NODE_URL ?? [],
    auth: tronNodeAuth(config),
    timeoutMs: config.TRON_NODE_TIMEOUT_MS,
    streamIdleTimeoutMs: config.TRON_NODE_STREAM_IDLE_TIMEOUT_MS,
    onCall: nodeCallMetrics(metrics, "trx"),
  });
  const http = createTrxProxyApp(node, config, logger, { ...dependencies, metrics });
  return serveHttpApp(http, listenOptions(config, logger), () => node.close());
}

/** The route table of `/api/v1/trx`. */
export function createTrxProxyApp(
  node: NodeClient,
  config: TrxProxyAppConfig,
  logger: Logger,
  dependencies: TrxProxyDependencies = {},
): HttpApp {
  const http = createHttpApp({
    service: "trx-proxy",
    logger,
    errorResponses: nodeErrorResponses(tron, logger),
    internalToken: config.INTERNAL_TOKEN,
    metrics: dependencies.metrics,
  });
  const route: TrxRoute = {
    node,
    logger,
    // Batches of blocks through /jsonrpc are megabytes: keep their dead read buffers bounded.
    garbageBound: createBufferGarbageBound(config.GC_NUDGE_BYTES),
    whitelist: config.TRC20_WHITELIST,
    trc10: createTrc10MetadataCache(createTrc10Source(node), config.TRC10_METADATA_CACHE_SIZE),
  };
  const base = "/api/v1/trx";
  const balance = getAccountBalance(route);
  http.route("get", `${base}/health`, getHealth(route, trxHealthProbe));
  http.route("get", `${base}/account/:address`, getAccountRecord(route));
  http.route("get", `${base}/account/:address/balance`, balance);
  http.route("get", `${base}/account/:address/assets`, balance);
  http.route("get", `${base}/block/latest/:num(\\d{1,9})`, getLatestBlocks(route, config.BLOCK_LATEST_MAX));
  http.route("get", `${base}/tokens/trc20`, getTrc20Tokens(route));
  http.route("post", `${base}/transactions/create`, losslessJsonBody, createTransaction(route));
  http.route("post", `${base}/transactions/broadcast`, losslessJsonBody, broadcastTransaction(route));
  http.route("get", `${base}/transactions/:hash`, getTransaction(route));
  http.route(
    "post",
    `${base}/jsonrpc`,
    jsonRpcBody(config.JSONRPC_BODY_LIMIT_BYTES ?? config.JSONRPC_BODY_LIMIT),
    postJsonRpc(route, trxJsonRpcRules, { maxBatchCalls: config.JSONRPC_MAX_BATCH, nodeBatchCalls: config.TRON_NODE_MAX_BATCH }),
  );
  const deprecated = deprecatedEndpoints(route, { sunset: config.TRX_DEPRECATED_SUNSET, now: dependencies.now ?? (() => new Date()) });
  http.route("post", `${base}/account/create`, deprecated.gate(KEY_REPLACEMENT), deprecated.createAddress);
  http.route("post", `${base}/account/private-key`, deprecated.gate(KEY_REPLACEMENT), losslessJsonBody, deprecated.privateKeyFromMnemonic);
  http.route("post", `${base}/account/send`, deprecated.gate(SEND_REPLACEMENT), losslessJsonBody, deprecated.sendTrx);
  http.route("post", `${base}/account/send/usdt`, deprecated.gate(SEND_REPLACEMENT), losslessJsonBody, deprecated.sendUsdt);
  http.finish();
  return http;
}
