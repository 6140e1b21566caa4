/**
 * How a call to the Bitcoin node can fail, as the HTTP layer needs to tell them apart: spec rule 7
 * (unreachable → 502, code -32603) versus rule 6 (node rejected the call, not configured,
 * credentials wrong → 500 envelope with the node's own code).
 */
import { ChaingateError } from "@chaingate/errors";

/** No configured node URL answered with a usable JSON-RPC response (refused, timed out, overloaded, not JSON). Retryable. */
export class BitcoinNodeUnreachableError extends ChaingateError {
  override name = "BitcoinNodeUnreachableError" as const;
  /** Why each URL failed, credentials stripped from the URLs. */
  readonly attempts: ReadonlyArray<{ url: string; reason: string }>;
  constructor(attempts: ReadonlyArray<{ url: string; reason: string }>, options: { cause?: unknown } = {}) {
    const summary = attempts.map((attempt) => `${attempt.url}: ${attempt.reason}`).join("; ");
    super("btc_node_unreachable", `Could not reach any Bitcoin node (${summary || "no attempt"}).`, { ...options, retryable: true, details: { attempts } });
    this.attempts = attempts;
  }
}

/** The node answered the call with a JSON-RPC error, e.g. -5 not found, -8 invalid parameter, -22 decode failed, -26 rejected. */
export class BitcoinNodeRpcError extends ChaingateError {
  override name = "BitcoinNodeRpcError" as const;
  readonly rpcCode: number;
  readonly rpcMessage: string;
  readonly method: string;
  constructor(method: string, rpcCode: number, rpcMessage: string) {
    super("btc_node_rpc_error", `Bitcoin node refused ${method}: ${rpcCode} ${rpcMessage}`, { details: { method, rpcCode, rpcMessage } });
    this.rpcCode = rpcCode;
    this.rpcMessage = rpcMessage;
    this.method = method;
  }
}

/** The node answered HTTP 401/403: the configured rpcuser/rpcpassword or cookie is wrong. */
export class BitcoinNodeAuthError extends ChaingateError {
  override name = "BitcoinNodeAuthError" as const;
  constructor(url: string, status: number) {
    super("btc_node_auth_failed", `The Bitcoin node at ${url} refused our credentials (HTTP ${status}); check the rpc user/password or cookie file.`, {
      details: { url, status },
    });
  }
}

/** No node URL or no credentials configured (spec rule 6 answers 500 for this). */
export class BitcoinNodeNotConfiguredError extends ChaingateError {
  override name = "BitcoinNodeNotConfiguredError" as const;
  constructor(what: string) {
    super("btc_node_not_configured", `The Bitcoin node is not configured: ${what}.`);
  }
}
