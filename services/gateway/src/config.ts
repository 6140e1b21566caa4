/** The gateway's settings, from the environment. */
import { databaseSettings, env, serviceSettings } from "@chaingate/config";
import { gcNudgeBytesSetting } from "@chaingate/http";
import { evmChainsSetting } from "@chaingate/chain-registry";
import { z } from "zod";
import { DEFAULT_API_KEYS_PER_ACCOUNT } from "./domain/api-key-quota.ts";
import { DEFAULT_KEY_CACHE_TTL_MS } from "./infra/api-key-store.ts";

const optionalUrl = (service: string) =>
  z.url().optional().describe(`Base URL of the ${service} service; unset: its prefix answers 503 "not configured".`);

export const gatewayConfigSchema = z.object({
  ...serviceSettings(8080),
  ACCESS_LOG: env.flag(true).describe("One JSON access-log line per proxied request."),
  // Every request checks its key: it waits less for a stalled Postgres than background work does.
  ...databaseSettings({ connectTimeoutMs: 2_000, queryTimeoutMs: 5_000 }),

  // Internal services (unset: requests for that prefix answer 503 "not configured")
  XPUB_URL: optionalUrl("xpub"),
  BTC_PROXY_URL: optionalUrl("btc-proxy"),
  ETH_PROXY_URL: optionalUrl("eth-proxy"),
  TRX_PROXY_URL: optionalUrl("trx-proxy"),
  DELIVERY_URL: optionalUrl("delivery"),
  // Other EVM chains: /api/v1/{name} goes to the eth-proxy; GET /api/v1/chains lists every chain.
  EVM_CHAINS: evmChainsSetting(),

  // Upstream hop
  UPSTREAM_CONNECTIONS: env.positiveInt(64).describe("Keep-alive connections per internal service."),
  UPSTREAM_CONNECT_TIMEOUT_MS: env.positiveInt(2_000).describe("Connect timeout to an internal service."),
  UPSTREAM_HEADERS_TIMEOUT_MS: env.positiveInt(60_000).describe("Longest wait for an internal service's response headers; past it 503."),
  UPSTREAM_BODY_TIMEOUT_MS: env.positiveInt(60_000).describe("Longest silence between two body chunks of an internal service's answer."),
  MAX_REQUEST_BODY_BYTES: env
    .positiveInt(16 * 1024 * 1024)
    .describe(
      "Largest request body forwarded on any route (read whole, bounded, before forwarding; larger: 413). Each route family's own limit is lower (REQUEST_BODY_LIMITS in packages/contracts/src/api/request-body-limits.ts).",
    ),
  MAX_BUFFERED_BODY_BYTES: env
    .positiveInt(256 * 1024 * 1024)
    .describe(
      "Request-body bytes held at once over all requests (a request reserves its Content-Length, or its route's limit when chunked, until it ends); a request past it gets 503 + Retry-After: 1 before its body is read. Keep it above the largest route limit.",
    ),
  MAX_BUFFERED_BODY_PERCENT_PER_ACCOUNT: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(25)
    .describe(
      "The share of MAX_BUFFERED_BODY_BYTES (in percent) one account's requests may hold at once; past it that account's request gets 503 + Retry-After: 1 before its body is read, while other accounts keep the rest. An account holding nothing may always send one body.",
    ),
  REQUEST_BODY_RECEIVE_TIMEOUT_MS: env
    .positiveInt(30_000)
    .describe(
      "A request body (to a proxied path or to the gateway's own JSON routes, such as creating a key) not wholly received this long after the gateway starts reading it is answered 408 and its share of the buffer freed (the connection is closed).",
    ),

  // Keys and usage
  API_KEY_CACHE_SIZE: env.positiveInt(10_000).describe("Cached API key rows (by prefix)."),
  API_KEY_CACHE_TTL_MS: env
    .positiveInt(DEFAULT_KEY_CACHE_TTL_MS)
    .describe(
      "No cached key row outlives this, whatever happens to the key-change listener: the longest a replica that missed a key's NOTIFY still accepts it after a deactivation (the replica that deactivates it refuses it at once). Each replica reads each key in use once per this period.",
    ),
  API_KEY_LISTENER_PROBE_MS: env
    .positiveInt(5_000)
    .describe(
      "How often (and within what deadline) the key-change listener proves it still receives notifications; while it cannot, the cache is bypassed.",
    ),
  USAGE_FLUSH_INTERVAL_MS: env.positiveInt(1_000).describe("How often usage counts are written."),
  RATE_LIMIT_REQUESTS_PER_KEY_PER_SECOND: z.coerce
    .number()
    .int()
    .nonnegative()
    .default(0)
    .describe(
      "Requests per API key per second, one limit shared by all gateway replicas (through the database), past which the answer is 429 with Retry-After (infra/shared-rate-limit.ts). 0, the default, turns it off: the spec's v1 has no rate limit.",
    ),
  RATE_LIMIT_REQUESTS_PER_ACCOUNT_PER_SECOND: z.coerce
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe(
      "Requests per account per second over all its keys, counted like the per-key limit and checked after it (429 with Retry-After), so minting keys does not multiply the allowance. Unset: the value of RATE_LIMIT_REQUESTS_PER_KEY_PER_SECOND; 0: no per-account limit.",
    ),
  QUOTA_API_KEYS_PER_ACCOUNT: env
    .positiveInt(DEFAULT_API_KEYS_PER_ACCOUNT)
    .describe(
      "Active API keys one account may have through POST /api/v1/keys (422 past it; a deactivated key frees its slot). The operator's CLI and paths are not held to it. Set it for the admin CLI too, whose `quotas` command shows it.",
    ),

  // Web console (/console) and the account API's operator paths
  CONSOLE_DIR: z
    .string()
    .min(1)
    .optional()
    .describe(
      "The built web console served at /console (apps/console's dist); unset: the compiled gateway's dist/console, else the workspace's build.",
    ),
  CONSOLE_OPERATOR_TOKEN: z
    .string()
    .min(32, { error: "CONSOLE_OPERATOR_TOKEN must be at least 32 characters." })
    .optional()
    .describe(
      "At least 32 characters: enables /api/v1/operator/* (the console's operator mode), sent in X-Operator-Token; unset: those paths do not exist.",
    ),

  GC_NUDGE_BYTES: gcNudgeBytesSetting("Forwarded bytes of large bodies"),
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
