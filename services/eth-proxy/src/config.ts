/** The eth-proxy's settings, from the environment. */
import { env, serviceSettings } from "@chaingate/config";
import { ETH_JSONRPC_MAX_BATCH_CALLS } from "@chaingate/contracts";
import { DEFAULT_NODE_BATCH_CALLS } from "@chaingate/node-client";
import { z } from "zod";

export const ethProxyConfigSchema = z.object({
  // Listening (internal: only the gateway calls it), logging, shutdown, the internal token
  ...serviceSettings(8106),

  // The Ethereum node(s): comma-separated JSON-RPC URLs in order of preference, failover to the
  // next healthy one (user info in a URL is that URL's basic auth). Unset: every call answers the
  // spec's 500 (node not configured).
  ETH_RPC_URL: env.urlList().optional(),
  ETH_RPC_TIMEOUT_MS: env.positiveInt(30_000),
  ETH_RPC_STREAM_IDLE_TIMEOUT_MS: env.positiveInt(60_000),

  /** Largest POST /jsonrpc body: `5mb`, `512kb` or a number of bytes (parsed to bytes). */
  JSONRPC_BODY_LIMIT: env.byteSize("5mb"),
  /** Calls per POST /jsonrpc batch accepted from a client. */
  JSONRPC_MAX_BATCH: env.positiveInt(ETH_JSONRPC_MAX_BATCH_CALLS),
  /** The node's own batch limit: a larger client batch is sent to it in chunks of this many calls. */
  ETH_RPC_MAX_BATCH: env.positiveInt(DEFAULT_NODE_BATCH_CALLS),
  /** Streamed bytes between two minor GCs (needs --expose-gc, set by the start script); 0 turns it off. */
  GC_NUDGE_BYTES: z.coerce.number().int().nonnegative().default(2 * 1024 * 1024),
});

export type EthProxyConfig = z.infer<typeof ethProxyConfigSchema>;
