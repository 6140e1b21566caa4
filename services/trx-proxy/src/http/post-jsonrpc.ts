/**
 * POST /api/v1/trx/jsonrpc: java-tron's eth-compatible JSON-RPC 2.0, read methods only, the shared
 * exchange of @chaingate/node-client with Tron's policy. The policy decides before the node is
 * contacted (403 -32601 for any other method, 400 -32700/-32600 for a malformed body); the node's
 * answer (HTTP 200, results and errors alike) streams through unchanged with its content type; an
 * unreachable node is 502 -32603, one not configured 500 -32603. A batch of up to `maxBatchCalls` is
 * checked whole, then sent in chunks of the node's own `nodeBatchCalls`.
 */
import { abortOnClose, sendJsonRpcOutcome } from "@chaingate/http";
import { DEFAULT_NODE_BATCH_CALLS, forwardJsonRpc } from "@chaingate/node-client";
import express, { type RequestHandler } from "express";
import { createTrxJsonRpcPolicy } from "../domain/jsonrpc-policy.ts";
import { GENERIC_NODE_ERROR } from "./node-error-response.ts";
import type { TrxRoute } from "./trx-route.ts";

/** The raw body as bytes: the policy parses it itself (a parse error is -32700, not a generic 400). */
export function rawJsonRpcBody(limitBytes: number): RequestHandler {
  return express.raw({ type: () => true, limit: limitBytes });
}

export interface JsonRpcBatchSettings {
  /** Calls per batch accepted from a client (JSONRPC_MAX_BATCH). */
  maxBatchCalls?: number | undefined;
  /** Calls per request to the node (TRON_NODE_MAX_BATCH). */
  nodeBatchCalls?: number | undefined;
}

export function postJsonRpc({ node, logger }: TrxRoute, { maxBatchCalls, nodeBatchCalls = DEFAULT_NODE_BATCH_CALLS }: JsonRpcBatchSettings = {}): RequestHandler {
  const policy = createTrxJsonRpcPolicy(maxBatchCalls);
  return async (req, res) => {
    const signal = abortOnClose(res);
    const outcome = await forwardJsonRpc(node, policy, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), {
      signal,
      nodeBatchCalls,
      unreachableMessage: GENERIC_NODE_ERROR,
      notConfiguredMessage: "The TRX node is not configured.",
    });
    sendJsonRpcOutcome(res, outcome, { signal, logger });
  };
}
