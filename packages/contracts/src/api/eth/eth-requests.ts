/**
 * What the eth-proxy validates Ethereum requests with: the request bodies of its REST endpoints
 * and the allow-list and default batch cap of POST /api/v1/eth/jsonrpc.
 */
import { z } from "../../zod.ts";
// A 20-byte address, any letter case (the node checks no EIP-55 checksum).
import { ETHEREUM_ADDRESS } from "@chaingate/ethereum";
import { ETH_BLOCK_TAGS, ETH_DATA, ETH_QUANTITY, isEthBlockParameter } from "./eth-value-formats.ts";

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
