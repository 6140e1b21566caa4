import { NodeRpcError } from "@chaingate/node-client";

/** EIP-1474 "method not found". */
const METHOD_NOT_FOUND = -32601;

/** A node without `eth_getBlockReceipts` (EIP-1474 -32601, or the wording nodes use instead). */
export const lacksBlockReceipts = (error: unknown) =>
  error instanceof NodeRpcError && (error.rpcCode === METHOD_NOT_FOUND || /not (supported|found|available)/i.test(error.rpcMessage));

/** A trace method the node does not offer: -32601, or a message about the method ("block … not found" is not one). */
export const refusesMethod = (error: unknown) =>
  error instanceof NodeRpcError &&
  (error.rpcCode === METHOD_NOT_FOUND ||
    (/method/i.test(error.rpcMessage) &&
      /not (supported|found|available|enabled|allowed)|does not exist|unsupported|disabled/i.test(error.rpcMessage)));

/** A node that will not run the tracer asked for (a custom JS tracer where only built-in ones run). */
export const refusesTracer = (error: unknown) =>
  error instanceof NodeRpcError &&
  /tracer/i.test(error.rpcMessage) &&
  /not (supported|found|available|enabled|allowed)|unsupported|disabled|unknown/i.test(error.rpcMessage);
