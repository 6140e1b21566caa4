/** The trx-proxy's settings, from the environment. */
import { env, serviceSettings } from "@chaingate/config";
import { REQUEST_BODY_LIMITS, TRX_JSONRPC_MAX_BATCH_CALLS } from "@chaingate/contracts";
import { DEFAULT_NODE_BATCH_CALLS } from "@chaingate/node-client";
import { gcNudgeBytesSetting } from "@chaingate/http";
import { jsonRpcBodyLimitSetting } from "@chaingate/chain-proxy";
import { z } from "zod";
import { trc20WhitelistSettings, tronNodeAuthSettings } from "@chaingate/tron";

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
  TRON_NODE_URL: env
    .urlList()
    .optional()
    .describe(
      "java-tron HTTP API URL(s), comma-separated, in order of preference (failover). Unset: node-backed calls answer 500 not_configured.",
    ),
  ...tronNodeAuthSettings(),
  TRON_NODE_TIMEOUT_MS: env.positiveInt(30_000).describe("Per-call timeout of a buffered node call."),
  TRON_NODE_STREAM_IDLE_TIMEOUT_MS: env.positiveInt(60_000).describe("Longest silence in a streamed node answer."),

  // The TRC-20 whitelist the scanner notifies too.
  ...trc20WhitelistSettings(),
  TRC10_METADATA_CACHE_SIZE: env.positiveInt(100_000).describe("TRC-10 metadata entries kept (immutable on chain, so never refreshed)."),
  BLOCK_LATEST_MAX: env
    .positiveInt(50)
    .describe("Largest `num` of GET block/latest/{num} (each block is about 0.5 MB on mainnet); above: 400."),
  JSONRPC_BODY_LIMIT: jsonRpcBodyLimitSetting(REQUEST_BODY_LIMITS.trx),
  /** The trx-proxy's earlier name: deployments that set it keep their limit. */
  JSONRPC_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .describe("Deprecated: JSONRPC_BODY_LIMIT's former name in the trx-proxy, a number of bytes; when set, it wins."),
  GC_NUDGE_BYTES: gcNudgeBytesSetting("Streamed bytes of JSON-RPC answers"),
  JSONRPC_MAX_BATCH: env.positiveInt(TRX_JSONRPC_MAX_BATCH_CALLS).describe("Calls per POST /jsonrpc batch accepted from a client."),
  TRON_NODE_MAX_BATCH: env
    .positiveInt(DEFAULT_NODE_BATCH_CALLS)
    .describe("java-tron's own batch limit: a larger client batch is sent to it in chunks of this many calls."),

  TRX_DEPRECATED_SUNSET: instant(DEFAULT_SUNSET).describe("From this instant (ISO 8601) the deprecated endpoints answer 410."),
});

export type TrxProxyConfig = z.infer<typeof trxProxyConfigSchema>;
