/**
 * POST /api/v1/trx/jsonrpc: java-tron's eth-compatible JSON-RPC 2.0, read methods only. The policy
 * decides before the node is contacted (403 -32601 for any other method, 400 -32700/-32600 for a
 * malformed body); the node's answer (HTTP 200, results and errors alike) streams through unchanged;
 * an unreachable node is 502 -32603, one not configured 500 -32603.
 */
import { pipeline } from "node:stream";
import { abortOnClose } from "@chaingate/http";
import { hasErrorCode } from "@chaingate/errors";
import { JSONRPC_NODE_UNREACHABLE, jsonRpcProxyErrorBody, type JsonValue } from "@chaingate/node-client";
import express, { type RequestHandler } from "express";
import { evaluateJsonRpcRequest } from "../domain/jsonrpc-policy.ts";
import { GENERIC_NODE_ERROR, TRX_CODES } from "./node-error-response.ts";
import type { TrxRoute } from "./trx-route.ts";

/** The raw body as bytes: the policy parses it itself (a parse error is -32700, not a generic 400). */
export function rawJsonRpcBody(limitBytes: number): RequestHandler {
  return express.raw({ type: () => true, limit: limitBytes });
}

export function postJsonRpc({ node, logger }: TrxRoute): RequestHandler {
  return async (req, res) => {
    const decision = evaluateJsonRpcRequest(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
    if (!decision.ok) {
      res.status(decision.status).json(decision.body);
      return;
    }
    const id: JsonValue = decision.isBatch ? null : (decision.forward[0]?.id ?? null);
    const signal = abortOnClose(res);
    let answer;
    try {
      answer = await node.callRaw(decision.forwardBody, { signal });
    } catch (error) {
      if (hasErrorCode(error, TRX_CODES.aborted)) return;
      if (hasErrorCode(error, TRX_CODES.unreachable)) {
        res.status(502).json(jsonRpcProxyErrorBody(JSONRPC_NODE_UNREACHABLE, GENERIC_NODE_ERROR, id));
      } else if (hasErrorCode(error, TRX_CODES.notConfigured, TRX_CODES.authFailed)) {
        res.status(500).json(jsonRpcProxyErrorBody(JSONRPC_NODE_UNREACHABLE, "The TRX node is not configured.", id));
      } else {
        logger.error({ err: error }, "POST /jsonrpc failed unexpectedly");
        res.status(500).json(jsonRpcProxyErrorBody(JSONRPC_NODE_UNREACHABLE, "Internal error in the proxy.", id));
      }
      return;
    }
    res.status(200).type("application/json");
    pipeline(answer.body, res, (error) => {
      if (error && !signal.aborted) logger.error({ err: error }, "the node's JSON-RPC answer failed; connection cut");
    });
  };
}
