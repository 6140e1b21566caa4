/**
 * POST /api/v1/eth/account/estimate-gas   eth_estimateGas
 */
import { ethEstimateGasRequestSchema } from "@chaingate/contracts";
import { abortOnClose, parseRequest } from "@chaingate/http";
import type { RequestHandler } from "express";
import type { ProxyRoute } from "@chaingate/chain-proxy";

export function estimateGas({ node }: ProxyRoute): RequestHandler {
  return async (req, res) => {
    const { transaction, block } = parseRequest(ethEstimateGasRequestSchema, req.body);
    const gas = await node.call<string>("eth_estimateGas", [transaction, block ?? "latest"], { signal: abortOnClose(res) });
    res.json({ gas });
  };
}
