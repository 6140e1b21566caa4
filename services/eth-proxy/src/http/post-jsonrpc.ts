/**
 * POST /api/v1/eth/jsonrpc: the allow-listed JSON-RPC 2.0 proxy, the shared exchange of
 * @chaingate/node-client with Ethereum's policy. The policy decides before the node is contacted;
 * the node's answer (its errors included, which JSON-RPC 2.0 nodes send with HTTP 200) streams
 * through unchanged; an unreachable node is 502 with -32603, an unconfigured one 500. A batch of up
 * to `maxBatchCalls` is checked whole, then sent in chunks of the node's own `nodeBatchCalls`.
 */
import { abortOnClose, sendJsonRpcOutcome } from "@chaingate/http";
import { DEFAULT_NODE_BATCH_CALLS, forwardJsonRpc } from "@chaingate/node-client";
import express, { type RequestHandler } from "express";
import { createEthJsonRpcPolicy } from "../domain/jsonrpc-policy.ts";
import { GENERIC_NODE_ERROR } from "./node-error-response.ts";
import type { NodeRoute } from "./node-route.ts";

/** The raw body as bytes: the policy parses it itself (a parse error is -32700, not a generic 400). */
export function rawJsonRpcBody(limit: string | number): RequestHandler {
  return express.raw({ type: () => true, limit });
}

export interface JsonRpcBatchSettings {
  /** Calls per batch accepted from a client (JSONRPC_MAX_BATCH). */
  maxBatchCalls?: number | undefined;
  /** Calls per request to the node (ETH_RPC_MAX_BATCH). */
  nodeBatchCalls?: number | undefined;
}

export function postJsonRpc({ node, logger, garbageBound }: NodeRoute, { maxBatchCalls, nodeBatchCalls = DEFAULT_NODE_BATCH_CALLS }: JsonRpcBatchSettings = {}): RequestHandler {
  const policy = createEthJsonRpcPolicy(maxBatchCalls);
  return async (req, res) => {
    const signal = abortOnClose(res);
    const outcome = await forwardJsonRpc(node, policy, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), {
      signal,
      nodeBatchCalls,
      unreachableMessage: GENERIC_NODE_ERROR,
      notConfiguredMessage: "The ETH node is not configured or refused the proxy's credentials.",
    });
    // Rule 4: the node's own envelope (or array of envelopes) passes through untouched, with its content type.
    sendJsonRpcOutcome(res, outcome, { signal, logger, garbageBound });
  };
}
