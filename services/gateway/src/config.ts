/** The gateway's settings, from the environment. */
import { databaseSettings, env, serviceSettings } from "@chaingate/config";
import { z } from "zod";

const optionalUrl = () => z.url().optional();

export const gatewayConfigSchema = z.object({
  ...serviceSettings(8080),
  /** One access-log line per proxied request. */
  ACCESS_LOG: env.flag(true),
  // Every request checks its key: it waits less for a stalled Postgres than background work does.
  ...databaseSettings({ connectTimeoutMs: 2_000, queryTimeoutMs: 5_000 }),

  // Internal services (unset: requests for that prefix answer 503 "not configured")
  XPUB_URL: optionalUrl(),
  BTC_PROXY_URL: optionalUrl(),
  ETH_PROXY_URL: optionalUrl(),
  TRX_PROXY_URL: optionalUrl(),
  DELIVERY_URL: optionalUrl(),

  // Upstream hop
  UPSTREAM_CONNECTIONS: env.positiveInt(64),
  UPSTREAM_CONNECT_TIMEOUT_MS: env.positiveInt(2_000),
  UPSTREAM_HEADERS_TIMEOUT_MS: env.positiveInt(60_000),
  UPSTREAM_BODY_TIMEOUT_MS: env.positiveInt(60_000),
  /** Largest request body the gateway forwards (read whole first; every service's own limit is lower). */
  MAX_REQUEST_BODY_BYTES: env.positiveInt(16 * 1024 * 1024),
  /** Request-body bytes held at once over all requests; a request past it gets 503 + Retry-After before its body is read. */
  MAX_BUFFERED_BODY_BYTES: env.positiveInt(256 * 1024 * 1024),

  // Keys and usage
  API_KEY_CACHE_SIZE: env.positiveInt(10_000),
  /** No cached key row outlives this, whatever happens to the key-change listener. */
  API_KEY_CACHE_TTL_MS: env.positiveInt(60_000),
  /** How often the key-change listener proves it still receives notifications (and its deadline). */
  API_KEY_LISTENER_PROBE_MS: env.positiveInt(5_000),
  USAGE_FLUSH_INTERVAL_MS: env.positiveInt(1_000),
  /**
   * Requests per API key per second, per gateway replica, past which the answer is 429 with
   * Retry-After (domain/key-rate-limit.ts). 0, the default, turns it off: the spec's v1 has no rate limit.
   */
  RATE_LIMIT_REQUESTS_PER_KEY_PER_SECOND: z.coerce.number().int().nonnegative().default(0),

  // Web console (/console) and the account API's operator paths
  /** The built console (packages/console's dist); default: beside the compiled gateway, or the workspace's build. */
  CONSOLE_DIR: z.string().min(1).optional(),
  /** Enables /api/v1/operator/* (the console's operator mode), sent in X-Operator-Token; unset: those paths do not exist. */
  CONSOLE_OPERATOR_TOKEN: z.string().min(32, { error: "CONSOLE_OPERATOR_TOKEN must be at least 32 characters." }).optional(),

  /** Forwarded bytes of large bodies between two minor GCs (needs --expose-gc, set by the start script); 0 turns it off. */
  GC_NUDGE_BYTES: z.coerce.number().int().nonnegative().default(2 * 1024 * 1024),
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
