/** GET /api/v1/eth/health: the node's latest block number (eth_blockNumber). */
import { abortOnClose } from "@chaingate/http";
import { nodeFailureDetails } from "@chaingate/node-client";
import type { RequestHandler } from "express";
import { GENERIC_NODE_ERROR } from "./node-error-response.ts";
import type { NodeRoute } from "./node-route.ts";

export function getHealth({ node }: NodeRoute): RequestHandler {
  return async (_req, res) => {
    let blockNumber: string;
    try {
      blockNumber = await node.call<string>("eth_blockNumber", [], { signal: abortOnClose(res) });
    } catch (error) {
      // A node failure is what this endpoint reports, in its own error shape (spec, Errors);
      // anything else is a fault of ours and goes to the error handler, which logs it.
      if (nodeFailureDetails(error) === undefined) throw error;
      res.status(500).json({ status: "error", message: GENERIC_NODE_ERROR });
      return;
    }
    res.json({ status: "ok", time: new Date().toISOString(), blockNumber });
  };
}
