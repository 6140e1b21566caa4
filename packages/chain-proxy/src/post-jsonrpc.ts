/**
 * POST /api/v1/<chain>/jsonrpc of every proxy: the allow-listed JSON-RPC proxy. The proxy hands
 * its chain's rules as data (allowlist, protocol version, params rule, batch cap); the policy
 * decides before the node is contacted (400 -32700/-32600 for a malformed body, 403 -32601 for any
 * other method); the node's answer streams through unchanged with its content type, the streamed
 * bytes counted by the garbage bound; a JSON-RPC 1.0 refusal is 500 with the node's envelope; an
 * unreachable node 502 -32603, one not configured (or refusing our credentials) 500 -32603. A batch
 * of up to `maxBatchCalls` is checked whole, then sent in chunks of the node's own `nodeBatchCalls`
 * and answered as one array streamed at the client's pace (forward-batch-in-chunks.ts).
 */
import { abortOnClose } from "@chaingate/http";
import { DEFAULT_NODE_BATCH_CALLS } from "@chaingate/node-client";
import express, { type RequestHandler } from "express";
import { forwardJsonRpc } from "./forward-jsonrpc.ts";
import { createJsonRpcProxyPolicy, type JsonRpcProxyPolicyOptions } from "./jsonrpc-proxy-policy.ts";
import { genericNodeError } from "./node-error-responses.ts";
import type { ProxyRoute } from "./proxy-route.ts";
import { sendJsonRpcOutcome } from "./send-jsonrpc-outcome.ts";

/** The raw body as bytes, up to `limit`: the policy parses it itself (a parse error is -32700, not a generic 400). */
export function jsonRpcBody(limit: string | number): RequestHandler {
  return express.raw({ type: () => true, limit });
}

export interface JsonRpcBatchSettings {
  /** Calls per batch accepted from a client (JSONRPC_MAX_BATCH); unset: the rules' own cap. */
  maxBatchCalls?: number | undefined;
  /** Calls per request to the node (its own batch limit); a larger batch is sent in chunks. */
  nodeBatchCalls?: number | undefined;
}

export function postJsonRpc(
  { node, logger, garbageBound }: ProxyRoute,
  rules: JsonRpcProxyPolicyOptions,
  { maxBatchCalls, nodeBatchCalls = DEFAULT_NODE_BATCH_CALLS }: JsonRpcBatchSettings = {},
): RequestHandler {
  const policy = createJsonRpcProxyPolicy({ ...rules, maxBatchCalls: maxBatchCalls ?? rules.maxBatchCalls });
  const messages = {
    // Spec rule 7: the generic message of the REST endpoints.
    unreachableMessage: genericNodeError(node.chain),
    notConfiguredMessage: `The ${node.chain.id.toUpperCase()} node is not configured or refused the proxy's credentials.`,
  };
  return async (req, res) => {
    const signal = abortOnClose(res);
    const outcome = await forwardJsonRpc(node, policy, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), {
      signal,
      nodeBatchCalls,
      ...messages,
    });
    // Rule 4: the node's own envelope (or array of envelopes) passes through untouched, with its content type.
    sendJsonRpcOutcome(res, outcome, { signal, logger, garbageBound });
  };
}
