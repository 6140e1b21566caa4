/**
 * POST /api/v1/btc/jsonrpc: the allow-listed JSON-RPC proxy (spec rules 1–9), the shared
 * exchange of @chaingate/node-client with Bitcoin's policy. The policy decides before the node is
 * contacted; a successful node answer streams through unchanged, a node error becomes 500 with the
 * node's envelope, an unreachable node 502 with -32603.
 */
import { abortOnClose, sendJsonRpcOutcome } from "@chaingate/http";
import { forwardJsonRpc } from "@chaingate/node-client";
import express, { type RequestHandler } from "express";
import { btcJsonRpcPolicy } from "../domain/jsonrpc-policy.ts";
import type { NodeRoute } from "./stream-node-result.ts";

export const DEFAULT_JSONRPC_BODY_LIMIT = "5mb";

/** The raw body as bytes: the policy parses it itself (a parse error is -32700, not a generic 400). */
export function rawJsonRpcBody(limit: string | number): RequestHandler {
  return express.raw({ type: () => true, limit });
}

export function postJsonRpc({ node, logger, garbageBound }: NodeRoute): RequestHandler {
  return async (req, res) => {
    const signal = abortOnClose(res);
    const outcome = await forwardJsonRpc(node, btcJsonRpcPolicy, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), {
      signal,
      unreachableMessage: "Could not connect to BTC node.",
      // Rule 6 answers 500.
      notConfiguredMessage: "The BTC node is not configured or refused the proxy's credentials.",
    });
    // Rule 4: the node's own envelope (or array of envelopes) passes through untouched, with its content type.
    sendJsonRpcOutcome(res, outcome, { signal, logger, garbageBound });
  };
}
