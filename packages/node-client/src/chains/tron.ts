/**
 * java-tron full nodes: the HTTP API (`POST /wallet/getaccount` …, plain JSON, errors as an
 * `Error` member with HTTP 200) and the eth-compatible JSON-RPC 2.0 endpoint at `/jsonrpc`.
 */
import { JSONRPC_2_0, reasonTable, type NodeChain } from "../node-chain.ts";
import { ETHEREUM_REASON_CODES } from "./ethereum.ts";
import type { NodeFailureReason } from "../node-errors.ts";

/** java-tron's HTTP API has no codes: its `Error` member names a Java exception and a message. */
const REST_ERROR_CODE = 0;
const INVALID_ARGUMENT_MESSAGE = /ParseException|IllegalArgument|JsonFormat|DecoderException|Invalid|invalid/;
const NOT_FOUND_MESSAGE = /not exist|not found|NotFound/i;

const jsonRpcReason = reasonTable(ETHEREUM_REASON_CODES);

function reasonFor(code: number, message: string): NodeFailureReason {
  if (code !== REST_ERROR_CODE) return jsonRpcReason(code);
  if (NOT_FOUND_MESSAGE.test(message)) return "not_found";
  if (INVALID_ARGUMENT_MESSAGE.test(message)) return "invalid_argument";
  return "node_error";
}

export const tron: NodeChain = {
  id: "trx",
  name: "Tron",
  envelope: JSONRPC_2_0,
  answerStatuses: new Set([200]),
  requiresAuth: false,
  jsonRpcPath: "/jsonrpc",
  reasonFor,
  restErrorIn(answer) {
    if (typeof answer !== "object" || answer === null || Array.isArray(answer) || !Object.hasOwn(answer, "Error")) return undefined;
    const error = (answer as { Error: unknown }).Error;
    return { code: REST_ERROR_CODE, message: typeof error === "string" ? error : JSON.stringify(error) };
  },
};
