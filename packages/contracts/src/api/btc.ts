/**
 * `/api/v1/btc` (except xpub): request schemas the btc-proxy validates with, and the OpenAPI
 * description of every Bitcoin endpoint.
 */
import { jsonRpcErrorSchema, messageErrorSchema, nodeErrorSchema, validationErrorSchema } from "./error-bodies.ts";
import { GATEWAY_RESPONSES, json, SECURITY, type OpenAPIRegistry } from "../openapi/openapi-registry.ts";
import { z } from "../zod.ts";

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

const healthSchema = z
  .object({
    status: z.string(),
    time: z.iso.datetime(),
    chain: z.string(),
    blocks: z.number().int(),
    headers: z.number().int(),
    verificationProgress: z.number(),
  })
  .openapi("BtcHealth");
const healthErrorSchema = z.object({ status: z.literal("error"), message: z.string() }).openapi("HealthError");
const blockSchema = z
  .object({
    hash: z.string(),
    confirmations: z.number().int(),
    height: z.number().int(),
    time: z.number().int(),
    mediantime: z.number().int(),
    nTx: z.number().int(),
    previousblockhash: z.string().optional(),
    nextblockhash: z.string().optional(),
    tx: z.array(z.record(z.string(), z.unknown())).openapi({ description: "Full transaction objects; element 0 is the coinbase." }),
  })
  .passthrough()
  .openapi("BtcBlock", { description: "The node's getblock verbosity 2 object, streamed unchanged (see the spec for every field)." });
const walletAddressSchema = z
  .object({ address: z.string(), amount: z.number(), confirmations: z.number().int(), label: z.string(), txids: z.array(z.string()) })
  .openapi("BtcWalletAddress");
const feeEstimateSchema = z
  .object({
    blocks: z.number().int(),
    feerate_btc_per_kvb: z.number().nullable().openapi({ description: "BTC per 1000 virtual bytes, as the node gives it." }),
    feerate_sat_per_vb: z.number().nullable().openapi({ description: "Satoshis per virtual byte." }),
    errors: z.array(z.string()),
  })
  .openapi("BtcFeeEstimate");
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

const jsonRpcRequestSchema = z
  .object({
    jsonrpc: z.string().optional(),
    method: z.string(),
    params: z.array(z.unknown()),
    id: z.union([z.string(), z.number()]).nullable().optional(),
  })
  .openapi("BtcJsonRpcRequest");

const nodeFailure = json(
  "The node failed: the generic message `Could not connect to BTC node.` (compatibility) with `details.reason` telling an unknown id (not_found), a bad argument (invalid_argument), a node refusal (node_error, with the node's code), an outage (node_unreachable) or a missing node configuration (not_configured).",
  nodeErrorSchema,
);
const hashParam = z.object({
  blockHash: z.string().openapi({ example: "0000000000000000000320283a032748cef8227873ff4872689bf23f1cda83a5" }),
});

export function registerBtcPaths(registry: OpenAPIRegistry): void {
  const tags = ["Bitcoin"];
  const common = { tags, security: SECURITY };
  registry.registerPath({
    ...common,
    method: "get",
    path: "/api/v1/btc/health",
    summary: "Node status",
    responses: {
      200: json("Chain, height and sync progress.", healthSchema),
      500: json("The node is unreachable or not configured.", healthErrorSchema),
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    ...common,
    method: "get",
    path: "/api/v1/btc/block/{blockNumber}",
    summary: "Block by height, with full transactions (streamed; megabytes)",
    request: {
      params: z.object({
        blockNumber: z
          .string()
          .regex(/^-?\d+$/)
          .openapi({ example: "840000" }),
      }),
    },
    responses: {
      200: json("The block (getblock verbosity 2).", blockSchema),
      400: json("Negative height.", z.object({ error: z.string() })),
      404: json("Not an integer: a routing miss.", messageErrorSchema),
      500: nodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    ...common,
    method: "get",
    path: "/api/v1/btc/block/best",
    summary: "Hash and height of the chain tip (chaingate addition)",
    responses: { 200: json("The tip.", z.object({ hash: z.string(), height: z.number().int() })), 500: nodeFailure, ...GATEWAY_RESPONSES },
  });
  registry.registerPath({
    ...common,
    method: "get",
    path: "/api/v1/btc/block/hash/{blockHash}",
    summary: "Block by hash, with full transactions (chaingate addition; streamed)",
    request: { params: hashParam },
    responses: { 200: json("The block (getblock verbosity 2).", blockSchema), 500: nodeFailure, ...GATEWAY_RESPONSES },
  });
  registry.registerPath({
    ...common,
    method: "get",
    path: "/api/v1/btc/block/hash/{blockHash}/header",
    summary: "Block header (chaingate addition)",
    request: { params: hashParam },
    responses: { 200: json("getblockheader verbose.", z.record(z.string(), z.unknown())), 500: nodeFailure, ...GATEWAY_RESPONSES },
  });
  registry.registerPath({
    ...common,
    method: "get",
    path: "/api/v1/btc/block/hash/{blockHash}/transactions/count",
    summary: "Number of transactions in a block",
    request: { params: hashParam },
    responses: {
      200: json("Count including the coinbase.", z.object({ transactionCount: z.number().int().nullable() })),
      500: nodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    ...common,
    method: "get",
    path: "/api/v1/btc/account",
    summary: "Addresses of the node's own wallet (always [] on a node without a wallet)",
    request: {
      query: z.object({
        minconf: z.string().optional().openapi({ example: "1" }),
        includeEmpty: z.enum(["true", "false"]).optional(),
        includeWatchOnly: z.enum(["true", "false"]).optional(),
      }),
    },
    responses: {
      200: json("listreceivedbyaddress rows.", z.array(walletAddressSchema)),
      400: json("minconf negative or not an integer, or a flag that is not true/false.", z.object({ error: z.string() })),
      500: nodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    ...common,
    method: "post",
    path: "/api/v1/btc/transactions/send-raw",
    summary: "Broadcast a signed transaction",
    request: { body: { content: { "application/json": { schema: btcSendRawRequestSchema } } } },
    responses: {
      200: json("Accepted by the node's mempool.", z.object({ txid: z.string() })),
      422: json("hex missing or not hexadecimal.", validationErrorSchema),
      500: nodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    ...common,
    method: "get",
    path: "/api/v1/btc/transactions/{txid}",
    summary: "A transaction (getrawtransaction verbose; streamed)",
    request: { params: z.object({ txid: z.string() }) },
    responses: { 200: json("The transaction object.", z.record(z.string(), z.unknown())), 500: nodeFailure, ...GATEWAY_RESPONSES },
  });
  registry.registerPath({
    ...common,
    method: "get",
    path: "/api/v1/btc/transactions/{txid}/outputs/{n}",
    summary: "Whether an output is unspent (gettxout, mempool included; chaingate addition)",
    request: { params: z.object({ txid: z.string(), n: z.string().regex(/^\d+$/) }) },
    responses: {
      200: json(
        "`unspent: false` with `output: null` means spent or never existed.",
        z.object({ unspent: z.boolean(), output: z.record(z.string(), z.unknown()).nullable() }),
      ),
      500: nodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    ...common,
    method: "get",
    path: "/api/v1/btc/fee-estimate",
    summary: "Fee estimate in BTC/kvB and sat/vB (chaingate addition)",
    request: { query: btcFeeEstimateQuerySchema },
    responses: {
      200: json("estimatesmartfee; nulls and errors when the node has too little data.", feeEstimateSchema),
      400: json("A query parameter given more than once or in array form.", z.object({ error: z.string() })),
      422: json("Bad blocks or mode.", validationErrorSchema),
      500: nodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    ...common,
    method: "get",
    path: "/api/v1/btc/mempool",
    summary: "Mempool size and fee floor (getmempoolinfo; chaingate addition)",
    responses: { 200: json("getmempoolinfo.", z.record(z.string(), z.unknown())), 500: nodeFailure, ...GATEWAY_RESPONSES },
  });
  registry.registerPath({
    ...common,
    method: "post",
    path: "/api/v1/btc/jsonrpc",
    summary: `Allow-listed JSON-RPC 1.0 proxy (single call or a batch of at most ${BTC_JSONRPC_MAX_BATCH_CALLS})`,
    description: `Allowed: ${BTC_JSONRPC_ALLOWED_METHODS.join(", ")}. Any other method (every wallet method) is refused with 403 and -32601 before the node is contacted; one disallowed call refuses the whole batch. \`params\` is required (an array). Forwarded as JSON-RPC 1.0, re-encoded from the parsed request.`,
    request: { body: { content: { "application/json": { schema: z.union([jsonRpcRequestSchema, z.array(jsonRpcRequestSchema)]) } } } },
    responses: {
      200: json(
        "The node answered: its envelope, or an array of envelopes for a batch (match by id; per-call errors inside).",
        z.unknown(),
      ),
      400: json(
        `-32700 unparseable body; -32600 missing method, missing params, empty batch or a batch over ${BTC_JSONRPC_MAX_BATCH_CALLS}.`,
        jsonRpcErrorSchema,
      ),
      403: json("-32601: a method outside the allow-list.", jsonRpcErrorSchema),
      500: json(
        "The node refused the call: `{result: null, error: {code, message}, id}` with the node's code; or the node is not configured (-32603, no result member).",
        z.unknown(),
      ),
      502: json("The node is unreachable: -32603.", jsonRpcErrorSchema),
      ...GATEWAY_RESPONSES,
    },
  });
}
