/**
 * POST /api/v1/eth/jsonrpc: the allow-listed JSON-RPC 2.0 proxy, the shared exchange of
 * @chaingate/node-client with Ethereum's policy. The policy decides before the node is contacted;
 * the node's answer (its errors included, which JSON-RPC 2.0 nodes send with HTTP 200) streams
 * through unchanged; an unreachable node is 502 with -32603, an unconfigured one 500.
 */
import { abortOnClose, pipeNodeBody } from "@chaingate/http";
import { forwardJsonRpc } from "@chaingate/node-client";
import express, { type RequestHandler } from "express";
import { ethJsonRpcPolicy } from "../domain/jsonrpc-policy.ts";
import { GENERIC_NODE_ERROR } from "./node-error-response.ts";
import type { NodeRoute } from "./node-route.ts";

/** The raw body as bytes: the policy parses it itself (a parse error is -32700, not a generic 400). */
export function rawJsonRpcBody(limit: string | number): RequestHandler {
  return express.raw({ type: () => true, limit });
}

export function postJsonRpc({ node, logger, garbageBound }: NodeRoute): RequestHandler {
  return async (req, res) => {
    const signal = abortOnClose(res);
    const outcome = await forwardJsonRpc(node, ethJsonRpcPolicy, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), {
      signal,
      unreachableMessage: GENERIC_NODE_ERROR,
      notConfiguredMessage: "The ETH node is not configured or refused the proxy's credentials.",
    });
    if (outcome.kind === "client-gone") return;
    if (outcome.kind === "stream") {
      pipeNodeBody(outcome.body, res, { signal, logger, garbageBound, context: { route: "jsonrpc" } });
      return;
    }
    if (outcome.problem) logger.error({ err: outcome.problem.cause }, outcome.problem.message);
    res.status(outcome.status).json(outcome.body);
  };
}
