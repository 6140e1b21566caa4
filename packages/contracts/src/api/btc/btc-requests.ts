/**
 * What the btc-proxy validates Bitcoin requests with: the request schemas of its REST endpoints
 * and the allow-list and batch cap of POST /api/v1/btc/jsonrpc.
 */
import { z } from "../../zod.ts";

export const btcSendRawRequestSchema = z
  .object({
    hex: z
      .string({ error: "The hex field must be a string." })
      .min(2, "The hex field must not be empty.")
      .regex(/^([0-9a-fA-F]{2})+$/, "The hex field must be an even-length hexadecimal string."),
  })
  .openapi("BtcSendRawRequest", { description: "A signed raw transaction, hex-encoded." });

export const btcFeeEstimateQuerySchema = z.object({
  blocks: z.coerce
    .number({ error: "The blocks field must be an integer." })
    .int("The blocks field must be an integer.")
    .min(1, "The blocks field must be between 1 and 1008.")
    .max(1008, "The blocks field must be between 1 and 1008.")
    .default(6)
    .openapi({ description: "Confirmation target in blocks." }),
  mode: z.enum(["economical", "conservative"], { error: "The mode field must be economical or conservative." }).default("economical"),
});

/** What POST /api/v1/btc/jsonrpc forwards (spec rule 1), exactly as bitcoind names them (case-sensitive); every wallet method is refused. */
export const BTC_JSONRPC_ALLOWED_METHODS = [
  "decoderawtransaction",
  "estimatesmartfee",
  "getbestblockhash",
  "getblock",
  "getblockchaininfo",
  "getblockcount",
  "getblockhash",
  "getblockheader",
  "getblockstats",
  "getdifficulty",
  "getmempoolinfo",
  "getrawtransaction",
  "gettxout",
  "sendrawtransaction",
  "testmempoolaccept",
] as const;
/** Calls per POST /api/v1/btc/jsonrpc batch (spec rule 3). */
export const BTC_JSONRPC_MAX_BATCH_CALLS = 20;
