/** The eth-proxy's settings, from the environment. */
import { env, serviceSettings } from "@chaingate/config";
import { ETH_JSONRPC_MAX_BATCH_CALLS, REQUEST_BODY_LIMITS } from "@chaingate/contracts";
import { DEFAULT_NODE_BATCH_CALLS } from "@chaingate/node-client";
import { gcNudgeBytesSetting } from "@chaingate/http";
import { jsonRpcBodyLimitSetting } from "@chaingate/chain-proxy";
import { evmChainsSetting } from "@chaingate/chain-registry";
import { z } from "zod";

export const ethProxyConfigSchema = z.object({
  // Listening (internal: only the gateway calls it), logging, shutdown, the internal token
  ...serviceSettings(8106),

  // The Ethereum node(s): comma-separated JSON-RPC URLs in order of preference, failover to the
  // next healthy one (user info in a URL is that URL's basic auth). Unset: every call answers the
  // spec's 500 (node not configured).
  ETH_RPC_URL: env
    .urlList()
    .optional()
    .describe(
      "Ethereum node URL(s), comma-separated, in order of preference (user info in a URL is its basic auth). Unset: every call answers 500 not_configured.",
    ),
  ETH_RPC_TIMEOUT_MS: env.positiveInt(30_000).describe("Per-attempt timeout of a buffered node call."),
  ETH_RPC_STREAM_IDLE_TIMEOUT_MS: env.positiveInt(60_000).describe("Longest silence in a streamed node answer."),

  JSONRPC_BODY_LIMIT: jsonRpcBodyLimitSetting(REQUEST_BODY_LIMITS.eth),
  JSONRPC_MAX_BATCH: env.positiveInt(ETH_JSONRPC_MAX_BATCH_CALLS).describe("Calls per POST /jsonrpc batch accepted from a client."),
  ETH_RPC_MAX_BATCH: env
    .positiveInt(DEFAULT_NODE_BATCH_CALLS)
    .describe(
      "The node's own batch limit: a larger client batch is sent to it in chunks of this many calls (set it to your node's limit).",
    ),
  GC_NUDGE_BYTES: gcNudgeBytesSetting("Streamed bytes of blocks and JSON-RPC answers"),

  // Other EVM chains, each under /api/v1/{name} in front of its own nodes (chain ids checked).
  EVM_CHAINS: evmChainsSetting(),
});

export type EthProxyConfig = z.infer<typeof ethProxyConfigSchema>;
