/** GET /api/v1/btc/health: the node's chain, height and sync progress. */
import { abortOnClose } from "@chaingate/http";
import { nodeFailureDetails } from "@chaingate/node-client";
import type { RequestHandler } from "express";
import { GENERIC_NODE_ERROR } from "./node-error-response.ts";
import type { NodeRoute } from "./stream-node-result.ts";

interface BlockchainInfo {
  chain: string;
  blocks: number;
  headers: number;
  verificationprogress: number;
}

export function getHealth({ node }: NodeRoute): RequestHandler {
  return async (_req, res) => {
    let info: BlockchainInfo;
    try {
      info = await node.call<BlockchainInfo>("getblockchaininfo", [], { signal: abortOnClose(res) });
    } catch (error) {
      // A node failure is what this endpoint reports, in its own error shape (spec, Errors);
      // anything else is a fault of ours and goes to the error handler, which logs it.
      if (nodeFailureDetails(error) === undefined) throw error;
      res.status(500).json({ status: "error", message: GENERIC_NODE_ERROR });
      return;
    }
    res.json({
      status: "ok",
      time: new Date().toISOString(),
      chain: info.chain,
      blocks: info.blocks,
      headers: info.headers,
      verificationProgress: info.verificationprogress,
    });
  };
}
