/**
 * The `/jsonrpc` Ethereum-compatible subset java-tron serves (read-only: blocks, transactions, receipts,
 * balances, eth_call, logs). Methods java-tron refuses answer -32601 with java-tron's message. The methods
 * live in `json-rpc/`, one module per family.
 */
import { toHex } from "./hex.ts";
import type { Ledger } from "./ledger.ts";
import type { StoredBlock } from "./ledger/stored-block.ts";
import { accountMethods } from "./json-rpc/account-methods.ts";
import { blockMethods } from "./json-rpc/block-methods.ts";
import { callMethods } from "./json-rpc/call-methods.ts";
import type { JsonRpcContext, JsonRpcMethods } from "./json-rpc/json-rpc-context.ts";
import { logMethods } from "./json-rpc/log-methods.ts";
import { nodeMethods } from "./json-rpc/node-methods.ts";
import { EXECUTION_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR, RpcError } from "./json-rpc/rpc-error.ts";
import { transactionMethods } from "./json-rpc/transaction-methods.ts";

/** Handles one HTTP body (a request or a batch) and returns the JSON answer. */
export type JsonRpcHandler = (body: string) => unknown;

/** Methods java-tron declares but refuses with -32601 (TronJsonRpcImpl). */
export const REFUSED_METHODS = [
  "eth_sendRawTransaction",
  "eth_sendTransaction",
  "eth_sign",
  "eth_signTransaction",
  "eth_getTransactionCount",
  "parity_nextNonce",
  "eth_getCompilers",
  "eth_compileSolidity",
  "eth_compileLLL",
  "eth_compileSerpent",
  "eth_submitWork",
  "eth_submitHashrate",
] as const;

/** java-tron's default `node.jsonrpc.maxBlockRange` for eth_getLogs. */
export const DEFAULT_MAX_BLOCK_RANGE = 5_000;

/** Options of {@link createJsonRpc}. */
export interface JsonRpcOptions {
  /** eth_getLogs' largest block range (java-tron's `node.jsonrpc.maxBlockRange`); 0 or less = no limit. */
  maxBlockRange?: number;
}

/** Answers one request object: its result, or its error (RpcError's code, else EXECUTION_ERROR). */
function answer(methods: JsonRpcMethods, request: unknown): Record<string, unknown> {
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    return { jsonrpc: "2.0", id: null, error: { code: INVALID_REQUEST, message: "Invalid Request" } };
  }
  const { id = null, method, params = [] } = request as Record<string, unknown>;
  try {
    if (typeof method !== "string") throw new RpcError(INVALID_REQUEST, "Invalid Request");
    if ((REFUSED_METHODS as readonly string[]).includes(method)) {
      throw new RpcError(METHOD_NOT_FOUND, `the method ${method} does not exist/is not available`);
    }
    const implementation = Object.hasOwn(methods, method) ? methods[method] : undefined;
    if (!implementation) throw new RpcError(METHOD_NOT_FOUND, "method not found");
    return { jsonrpc: "2.0", id, result: implementation(Array.isArray(params) ? params : [params]) };
  } catch (error) {
    if (error instanceof RpcError) return { jsonrpc: "2.0", id, error: { code: error.code, message: error.message, data: "{}" } };
    return {
      jsonrpc: "2.0",
      id,
      error: { code: EXECUTION_ERROR, message: error instanceof Error ? error.message : String(error), data: "{}" },
    };
  }
}

/** Creates the JSON-RPC handler over a ledger. */
export function createJsonRpc(ledger: Ledger, options: JsonRpcOptions = {}): JsonRpcHandler {
  const context: JsonRpcContext = {
    ledger,
    chainId: "0x" + toHex((ledger.blockByNumber(0) as StoredBlock).id.subarray(28)),
    maxBlockRange: options.maxBlockRange ?? DEFAULT_MAX_BLOCK_RANGE,
  };
  const methods: JsonRpcMethods = {
    ...nodeMethods(context),
    ...accountMethods(context),
    ...callMethods(context),
    ...blockMethods(context),
    ...transactionMethods(context),
    ...logMethods(context),
  };

  return (body) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return { jsonrpc: "2.0", id: null, error: { code: PARSE_ERROR, message: "JSON parse error" } };
    }
    return Array.isArray(parsed) ? parsed.map((request) => answer(methods, request)) : answer(methods, parsed);
  };
}
