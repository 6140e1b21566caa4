/**
 * GET /api/v1/trx/health: the node's head and solidified blocks (getblock without transactions on
 * /wallet and /walletsolidity), so a client can tell an outage from the generic 500 of the other
 * endpoints. `head_age_seconds` shows a node that stopped syncing (mainnet: a block every 3 s).
 */
import { abortOnClose } from "@chaingate/http";
import { nodeFailureDetails } from "@chaingate/node-client";
import type { RequestHandler } from "express";
import { GENERIC_NODE_ERROR } from "./node-error-response.ts";
import type { TrxRoute } from "./trx-route.ts";

interface BlockHeader {
  block_header?: { raw_data?: { number?: number; timestamp?: number } };
}

export function getHealth({ node }: TrxRoute): RequestHandler {
  return async (_req, res) => {
    const signal = abortOnClose(res);
    let head: BlockHeader;
    let solid: BlockHeader;
    try {
      [head, solid] = await Promise.all([
        node.request<BlockHeader>("/wallet/getblock", { body: { detail: false }, signal }),
        node.request<BlockHeader>("/walletsolidity/getblock", { body: { detail: false }, signal }),
      ]);
    } catch (error) {
      // A node failure is what this endpoint reports, in the health shape (spec, Errors).
      if (nodeFailureDetails(error) === undefined) throw error;
      res.status(500).json({ status: "error", message: GENERIC_NODE_ERROR });
      return;
    }
    const headRaw = head.block_header?.raw_data;
    const now = Date.now();
    res.json({
      status: "ok",
      time: new Date(now).toISOString(),
      block: headRaw?.number ?? 0,
      block_time: headRaw?.timestamp === undefined ? null : new Date(headRaw.timestamp).toISOString(),
      head_age_seconds: headRaw?.timestamp === undefined ? null : Math.max(0, Math.round((now - headRaw.timestamp) / 1000)),
      solidified_block: solid.block_header?.raw_data?.number ?? 0,
    });
  };
}
