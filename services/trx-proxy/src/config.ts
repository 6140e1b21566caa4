/** The trx-proxy's settings, from the environment. */
import { env, serviceSettings } from "@chaingate/config";
import { ETH_JSONRPC_MAX_BATCH_CALLS } from "@chaingate/contracts";
import { DEFAULT_NODE_BATCH_CALLS } from "@chaingate/node-client";
import { z } from "zod";
import { trc20WhitelistSchema } from "./domain/trc20-whitelist.ts";

/** The spec's shutdown date of the four deprecated Tron endpoints (Versioning 3). */
export const DEFAULT_SUNSET = "2026-12-01T00:00:00Z";

const instant = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, context) => {
      const time = Date.parse(value);
      if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(time)) {
        context.addIssue({ code: "custom", message: `must be an ISO 8601 date-time such as ${fallback} (got ${JSON.stringify(value)})` });
        return z.NEVER;
      }
      return new Date(time);
    });

export const trxProxyConfigSchema = z.object({
  ...serviceSettings(8104),

  // java-tron full node(s), HTTP API (port 8090; /wallet, /walletsolidity and, when enabled,
  // /jsonrpc on the same origin): comma-separated, in order of preference, failover to the next
  // healthy one. Unset: every node-backed call answers the spec's 500 (reason not_configured).
  TRON_NODE_URL: env.urlList().optional(),
  /** A hosted provider's key (TronGrid), sent in TRON_NODE_API_KEY_HEADER; unset for an own java-tron node. */
  TRON_NODE_API_KEY: z.string().min(1).optional(),
  TRON_NODE_API_KEY_HEADER: z.string().min(1).default("TRON-PRO-API-KEY"),
  TRON_NODE_TIMEOUT_MS: env.positiveInt(30_000),
  TRON_NODE_STREAM_IDLE_TIMEOUT_MS: env.positiveInt(60_000),

  /** JSON array of {contract, symbol, name, decimals}; default mainnet USDT, USDC, USDD, TUSD, WTRX. */
  TRC20_WHITELIST: trc20WhitelistSchema,
  /** TRC-10 metadata entries kept (immutable on chain, so never refreshed). */
  TRC10_METADATA_CACHE_SIZE: env.positiveInt(100_000),
  /** Largest `num` of GET block/latest/{num} (each block is about 0.5 MB on mainnet). */
  BLOCK_LATEST_MAX: env.positiveInt(50),
  /** Largest POST /jsonrpc body, in bytes. */
  JSONRPC_BODY_LIMIT_BYTES: env.positiveInt(1024 * 1024),
  /** Calls per POST /jsonrpc batch accepted from a client. */
  JSONRPC_MAX_BATCH: env.positiveInt(ETH_JSONRPC_MAX_BATCH_CALLS),
  /** java-tron's own batch limit: a larger client batch is sent to it in chunks of this many calls. */
  TRON_NODE_MAX_BATCH: env.positiveInt(DEFAULT_NODE_BATCH_CALLS),

  /** From this instant the deprecated endpoints answer 410. */
  TRX_DEPRECATED_SUNSET: instant(DEFAULT_SUNSET),
});

export type TrxProxyConfig = z.infer<typeof trxProxyConfigSchema>;
