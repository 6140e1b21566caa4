/**
 * `/api/v1/eth` (except xpub): request schemas the eth-proxy validates with, and the OpenAPI
 * description of every Ethereum endpoint. Records (blocks, transactions, receipts, fee history)
 * are the node's own JSON-RPC objects, passed through unchanged.
 */
import { ethValidationErrorSchema, jsonRpcErrorSchema, nodeErrorSchema } from "./error-bodies.ts";
import { GATEWAY_RESPONSES, json, SECURITY, type OpenAPIRegistry } from "../openapi/openapi-registry.ts";
import { z } from "../zod.ts";
// A 20-byte address, any letter case (the node checks no EIP-55 checksum).
import { ETHEREUM_ADDRESS } from "@chaingate/ethereum";

/** EIP-1474 QUANTITY: 0x-prefixed, no leading zeros (`0x0`, `0x5208`). */
export const ETH_QUANTITY = /^0x(?:0|[1-9a-fA-F][0-9a-fA-F]*)$/;
/** A 32-byte hash (block or transaction). */
export const ETH_HASH = /^0x[0-9a-fA-F]{64}$/;
/** EIP-1474 DATA: 0x-prefixed, whole bytes. */
export const ETH_DATA = /^0x(?:[0-9a-fA-F]{2})*$/;
/** The block tags every current execution client knows. */
export const ETH_BLOCK_TAGS = ["latest", "earliest", "pending", "safe", "finalized"] as const;

/** True for a hex QUANTITY or one of the block tags. */
export function isEthBlockParameter(value: string): boolean {
  return (ETH_BLOCK_TAGS as readonly string[]).includes(value) || ETH_QUANTITY.test(value);
}

const quantity = (field: string) =>
  z
    .string({ error: `The transaction.${field} field must be a string.` })
    .regex(ETH_QUANTITY, `The transaction.${field} field must be a hex QUANTITY (0x-prefixed, no leading zeros).`);
const address = (field: string) =>
  z
    .string({ error: `The transaction.${field} field must be a string.` })
    .regex(ETHEREUM_ADDRESS, `The transaction.${field} field must be a 0x-prefixed 20-byte address.`);

/** The spec's "Ethereum transaction parameters": every member optional, unknown members refused. */
export const ethTransactionParametersSchema = z
  .strictObject(
    {
      from: address("from").optional(),
      to: address("to").nullable().optional().openapi({ description: "null: contract creation." }),
      gas: quantity("gas").optional(),
      gasPrice: quantity("gasPrice").optional(),
      maxFeePerGas: quantity("maxFeePerGas").optional(),
      maxPriorityFeePerGas: quantity("maxPriorityFeePerGas").optional(),
      value: quantity("value").optional().openapi({ description: "Wei." }),
      data: z
        .string({ error: "The transaction.data field must be a string." })
        .regex(ETH_DATA, "The transaction.data field must be 0x-prefixed hex of whole bytes.")
        .optional(),
      nonce: quantity("nonce").optional(),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `The transaction field has unknown members: ${issue.keys.join(", ")}.`
          : "The transaction field must be an object.",
    },
  )
  .openapi("EthTransactionParameters", { description: "All members optional; numbers are hex QUANTITY strings." });

const blockParameter = z
  .string({ error: "The block field must be a string." })
  .refine(isEthBlockParameter, `The block field must be a hex QUANTITY or one of ${ETH_BLOCK_TAGS.join(", ")}.`)
  .openapi({ example: "latest" });

export const ethEstimateGasRequestSchema = z
  .object({ transaction: ethTransactionParametersSchema, block: blockParameter.optional() })
  .openapi("EthEstimateGasRequest");
export const ethSendTransactionRequestSchema = z
  .object({ transaction: ethTransactionParametersSchema })
  .openapi("EthSendTransactionRequest");
export const ethSendRawRequestSchema = z
  .object({
    hex: z
      .string({ error: "The hex field must be a string." })
      .regex(/^0x(?:[0-9a-fA-F]{2})+$/, "The hex field must be a 0x-prefixed, non-empty, even-length hexadecimal string."),
  })
  .openapi("EthSendRawRequest", { description: "A signed transaction (RLP, or a typed-transaction envelope), hex-encoded." });

const healthSchema = z
  .object({ status: z.string(), time: z.iso.datetime(), blockNumber: z.string().openapi({ example: "0x1b4" }) })
  .openapi("EthHealth");
const healthErrorSchema = z.object({ status: z.literal("error"), message: z.string() });
const nodeObject = (name: string, description: string) => z.record(z.string(), z.unknown()).openapi(name, { description });
const blockSchema = nodeObject(
  "EthBlock",
  "The node's eth_getBlockBy* object, streamed unchanged; `transactions` holds hashes, or full transaction objects with `fullTransactions=true`.",
);
const transactionSchema = nodeObject("EthTransaction", "The node's eth_getTransactionByHash object, unchanged.");
const receiptSchema = nodeObject("EthReceipt", "The node's eth_getTransactionReceipt object, unchanged.");
const feeHistorySchema = nodeObject(
  "EthFeeHistory",
  "The node's eth_feeHistory object (oldestBlock, baseFeePerGas, gasUsedRatio, reward), unchanged.",
);
const badRequest = (description: string) => json(description, z.object({ error: z.string() }));
const nodeFailure = json(
  "The node failed: the generic message `Could not connect to ETH node.` (compatibility) with `details.reason`: not_found (no such block, transaction or receipt), invalid_argument, node_error (a node refusal, with the node's code and message), node_unreachable or not_configured.",
  nodeErrorSchema,
);
const addressParam = z.object({ address: z.string().openapi({ example: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" }) });
const blockQuery = z.object({
  block: z
    .string()
    .optional()
    .openapi({ description: `Hex QUANTITY or ${ETH_BLOCK_TAGS.join(", ")}; default latest.` }),
});
const fullTransactionsQuery = z.object({
  fullTransactions: z
    .enum(["true", "false"])
    .optional()
    .openapi({ description: "Full transaction objects instead of hashes; default false." }),
});
const jsonRpcRequestSchema = z
  .object({
    jsonrpc: z.string().optional(),
    method: z.string(),
    params: z.array(z.unknown()).optional(),
    id: z.union([z.string(), z.number()]).nullable().optional(),
  })
  .openapi("EthJsonRpcRequest");

/** What POST /api/v1/eth/jsonrpc forwards; the description of the route lists them. */
export const ETH_JSONRPC_ALLOWED_METHODS = [
  "web3_clientVersion",
  "web3_sha3",
  "net_version",
  "net_listening",
  "net_peerCount",
  "eth_chainId",
  "eth_protocolVersion",
  "eth_syncing",
  "eth_blockNumber",
  "eth_gasPrice",
  "eth_maxPriorityFeePerGas",
  "eth_blobBaseFee",
  "eth_feeHistory",
  "eth_getBalance",
  "eth_getStorageAt",
  "eth_getTransactionCount",
  "eth_getCode",
  "eth_getProof",
  "eth_call",
  "eth_estimateGas",
  "eth_createAccessList",
  "eth_getBlockByHash",
  "eth_getBlockByNumber",
  "eth_getBlockTransactionCountByHash",
  "eth_getBlockTransactionCountByNumber",
  "eth_getUncleCountByBlockHash",
  "eth_getUncleCountByBlockNumber",
  "eth_getUncleByBlockHashAndIndex",
  "eth_getUncleByBlockNumberAndIndex",
  "eth_getTransactionByHash",
  "eth_getTransactionByBlockHashAndIndex",
  "eth_getTransactionByBlockNumberAndIndex",
  "eth_getTransactionReceipt",
  "eth_getBlockReceipts",
  "eth_getLogs",
  "eth_sendRawTransaction",
] as const;
/** Calls per JSON-RPC batch by default (`JSONRPC_MAX_BATCH` of the eth- and trx-proxy): viem's default batch size, and what hosted providers accept. */
export const ETH_JSONRPC_MAX_BATCH_CALLS = 1_000;

export function registerEthPaths(registry: OpenAPIRegistry): void {
  const common = { tags: ["Ethereum"], security: SECURITY };
  const get = (path: string, summary: string, request: Record<string, unknown>, responses: Record<number, unknown>) =>
    registry.registerPath({
      ...common,
      method: "get",
      path,
      summary,
      request,
      responses: { ...responses, 500: nodeFailure, ...GATEWAY_RESPONSES } as never,
    });
  registry.registerPath({
    ...common,
    method: "get",
    path: "/api/v1/eth/health",
    summary: "Node status (eth_blockNumber)",
    responses: {
      200: json("The node's latest block number.", healthSchema),
      500: json("The node is unreachable or not configured.", healthErrorSchema),
      ...GATEWAY_RESPONSES,
    },
  });
  get(
    "/api/v1/eth/account",
    "Addresses of the node's key store (eth_accounts; a production node has none or refuses)",
    {},
    { 200: json("Addresses.", z.array(z.string())) },
  );
  get(
    "/api/v1/eth/account/{address}/nonce",
    "Transaction count of an address: the next nonce (eth_getTransactionCount; `pending` counts the node's mempool)",
    { params: addressParam, query: blockQuery },
    {
      200: json("The count at the block.", z.object({ address: z.string(), block: z.string(), transactionCount: z.string() })),
      400: badRequest("Not a 20-byte address, or a bad block."),
    },
  );
  get(
    "/api/v1/eth/account/{address}/balance",
    "Balance in wei at a block (eth_getBalance; chaingate addition)",
    { params: addressParam, query: blockQuery },
    {
      200: json("Wei, hex QUANTITY.", z.object({ address: z.string(), block: z.string(), balance: z.string() })),
      400: badRequest("Not a 20-byte address, or a bad block."),
    },
  );
  registry.registerPath({
    ...common,
    method: "post",
    path: "/api/v1/eth/account/estimate-gas",
    summary: "Gas estimate (eth_estimateGas, the node's own: at least 0x5208 for a plain transfer; geth answers 0x5208, Hardhat 2 0x5209)",
    request: { body: { content: { "application/json": { schema: ethEstimateGasRequestSchema } } } },
    responses: {
      200: json("The node's estimate.", z.object({ gas: z.string() })),
      422: json("transaction missing or not an object, or a member of the wrong form.", ethValidationErrorSchema),
      500: nodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    ...common,
    method: "post",
    path: "/api/v1/eth/account/send",
    summary: "Send from an account the node holds unlocked (eth_sendTransaction; refused by production nodes: use send-raw)",
    request: { body: { content: { "application/json": { schema: ethSendTransactionRequestSchema } } } },
    responses: {
      200: json("The transaction hash.", z.object({ transactionHash: z.string() })),
      422: json("Bad transaction.", ethValidationErrorSchema),
      500: nodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    ...common,
    method: "post",
    path: "/api/v1/eth/transactions/send-raw",
    summary: "Broadcast a signed transaction (eth_sendRawTransaction)",
    request: { body: { content: { "application/json": { schema: ethSendRawRequestSchema } } } },
    responses: {
      200: json("The transaction hash.", z.object({ transactionHash: z.string() })),
      422: json("hex missing or not hexadecimal.", ethValidationErrorSchema),
      500: nodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  get(
    "/api/v1/eth/transactions/{transactionHash}",
    "A transaction (eth_getTransactionByHash)",
    { params: z.object({ transactionHash: z.string() }) },
    {
      200: json("The transaction; an unknown hash is a 500 with details.reason not_found.", transactionSchema),
      400: badRequest("Not a 32-byte hash."),
    },
  );
  get(
    "/api/v1/eth/transactions/{transactionHash}/receipt",
    "A transaction's receipt (eth_getTransactionReceipt)",
    { params: z.object({ transactionHash: z.string() }) },
    {
      200: json("The receipt; unknown or not yet mined is a 500 with details.reason not_found.", receiptSchema),
      400: badRequest("Not a 32-byte hash."),
    },
  );
  get(
    "/api/v1/eth/block/{block}",
    "Block by number (hex QUANTITY or decimal) or tag (eth_getBlockByNumber; streamed)",
    { params: z.object({ block: z.string().openapi({ example: "latest" }) }), query: fullTransactionsQuery },
    { 200: json("The block.", blockSchema), 400: badRequest("Not a block number or tag, or a bad fullTransactions.") },
  );
  get(
    "/api/v1/eth/block/hash/{blockHash}",
    "Block by hash (eth_getBlockByHash; streamed)",
    { params: z.object({ blockHash: z.string() }), query: fullTransactionsQuery },
    { 200: json("The block.", blockSchema), 400: badRequest("Not a 32-byte hash, or a bad fullTransactions.") },
  );
  get(
    "/api/v1/eth/gas-price",
    "Legacy gas price in wei (eth_gasPrice)",
    {},
    { 200: json("Wei per gas, hex QUANTITY.", z.object({ gasPrice: z.string() })) },
  );
  get(
    "/api/v1/eth/fee-history",
    "Base fees and priority-fee percentiles of recent blocks (eth_feeHistory)",
    {
      query: z.object({
        blockCount: z.string().optional().openapi({ description: "1–1024, decimal or hex; default 10." }),
        newestBlock: z.string().optional().openapi({ description: "Hex QUANTITY or tag; default latest." }),
        rewardPercentiles: z.string().optional().openapi({ description: "Comma-separated increasing percentiles 0–100, e.g. `25,50,75`." }),
      }),
    },
    { 200: json("The node's fee history.", feeHistorySchema), 400: badRequest("A bad parameter.") },
  );
  registry.registerPath({
    ...common,
    method: "post",
    path: "/api/v1/eth/jsonrpc",
    summary: `Allow-listed JSON-RPC 2.0 proxy (single call or a batch of at most JSONRPC_MAX_BATCH calls, default ${ETH_JSONRPC_MAX_BATCH_CALLS})`,
    description: `Allowed: ${ETH_JSONRPC_ALLOWED_METHODS.join(", ")}. Anything else (eth_sendTransaction, eth_sign*, eth_accounts, personal_*, admin_*, debug_*, miner_*, txpool_*, hardhat_*, evm_*, filters, subscriptions, unknown names) is refused with 403 and -32601 before the node is contacted; one refused call refuses the whole batch. Forwarded as JSON-RPC 2.0, re-encoded from the parsed request; \`params\` may be omitted. A batch is checked as a whole, sent to the node in chunks of its own batch limit (ETH_RPC_MAX_BATCH) and answered as one array in request order. Answers carry the node's own Content-Type.`,
    request: { body: { content: { "application/json": { schema: z.union([jsonRpcRequestSchema, z.array(jsonRpcRequestSchema)]) } } } },
    responses: {
      200: json(
        "The node answered: its envelope, or an array of envelopes in request order (ids echoed; per-call errors inside).",
        z.unknown(),
      ),
      400: json(
        `-32700 unparseable body; -32600 missing method, empty batch or a batch over JSONRPC_MAX_BATCH (default ${ETH_JSONRPC_MAX_BATCH_CALLS}).`,
        jsonRpcErrorSchema,
      ),
      403: json("-32601: a method outside the allow-list.", jsonRpcErrorSchema),
      500: json("The node is not configured: -32603.", jsonRpcErrorSchema),
      502: json("The node is unreachable: -32603.", jsonRpcErrorSchema),
      ...GATEWAY_RESPONSES,
    },
  });
}
