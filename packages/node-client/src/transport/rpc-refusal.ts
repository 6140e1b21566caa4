/** A JSON-RPC error object in a node's answer, as the NodeRpcError to throw. */
import { JsonNumber } from "../lossless-json.ts";
import type { NodeChain } from "../node-chain.ts";
import { NodeRpcError } from "../node-errors.ts";
import { isRecord } from "./is-record.ts";

/** The answer's `error` member as a NodeRpcError, when it is an object. */
export function rpcErrorIn(chain: NodeChain, parsed: unknown, method: string): NodeRpcError | undefined {
  const error = isRecord(parsed) && Object.hasOwn(parsed, "error") ? parsed.error : undefined;
  if (!isRecord(error)) return undefined;
  return rpcRefusal(chain, error, method);
}

/** The node's error member (code and message) as a NodeRpcError with the chain's reason. */
export function rpcRefusal(chain: NodeChain, error: unknown, method: string): NodeRpcError {
  const record = isRecord(error) ? error : {};
  // A lossless call parses the error's code as a JsonNumber too.
  const code = typeof record.code === "number" ? record.code : record.code instanceof JsonNumber ? Number(record.code.text) : Number.NaN;
  const message = typeof record.message === "string" ? record.message : JSON.stringify(error);
  return new NodeRpcError(chain, method, code, message, chain.reasonFor(code, message));
}
