/** The Tron transaction endpoints (`/api/v1/trx/transactions/*`: create, broadcast, read) in the OpenAPI document. */
import { validationErrorSchema } from "../error-bodies.ts";
import { GATEWAY_RESPONSES, json, type OpenAPIRegistry } from "../../openapi/openapi-registry.ts";
import { z } from "../../zod.ts";
import { TRX_PATH_COMMON, trxErrorSchema, trxNodeFailure } from "./trx-path-common.ts";
import { trxCreateTransactionRequestSchema } from "./trx-requests.ts";

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

export function registerTrxTransactionPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    ...TRX_PATH_COMMON,
    method: "post",
    path: "/api/v1/trx/transactions/create",
    summary: "Build an unsigned TRX, TRC-10 or TRC-20 transfer (by the node), ready to sign locally",
    request: { body: { content: { "application/json": { schema: trxCreateTransactionRequestSchema } } } },
    responses: {
      200: json("The unsigned transaction: sign txID (secp256k1, r‖s‖v) and broadcast it with the signature appended.", transactionSchema),
      400: json("The node refused to build it (balance, unknown token…); `error` is the node's message.", trxErrorSchema),
      422: json("A field is missing or invalid.", validationErrorSchema),
      500: trxNodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    ...TRX_PATH_COMMON,
    method: "post",
    path: "/api/v1/trx/transactions/broadcast",
    summary: "Broadcast a signed transaction; 200 even when the node rejects it (branch on result)",
    request: { body: { content: { "application/json": { schema: transactionSchema } } } },
    responses: {
      200: json("`result` true when accepted (not yet executed); otherwise the node's code and decoded message.", broadcastResultSchema),
      422: json("Not a transaction object (raw_data and signature required), or an int64 beyond 2^53.", validationErrorSchema),
      500: trxNodeFailure,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    ...TRX_PATH_COMMON,
    method: "get",
    path: "/api/v1/trx/transactions/{hash}",
    summary: "A transaction with its execution result and confirmation state",
    request: {
      params: z.object({ hash: z.string().openapi({ example: "087051c6aa1f3ffad5e5087e89096426470a490e1909aee3d1369daac9da5f6c" }) }),
    },
    responses: { 200: json("Transaction and result.", transactionStatusSchema), 500: trxNodeFailure, ...GATEWAY_RESPONSES },
  });
}
