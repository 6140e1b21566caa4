/** GET /api/v1/btc/health: the node's chain, height and sync progress. */
import type { RequestHandler } from "express";
import type { BitcoinRpcClient } from "../infra/bitcoin-rpc-client.ts";
import { GENERIC_NODE_ERROR } from "./node-error-response.ts";

interface BlockchainInfo {
  chain: string;
  blocks: number;
  headers: number;
  verificationprogress: number;
}

export function getHealth(node: BitcoinRpcClient): RequestHandler {
  return async (_req, res) => {
    try {
      const info = await node.call<BlockchainInfo>("getblockchaininfo");
      res.json({
        status: "ok",
        time: new Date().toISOString(),
        chain: info.chain,
        blocks: info.blocks,
        headers: info.headers,
        verificationProgress: info.verificationprogress,
      });
    } catch {
      // The health endpoints have their own error shape (spec, Errors).
      res.status(500).json({ status: "error", message: GENERIC_NODE_ERROR });
    }
  };
}
