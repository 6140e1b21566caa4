/**
 * How a call to a blockchain node can fail, one class per condition. Codes are prefixed with the
 * chain's id (`btc_node_rpc_error`, `eth_node_unreachable`), so a service's error table maps its
 * own chain; `reason` is the `details.reason` vocabulary every proxy answers with.
 */
import { ChaingateError } from "@chaingate/errors";

/** What really happened, as the proxies' `details.reason` says it. */
export type NodeFailureReason = "not_found" | "invalid_argument" | "node_error" | "node_unreachable" | "not_configured";

/** The chain facts an error message needs: `btc` / "Bitcoin". */
export interface ChainLabel {
  id: string;
  name: string;
}

/** No configured node URL answered with a usable answer (refused, timed out, overloaded, not JSON). Retryable. */
export class NodeUnreachableError extends ChaingateError {
  override name = "NodeUnreachableError" as const;
  readonly reason = "node_unreachable" as const;
  /** Why each URL failed, credentials stripped from the URLs. */
  readonly attempts: ReadonlyArray<{ url: string; reason: string }>;
  constructor(chain: ChainLabel, attempts: ReadonlyArray<{ url: string; reason: string }>, options: { cause?: unknown } = {}) {
    const summary = attempts.map((attempt) => `${attempt.url}: ${attempt.reason}`).join("; ");
    super(`${chain.id}_node_unreachable`, `Could not reach any ${chain.name} node (${summary || "no attempt"}).`, {
      ...options,
      retryable: true,
      details: { attempts },
    });
    this.attempts = attempts;
  }
}

/** The node answered the call with an error of its own (JSON-RPC error object, java-tron `Error` member). */
export class NodeRpcError extends ChaingateError {
  override name = "NodeRpcError" as const;
  readonly rpcCode: number;
  readonly rpcMessage: string;
  readonly method: string;
  /** The chain's code table applied to `rpcCode` (and the message where codes are too coarse). */
  readonly reason: NodeFailureReason;
  constructor(chain: ChainLabel, method: string, rpcCode: number, rpcMessage: string, reason: NodeFailureReason) {
    // The node gave its answer: the same call gets the same refusal.
    super(`${chain.id}_node_rpc_error`, `${chain.name} node refused ${method}: ${rpcCode} ${rpcMessage}`, {
      retryable: false,
      details: { method, rpcCode, rpcMessage },
    });
    this.rpcCode = rpcCode;
    this.rpcMessage = rpcMessage;
    this.method = method;
    this.reason = reason;
  }
}

/** The node answered HTTP 401/403: the configured credentials (user/password, cookie, API key) are wrong. */
export class NodeAuthError extends ChaingateError {
  override name = "NodeAuthError" as const;
  /** Wrong credentials are an operator's configuration problem, not the client's. */
  readonly reason = "not_configured" as const;
  constructor(chain: ChainLabel, url: string, status: number) {
    super(
      `${chain.id}_node_auth_failed`,
      `The ${chain.name} node at ${url} refused our credentials (HTTP ${status}); check the configured credentials.`,
      {
        details: { url, status },
      },
    );
  }
}

/** No node URL, or no credentials where the chain's nodes require them. */
export class NodeNotConfiguredError extends ChaingateError {
  override name = "NodeNotConfiguredError" as const;
  readonly reason = "not_configured" as const;
  constructor(chain: ChainLabel, what: string) {
    super(`${chain.id}_node_not_configured`, `The ${chain.name} node is not configured: ${what}.`);
  }
}

/** The node's answer was accepted (JSON, right status) but is not an answer of the expected shape, e.g. a streamed body cut short. */
export class NodeAnswerError extends ChaingateError {
  override name = "NodeAnswerError" as const;
  readonly reason = "node_error" as const;
  constructor(chain: ChainLabel, what: string, options: { cause?: unknown } = {}) {
    super(`${chain.id}_node_bad_answer`, `The ${chain.name} node's answer is unusable: ${what}.`, options);
  }
}

/** The caller gave up (its AbortSignal fired, e.g. the HTTP client disconnected). Never counted against a node. */
export class NodeCallAbortedError extends ChaingateError {
  override name = "NodeCallAbortedError" as const;
  constructor(chain: ChainLabel, options: { cause?: unknown } = {}) {
    super(`${chain.id}_node_call_aborted`, `The ${chain.name} node call was cancelled by its caller.`, options);
  }
}

/** Every error a node client throws. */
export type NodeClientError =
  | NodeUnreachableError
  | NodeRpcError
  | NodeAuthError
  | NodeNotConfiguredError
  | NodeAnswerError
  | NodeCallAbortedError;

/** The codes a chain's errors carry, for a service's error table. */
export function nodeErrorCodes(chainId: string) {
  return {
    rpcError: `${chainId}_node_rpc_error`,
    unreachable: `${chainId}_node_unreachable`,
    authFailed: `${chainId}_node_auth_failed`,
    notConfigured: `${chainId}_node_not_configured`,
    badAnswer: `${chainId}_node_bad_answer`,
    aborted: `${chainId}_node_call_aborted`,
  } as const;
}

/**
 * The `details` object a proxy adds to its generic node-failure body: the reason, and the node's
 * own code and message when the node refused the call. Undefined for an error that is no node failure.
 */
export function nodeFailureDetails(error: unknown): { reason: NodeFailureReason; node_code?: number; node_message?: string } | undefined {
  if (error instanceof NodeRpcError) return { reason: error.reason, node_code: error.rpcCode, node_message: error.rpcMessage };
  if (
    error instanceof NodeUnreachableError ||
    error instanceof NodeAuthError ||
    error instanceof NodeNotConfiguredError ||
    error instanceof NodeAnswerError
  ) {
    return { reason: error.reason };
  }
  return undefined;
}
