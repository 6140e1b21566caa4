/** JSON-RPC error codes and the error a method throws to answer one. */

export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const EXECUTION_ERROR = -32000;

/** An error answered with its own code and message (anything else a method throws is an EXECUTION_ERROR). */
export class RpcError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}
