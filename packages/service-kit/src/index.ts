export { missingInternalTokenRefusal, runService, type InternalTokenSettings, type RunningService } from "./run-service.ts";
export { onShutdownSignal } from "./on-shutdown-signal.ts";
export {
  listenOptions,
  startHttpServer,
  DEFAULT_DRAIN_TIMEOUT_MS,
  type RunningHttpServer,
  type StartHttpServerOptions,
} from "./start-http-server.ts";
export { serveHttpApp, type ServedApp } from "./serve-http-app.ts";
export {
  createServiceMetrics,
  DURATION_BUCKETS_SECONDS,
  metricPrefix,
  nodeCallMetrics,
  serveMetrics,
  type ServiceMetrics,
} from "./service-metrics.ts";
export { openServiceDatabase, type DatabaseSettings, type OpenServiceDatabaseOptions } from "./open-service-database.ts";
export { connectBusInBackground, type BackgroundBus, type BackgroundBusOptions, type NatsSettings } from "./connect-bus-in-background.ts";
export { startBackgroundLoop, type BackgroundLoop, type BackgroundLoopOptions } from "./background-loop.ts";
export { startOutboxRelay, OUTBOX_RETRY, type OutboxBatch, type OutboxRelay, type OutboxRelayOptions } from "./outbox-relay.ts";
