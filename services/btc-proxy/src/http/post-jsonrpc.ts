/**
 * POST /api/v1/btc/jsonrpc: the allow-listed JSON-RPC proxy (spec rules 1–9). The policy decides
 * before the node is contacted; a successful node answer streams through unchanged, a node error
 * becomes 500 with the node's envelope, an unreachable node 502 with -32603.
 */
import { pipeline } from "node:stream";
import { text } from "node:stream/consumers";
import { hasErrorCode } from "@chaingate/errors";
import type { BufferGarbageBound } from "@chaingate/http";
import express, { type RequestHandler } from "express";
import { evaluateJsonRpcRequest, JSONRPC_NODE_UNREACHABLE, jsonRpcProxyErrorBody, type JsonValue } from "../domain/jsonrpc-policy.ts";
import type { BitcoinRpcClient } from "../infra/bitcoin-rpc-client.ts";

export const DEFAULT_JSONRPC_BODY_LIMIT = "5mb";

/** The raw body as bytes: the policy parses it itself (a parse error is -32700, not a generic 400). */
export function rawJsonRpcBody(limit: string): RequestHandler {
  return express.raw({ type: () => true, limit });
}

export function postJsonRpc(node: BitcoinRpcClient, garbageBound?: BufferGarbageBound): RequestHandler {
  return async (req, res) => {
    const decision = evaluateJsonRpcRequest(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
    if (!decision.ok) {
      res.status(decision.status).json(decision.body);
      return;
    }
    const id: JsonValue = decision.isBatch ? null : (decision.forward[0]?.id ?? null);
    let answer;
    try {
      answer = await node.callRaw(decision.forwardBody);
    } catch (error) {
      if (hasErrorCode(error, "btc_node_unreachable")) {
        res.status(502).json(jsonRpcProxyErrorBody(JSONRPC_NODE_UNREACHABLE, "Could not connect to BTC node.", id));
      } else {
        // Not configured or wrong credentials: rule 6 answers 500.
        res.status(500).json(jsonRpcProxyErrorBody(JSONRPC_NODE_UNREACHABLE, "The BTC node is not configured or refused the proxy's credentials.", id));
      }
      return;
    }
    if (answer.status === 200) {
      // Rule 4: the node's own envelope (or array of envelopes) passes through untouched.
      res.status(200).type("application/json");
      garbageBound?.watch(res, undefined);
      pipeline(answer.body, res, (error) => {
        if (error && !res.destroyed) res.destroy(error);
      });
      return;
    }
    // Rule 6: the node refused the call. Forwarded as JSON-RPC 1.0, its errors are small.
    const raw = await text(answer.body);
    let envelope: unknown;
    try {
      envelope = JSON.parse(raw);
    } catch {
      envelope = { result: null, error: { code: -1, message: raw.slice(0, 500) }, id };
    }
    res.status(500).json(envelope);
  };
}
