/**
 * POST /api/v1/btc/jsonrpc: the allow-listed JSON-RPC proxy (spec rules 1–9). The policy decides
 * before the node is contacted; a successful node answer streams through unchanged, a node error
 * becomes 500 with the node's envelope, an unreachable node 502 with -32603.
 */
import { text } from "node:stream/consumers";
import { abortOnClose } from "@chaingate/http";
import { bitcoin, JSONRPC_NODE_UNREACHABLE, jsonRpcProxyErrorBody, nodeErrorCodes, type JsonValue } from "@chaingate/node-client";
import { hasErrorCode } from "@chaingate/errors";
import express, { type RequestHandler } from "express";
import { evaluateJsonRpcRequest } from "../domain/jsonrpc-policy.ts";
import { pipeNodeBody, type NodeRoute } from "./stream-node-result.ts";

export const DEFAULT_JSONRPC_BODY_LIMIT = "5mb";
const CODES = nodeErrorCodes(bitcoin.id);
/** A refusal body the node wrote that is not JSON is quoted this far. */
const QUOTED_REFUSAL_CHARS = 500;

/** The raw body as bytes: the policy parses it itself (a parse error is -32700, not a generic 400). */
export function rawJsonRpcBody(limit: string | number): RequestHandler {
  return express.raw({ type: () => true, limit });
}

export function postJsonRpc({ node, logger, garbageBound }: NodeRoute): RequestHandler {
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
      if (hasErrorCode(error, CODES.aborted)) return; // the client left; nobody to answer
      if (hasErrorCode(error, CODES.unreachable)) {
        res.status(502).json(jsonRpcProxyErrorBody(JSONRPC_NODE_UNREACHABLE, "Could not connect to BTC node.", id));
      } else if (hasErrorCode(error, CODES.notConfigured, CODES.authFailed)) {
        // Rule 6 answers 500.
        res.status(500).json(jsonRpcProxyErrorBody(JSONRPC_NODE_UNREACHABLE, "The BTC node is not configured or refused the proxy's credentials.", id));
      } else {
        logger.error({ err: error }, "POST /jsonrpc failed unexpectedly");
        res.status(500).json(jsonRpcProxyErrorBody(JSONRPC_NODE_UNREACHABLE, "Internal error in the proxy.", id));
      }
      return;
    }
    if (answer.status === 200) {
      // Rule 4: the node's own envelope (or array of envelopes) passes through untouched.
      pipeNodeBody(answer.body, res, { signal, logger, garbageBound, context: { route: "jsonrpc" } });
      return;
    }
    // Rule 6: the node refused the call. Forwarded as JSON-RPC 1.0, its errors are small.
    const raw = await text(answer.body);
    let envelope: unknown;
    try {
      envelope = JSON.parse(raw);
    } catch {
      logger.warn({ status: answer.status, body: raw.slice(0, QUOTED_REFUSAL_CHARS) }, "the node refused a JSON-RPC call with a body that is not JSON");
      envelope = { result: null, error: { code: -1, message: raw.slice(0, QUOTED_REFUSAL_CHARS) }, id };
    }
    res.status(500).json(envelope);
  };
}
