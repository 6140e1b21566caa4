/**
 * `/api/v1/trx`: request schemas the trx-proxy validates with, and the OpenAPI description of every
 * Tron endpoint.
 */
import { jsonRpcErrorSchema, messageErrorSchema, nodeErrorSchema, validationErrorSchema } from "./error-bodies.ts";
import { GATEWAY_RESPONSES, json, SECURITY, type OpenAPIRegistry } from "../openapi/openapi-registry.ts";
import { z } from "../zod.ts";

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

const transactionSchema = z
  .object({
    visible: z.boolean().optional(),
    txID: z.string().openapi({ description: "sha256 of raw_data_hex: the bytes to sign." }),
    raw_data: z.record(z.string(), z.unknown()),
    raw_data_hex: z.string(),
    signature: z.array(z.string()).optional(),
  })
  .passthrough()
  .openapi("TrxTransaction", { description: "A java-tron transaction as its builders print it (hex addresses)." });

const balancesSchema = z
  .object({
    address: z.string().openapi({ description: "Base58." }),
    balance: z.number().int().openapi({ description: "SUN (int64, exact)." }),
    trc10: z
      .union([z.record(z.string(), z.object({ name: z.string(), id: z.string(), balance: z.number().int() })), z.array(z.unknown()).max(0)])
      .openapi({
        description:
          "Keyed by symbol (`<symbol>#<id>` for a later token sharing a symbol, the id when it has none), ascending ids; `[]` when none held.",
      }),
    trc20: z
      .record(z.string(), z.string())
      .openapi({ description: 'Whitelisted TRC-20 raw balances keyed by contract (Base58), decimal strings; "0" when not held.' }),
    trc20_tokens: z.record(
      z.string(),
      z.object({ contract: z.string(), name: z.string(), decimals: z.number().int(), balance_raw: z.string(), balance: z.string() }),
    ),
  })
  .openapi("TrxBalances");

const tokenListSchema = z
  .object({
    tokens: z.array(
      z.object({ contract: z.string(), contract_hex: z.string(), symbol: z.string(), name: z.string(), decimals: z.number().int() }),
    ),
  })
  .openapi("TrxTrc20Tokens");

const transactionStatusSchema = z
  .object({
    txID: z.string(),
    status: z.enum(["pending", "unconfirmed", "confirmed"]),
    confirmed: z.boolean().openapi({ description: "In a solidified block (java-tron's /walletsolidity)." }),
    block_number: z.number().int().nullable(),
    block_timestamp: z.number().int().nullable(),
    contractRet: z.string().nullable().openapi({ description: "Execution result: SUCCESS, REVERT, OUT_OF_ENERGY…" }),
    fee: z.number().int().openapi({ description: "SUN burned (0 while pending)." }),
    receipt: z.record(z.string(), z.unknown()).nullable(),
    result: z.string().nullable().optional().openapi({ description: "FAILED when execution failed; absent while pending." }),
    res_message: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: "The node's failure message, decoded from hex; absent while pending." }),
    transaction: z.record(z.string(), z.unknown()),
    info: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .openapi({ description: "gettransactioninfobyid, as the node prints it; null until in a block, absent while pending." }),
  })
  .openapi("TrxTransactionStatus");

const broadcastResultSchema = z
  .object({
    result: z.boolean(),
    txid: z.string().optional(),
    code: z
      .string()
      .optional()
      .openapi({ description: "The node's code when it refused: SIGERROR, CONTRACT_VALIDATE_ERROR, TAPOS_ERROR…" }),
    message: z.string().optional().openapi({ description: "The node's message, decoded from hex." }),
  })
  .openapi("TrxBroadcastResult");

const errorSchema = z.object({ error: z.string(), details: z.record(z.string(), z.unknown()).optional() });
const nodeFailure = json(
  "The node failed: `Could not connect to TRX node.` with `details.reason` (not_found, invalid_argument, node_error with the node's message, node_unreachable, not_configured).",
  nodeErrorSchema,
);
const addressParam = z.object({ address: z.string().openapi({ example: "TDsY1sDyBHxHqxU8pEhQvXYK45CdeTV2SV" }) });
const DEPRECATED_NOTE =
  "Deprecated: answers carry `Deprecation`, `Sunset: Tue, 01 Dec 2026 00:00:00 GMT` and a `Link` to the replacement; from the sunset on, 410 `{error}` naming it. Replacement: POST /api/v1/trx/transactions/create, sign locally, POST /api/v1/trx/transactions/broadcast.";
const gone = json("Past the sunset: the endpoint is shut down; `error` names the replacement.", z.object({ error: z.string() }));

/** What POST /api/v1/trx/jsonrpc forwards to java-tron's eth-compatible /jsonrpc: its read methods (research §12), in name order. */
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

export function registerTrxPaths(registry: OpenAPIRegistry): void {
  const tags = ["Tron"];
  const common = { tags, security: SECURITY };
  registry.registerPath({
    ...common,
    method: "get",
    path: "/api/v1/trx/health",
    summary: "Node status: head and solidified blocks (chaingate addition)",
    responses: {
      200: json(
        "The node's head block, its age and the solidified block.",
        z
          .object({
            status: z.literal("ok"),
            time: z.iso.datetime(),
            block: z.number().int(),
            block_time: z.iso.datetime().nullable(),
            head_age_seconds: z.number().int().nullable(),
            solidified_block: z.number().int(),
          })
          .openapi("TrxHealth"),
      ),
      500: json("The node is unreachable or not configured.", z.object({ status: z.literal("error"), message: z.string() })),
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    ...common,
    method: "get",
    path: "/api/v1/trx/account/{address}",
    summary: "Raw account record (java-tron getaccount), [] for an address never seen",
    request: { params: addressParam },
    responses: {
      200: json(
        "The node's record, hex addresses, int64 exact, zero fields omitted; or [].",
        z.union([z.record(z.string(), z.unknown()), z.array(z.unknown()).max(0)]),
      ),
      500: nodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  for (const suffix of ["balance", "assets"]) {
    registry.registerPath({
      ...common,
      method: "get",
      path: `/api/v1/trx/account/{address}/${suffix}`,
      summary: "TRX, TRC-10 and whitelisted TRC-20 balances (balance and assets are the same handler)",
      request: { params: addressParam },
      responses: { 200: json("Balances.", balancesSchema), 500: nodeFailure, ...GATEWAY_RESPONSES },
    });
  }
  registry.registerPath({
    ...common,
    method: "get",
    path: "/api/v1/trx/block/latest/{num}",
    summary: "The newest num blocks, newest first, with their transactions (streamed; num at most BLOCK_LATEST_MAX, 50 by default)",
    request: { params: z.object({ num: z.string().regex(/^\d+$/).openapi({ example: "3" }) }) },
    responses: {
      200: json("`{block: [...]}` as java-tron prints blocks.", z.object({ block: z.array(z.record(z.string(), z.unknown())) })),
      400: json("num is 0 or above the cap.", errorSchema),
      404: json("Not an integer: a routing miss.", messageErrorSchema),
      500: nodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    ...common,
    method: "get",
    path: "/api/v1/trx/tokens/trc20",
    summary: "The TRC-20 whitelist",
    responses: { 200: json("Configured tokens.", tokenListSchema), ...GATEWAY_RESPONSES },
  });
  registry.registerPath({
    ...common,
    method: "post",
    path: "/api/v1/trx/transactions/create",
    summary: "Build an unsigned TRX, TRC-10 or TRC-20 transfer (by the node), ready to sign locally",
    request: { body: { content: { "application/json": { schema: trxCreateTransactionRequestSchema } } } },
    responses: {
      200: json("The unsigned transaction: sign txID (secp256k1, r‖s‖v) and broadcast it with the signature appended.", transactionSchema),
      400: json("The node refused to build it (balance, unknown token…); `error` is the node's message.", errorSchema),
      422: json("A field is missing or invalid.", validationErrorSchema),
      500: nodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    ...common,
    method: "post",
    path: "/api/v1/trx/transactions/broadcast",
    summary: "Broadcast a signed transaction; 200 even when the node rejects it (branch on result)",
    request: { body: { content: { "application/json": { schema: transactionSchema } } } },
    responses: {
      200: json("`result` true when accepted (not yet executed); otherwise the node's code and decoded message.", broadcastResultSchema),
      422: json("Not a transaction object (raw_data and signature required), or an int64 beyond 2^53.", validationErrorSchema),
      500: nodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    ...common,
    method: "get",
    path: "/api/v1/trx/transactions/{hash}",
    summary: "A transaction with its execution result and confirmation state",
    request: {
      params: z.object({ hash: z.string().openapi({ example: "087051c6aa1f3ffad5e5087e89096426470a490e1909aee3d1369daac9da5f6c" }) }),
    },
    responses: { 200: json("Transaction and result.", transactionStatusSchema), 500: nodeFailure, ...GATEWAY_RESPONSES },
  });
  registry.registerPath({
    ...common,
    method: "post",
    path: "/api/v1/trx/jsonrpc",
    summary:
      "java-tron's eth-compatible JSON-RPC 2.0, read methods only (a single call or a batch of at most JSONRPC_MAX_BATCH calls, default 1,000)",
    description:
      "A batch is checked as a whole, sent to the node in chunks of its own batch limit (TRON_NODE_MAX_BATCH) and answered as one array in request order. Answers carry the node's own Content-Type.",
    request: {
      body: {
        content: {
          "application/json": { schema: z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))]) },
        },
      },
    },
    responses: {
      200: json(
        "The node's answer (an envelope, or an array of them in request order; method errors in `error`).",
        z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))]),
      ),
      400: json("-32700 unparseable, -32600 invalid request, an empty batch or one over JSONRPC_MAX_BATCH.", jsonRpcErrorSchema),
      403: json("-32601: a method this proxy does not forward; the node was not contacted.", jsonRpcErrorSchema),
      500: json("-32603: the node is not configured.", jsonRpcErrorSchema),
      502: json("-32603: the node is unreachable.", jsonRpcErrorSchema),
      ...GATEWAY_RESPONSES,
    },
  });
  const deprecated = (path: string, summary: string, body: z.ZodType, ok: z.ZodType) =>
    registry.registerPath({
      ...common,
      method: "post",
      path,
      summary,
      description: DEPRECATED_NOTE,
      deprecated: true,
      request: { body: { content: { "application/json": { schema: body } } } },
      responses: {
        200: json("Done.", ok),
        400: json("A field is missing or invalid, or the node refused (`Broadcast failed: …`).", errorSchema),
        410: gone,
        500: json("The node failed.", errorSchema),
        ...GATEWAY_RESPONSES,
      },
    });
  const keyAnswer = z.object({ address: z.string(), hex_address: z.string(), private_key: z.string() });
  deprecated("/api/v1/trx/account/create", "Create an address (returns a private key; deprecated)", z.object({}), keyAnswer);
  deprecated(
    "/api/v1/trx/account/private-key",
    "Derive a private key from a BIP-39 mnemonic at m/44'/195'/0'/0/{index} (deprecated)",
    z.object({ mnemonic: z.string(), index: z.number().int().min(0).optional(), passphrase: z.string().optional() }),
    keyAnswer.extend({ path: z.string() }),
  );
  const sendAnswer = z.object({
    success: z.boolean(),
    tx_id: z.string(),
    from_address: z.string(),
    to_address: z.string(),
    amount: z.number(),
    amount_trx: z.number(),
  });
  deprecated(
    "/api/v1/trx/account/send",
    "Send TRX with a private key (deprecated)",
    z.object({
      private_key: z.string(),
      to_address: z.string(),
      amount: z.union([z.number(), z.string()]).openapi({ description: "Whole TRX; 0.1 TRX is 100000 SUN." }),
    }),
    sendAnswer,
  );
  deprecated(
    "/api/v1/trx/account/send/usdt",
    "Send USDT with a private key (deprecated)",
    z.object({
      private_key: z.string(),
      to_address: z.string(),
      amount: z.number(),
      fee_limit: z.number().optional().openapi({ description: "TRX, default 15, times 1 000 000 upstream." }),
    }),
    sendAnswer,
  );
}
