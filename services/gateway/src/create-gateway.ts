/**
 * Wires a gateway from its config: database and migrations, key store, usage recorder, upstream
 * proxy, public app and the HTTP server. `main.ts` calls it; tests call it with their own config.
 */
import { createBufferGarbageBound } from "@chaingate/http";
import { createServiceMetrics, openServiceDatabase, serveHttpApp, serveMetrics, type ServedApp } from "@chaingate/service-kit";
import { bufferedStdout, type Logger } from "@chaingate/logger";
import type { GatewayConfig } from "./config.ts";
import { createGatewayHandler } from "./http/create-gateway-handler.ts";
import { registerChainRoutes } from "./http/chain-routes.ts";
import { createRouteResolver } from "./domain/route-table.ts";
import { createChainRegistry } from "@chaingate/chain-registry";
import { createPublicApp } from "./http/create-public-app.ts";
import { registerAccountRoutes } from "./http/account-routes.ts";
import { createRequestAuthenticator } from "./http/authenticate-request.ts";
import { defaultConsoleDir } from "./http/serve-console.ts";
import { createAccountAdmin } from "./infra/account-admin.ts";
import { createAccessLog } from "./infra/access-log.ts";
import { createApiKeyStore } from "./infra/api-key-store.ts";
import { createGatewayMetrics } from "./infra/gateway-metrics.ts";
import { GATEWAY_SCHEMA, type GatewayDatabase } from "./infra/database-schema.ts";
import { gatewayMigrations } from "./infra/migrations/index.ts";
import { createSharedRateLimit, type RateLimitBuckets } from "./infra/shared-rate-limit.ts";
import { createUpstreamProxy } from "./infra/upstream-proxy.ts";
import { createUsageRecorder } from "./infra/usage-recorder.ts";

export interface Gateway extends ServedApp {
  /** Writes pending usage counts now (tests; the timer does it otherwise). */
  flushUsage(): Promise<void>;
  /** Resolves once key-change notifications are being received. */
  ready: Promise<void>;
  /** Where `/metrics` is served (METRICS_PORT), if anywhere. */
  metricsUrl: string | undefined;
}

export async function createGateway(config: GatewayConfig, logger: Logger): Promise<Gateway> {
  const database = await openServiceDatabase<GatewayDatabase>({
    settings: config,
    schema: GATEWAY_SCHEMA,
    migrations: gatewayMigrations,
    applicationName: "chaingate-gateway",
    logger,
  });

  const metrics = createServiceMetrics("gateway");
  const gatewayMetrics = createGatewayMetrics(metrics);
  const keyStore = createApiKeyStore({
    db: database.db,
    connectionString: config.DATABASE_URL,
    cacheSize: config.API_KEY_CACHE_SIZE,
    ttlMs: config.API_KEY_CACHE_TTL_MS,
    probeIntervalMs: config.API_KEY_LISTENER_PROBE_MS,
    onLookup: (result) => gatewayMetrics.recordKeyLookup(result),
    onListenError: (error) => logger.warn({ err: error }, "key-change listener lost; key cache bypassed until it reconnects"),
  });
  const usage = createUsageRecorder(database.db, {
    flushIntervalMs: config.USAGE_FLUSH_INTERVAL_MS,
    onFlushError: (error) => logger.warn({ err: error }, "usage flush failed; counts kept for the next one"),
  });
  const proxy = createUpstreamProxy({
    upstreams: {
      xpub: config.XPUB_URL,
      "btc-proxy": config.BTC_PROXY_URL,
      "eth-proxy": config.ETH_PROXY_URL,
      "trx-proxy": config.TRX_PROXY_URL,
      delivery: config.DELIVERY_URL,
    },
    connectionsPerUpstream: config.UPSTREAM_CONNECTIONS,
    connectTimeoutMs: config.UPSTREAM_CONNECT_TIMEOUT_MS,
    headersTimeoutMs: config.UPSTREAM_HEADERS_TIMEOUT_MS,
    bodyTimeoutMs: config.UPSTREAM_BODY_TIMEOUT_MS,
    maxRequestBodyBytes: config.MAX_REQUEST_BODY_BYTES,
    maxBufferedBodyBytes: config.MAX_BUFFERED_BODY_BYTES,
    maxBufferedBodyBytesPerAccount: Math.floor((config.MAX_BUFFERED_BODY_BYTES * config.MAX_BUFFERED_BODY_PERCENT_PER_ACCOUNT) / 100),
    bodyReceiveTimeoutMs: config.REQUEST_BODY_RECEIVE_TIMEOUT_MS,
    onUpstreamError: (upstream, error) => logger.warn({ err: error, upstream }, "upstream request failed"),
    garbageBound: createBufferGarbageBound(config.GC_NUDGE_BYTES),
  });
  const perKeyPerSecond = config.RATE_LIMIT_REQUESTS_PER_KEY_PER_SECOND;
  // Unset, the account limit is the key limit: minting keys must not multiply the allowance.
  const perAccountPerSecond = config.RATE_LIMIT_REQUESTS_PER_ACCOUNT_PER_SECOND ?? perKeyPerSecond;
  const sharedLimit = (requestsPerSecond: number, buckets: RateLimitBuckets) =>
    requestsPerSecond > 0
      ? { limit: createSharedRateLimit(database.db, requestsPerSecond, logger, buckets), requestsPerSecond }
      : undefined;
  const authenticate = createRequestAuthenticator({
    keyStore,
    usage,
    rateLimits: { perKey: sharedLimit(perKeyPerSecond, "key"), perAccount: sharedLimit(perAccountPerSecond, "account") },
  });
  const publicApp = createPublicApp({
    logger,
    readinessChecks: { database: () => database.ping() },
    metrics,
    consoleDir: config.CONSOLE_DIR ?? defaultConsoleDir(import.meta.url),
    bodyReceiveTimeoutMs: config.REQUEST_BODY_RECEIVE_TIMEOUT_MS,
    registerRoutes: (http) => {
      registerAccountRoutes(http, {
        authenticate,
        // Keys this replica changes leave its cache before it answers (a NOTIFY may come late or never).
        admin: createAccountAdmin(database.db, { onKeyChanged: (prefix) => keyStore.forget(prefix) }),
        maxActiveKeysPerAccount: config.QUOTA_API_KEYS_PER_ACCOUNT,
        operatorToken: config.CONSOLE_OPERATOR_TOKEN,
      });
      registerChainRoutes(http, { authenticate, registry: createChainRegistry(config.EVM_CHAINS) });
    },
  });
  const accessLogDestination = config.ACCESS_LOG && logger.isLevelEnabled("info") ? bufferedStdout() : undefined;
  const handler = createGatewayHandler({
    authenticate,
    proxy,
    fallback: publicApp.app,
    logger,
    accessLog: accessLogDestination && createAccessLog("gateway", accessLogDestination),
    metrics: gatewayMetrics,
    internalToken: config.INTERNAL_TOKEN,
    resolveRoute: createRouteResolver(config.EVM_CHAINS.map((chain) => chain.entry.prefix)),
  });
  const metricsServer =
    config.METRICS_PORT === undefined
      ? undefined
      : await serveMetrics(metrics, { host: config.METRICS_HOST, port: config.METRICS_PORT, logger });
  const served = await serveHttpApp(
    { app: handler, markDraining: () => publicApp.markDraining() },
    { host: config.HOST, port: config.PORT, logger, drainTimeoutMs: config.DRAIN_TIMEOUT_MS },
    async () => {
      await metricsServer?.close();
      await usage.close();
      await keyStore.close();
      await proxy.close();
      await database.close();
      accessLogDestination?.flush();
    },
  );
  return { ...served, ready: keyStore.ready, flushUsage: () => usage.flush(), metricsUrl: metricsServer?.url };
}
