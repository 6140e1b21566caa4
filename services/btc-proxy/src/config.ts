/** The btc-proxy's settings, from the environment. */
import { env, serviceSettings } from "@chaingate/config";
import { bitcoinNodeAuthSettings } from "@chaingate/bitcoin";
import { REQUEST_BODY_LIMITS } from "@chaingate/contracts";
import { DEFAULT_NODE_BATCH_CALLS } from "@chaingate/node-client";
import { gcNudgeBytesSetting } from "@chaingate/http";
import { jsonRpcBodyLimitSetting } from "@chaingate/chain-proxy";
import { z } from "zod";

export const btcProxyConfigSchema = z.object({
  // Listening (internal: only the gateway calls it), logging, shutdown, the internal token
  ...serviceSettings(8101),

  // The Bitcoin node(s): comma-separated URLs in order of preference, failover to the next
  // healthy one. Unset: every call answers the spec's 500 (node not configured).
  BTC_RPC_URL: env
    .urlList()
    .optional()
    .describe(
      'Bitcoin node URL(s), comma-separated, in order of preference; credentials may be in the URL. Unset: every call answers 500 "not configured".',
    ),
  ...bitcoinNodeAuthSettings(),
  BTC_RPC_TIMEOUT_MS: env.positiveInt(30_000).describe("Per-attempt timeout of a buffered node call."),
  BTC_RPC_STREAM_IDLE_TIMEOUT_MS: env.positiveInt(60_000).describe("Longest silence in a streamed node answer."),

  JSONRPC_BODY_LIMIT: jsonRpcBodyLimitSetting(REQUEST_BODY_LIMITS.btc),
  BTC_RPC_MAX_BATCH: env
    .positiveInt(DEFAULT_NODE_BATCH_CALLS)
    .describe(
      "The node's own batch limit: a client batch (at most 20 calls, the API's cap) larger than this is sent to the node in chunks of this many calls (set it to your provider's limit).",
    ),
  GC_NUDGE_BYTES: gcNudgeBytesSetting("Streamed bytes of blocks and JSON-RPC answers"),
});

export type BtcProxyConfig = z.infer<typeof btcProxyConfigSchema>;
