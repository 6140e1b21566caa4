/**
 * What the trx-proxy validates Tron requests with: the body of POST /api/v1/trx/transactions/create
 * and the allow-list of POST /api/v1/trx/jsonrpc.
 */
import { z } from "../../zod.ts";

const decimalString = (field: string) =>
  z
    .string({ error: `The ${field} field must be a decimal string such as "1.5".` })
    .regex(/^\d+(\.\d+)?$/, `The ${field} field must be a positive decimal number in whole units, such as "1.5".`);

/** POST /api/v1/trx/transactions/create. Numbers sent as JSON numbers are read as their exact text. */
export const trxCreateTransactionRequestSchema = z
  .object({
    from: z
      .string({ error: "The from field must be a string." })
      .openapi({ description: "Sender (owner) address, Base58 `T…` or hex `41…`.", example: "TDsY1sDyBHxHqxU8pEhQvXYK45CdeTV2SV" }),
    to: z
      .string({ error: "The to field must be a string." })
      .openapi({ description: "Recipient address, Base58 or hex.", example: "TMy6uUVEfkeskZTVa2PoZvSy8kryDmeKmv" }),
    amount: decimalString("amount").openapi({
      description: "In whole units of the currency (TRX, the TRC-10 token's or the TRC-20 token's decimals), exact.",
      example: "1.5",
    }),
    currency: z.string({ error: "The currency field must be a string." }).default("TRX").openapi({
      description: '`TRX`, a TRC-10 token id (`"1002000"`), or a whitelisted TRC-20 token by symbol (`USDT`) or contract address.',
      example: "USDT",
    }),
    fee_limit: decimalString("fee limit").optional().openapi({
      description:
        "TRC-20 only: the most TRX the sender burns for energy, in whole TRX (default 30; at most 15000). A transfer exceeding it fails on chain with OUT_OF_ENERGY.",
      example: "30",
    }),
  })
  .openapi("TrxCreateTransactionRequest");

/** What POST /api/v1/trx/jsonrpc forwards to java-tron's eth-compatible /jsonrpc: its read methods (research §12), in name order. */
/** Calls per client batch on POST /api/v1/trx/jsonrpc by default (the trx-proxy's JSONRPC_MAX_BATCH). */
export const TRX_JSONRPC_MAX_BATCH_CALLS = 1_000;

export const TRX_JSONRPC_ALLOWED_METHODS = [
  "eth_blockNumber",
  "eth_call",
  "eth_chainId",
  "eth_estimateGas",
  "eth_gasPrice",
  "eth_getBalance",
  "eth_getBlockByHash",
  "eth_getBlockByNumber",
  "eth_getBlockReceipts",
  "eth_getBlockTransactionCountByHash",
  "eth_getBlockTransactionCountByNumber",
  "eth_getCode",
  "eth_getLogs",
  "eth_getStorageAt",
  "eth_getTransactionByBlockHashAndIndex",
  "eth_getTransactionByBlockNumberAndIndex",
  "eth_getTransactionByHash",
  "eth_getTransactionReceipt",
  "eth_protocolVersion",
  "eth_syncing",
  "net_listening",
  "net_peerCount",
  "net_version",
  "web3_clientVersion",
  "web3_sha3",
] as const;
