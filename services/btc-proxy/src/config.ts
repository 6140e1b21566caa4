/** The btc-proxy's settings, from the environment. */
import { env, serviceSettings } from "@chaingate/config";
import { z } from "zod";

export const btcProxyConfigSchema = z.object({
  // Listening (internal: only the gateway calls it), logging, shutdown, the internal token
  ...serviceSettings(8101),

  // The Bitcoin node(s): comma-separated URLs in order of preference, failover to the next
  // healthy one. Unset: every call answers the spec's 500 (node not configured).
  BTC_RPC_URL: env.urlList().optional(),
  BTC_RPC_USER: z.string().optional(),
  BTC_RPC_PASSWORD: z.string().optional(),
  /** bitcoind's .cookie file, instead of user/password. */
  BTC_RPC_COOKIE_FILE: z.string().optional(),
  BTC_RPC_TIMEOUT_MS: env.positiveInt(30_000),
  BTC_RPC_STREAM_IDLE_TIMEOUT_MS: env.positiveInt(60_000),

  /** Largest POST /jsonrpc body: `5mb`, `512kb` or a number of bytes (parsed to bytes). */
  JSONRPC_BODY_LIMIT: env.byteSize("5mb"),
  /** Streamed bytes between two minor GCs (needs --expose-gc, set by the start script); 0 turns it off. */
  GC_NUDGE_BYTES: z.coerce.number().int().nonnegative().default(2 * 1024 * 1024),
});

export type BtcProxyConfig = z.infer<typeof btcProxyConfigSchema>;
