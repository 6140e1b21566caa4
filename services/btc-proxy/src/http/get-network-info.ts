/**
 * Network reads an integrator needs besides blocks:
 *   GET /api/v1/btc/fee-estimate?blocks=6&mode=economical  estimatesmartfee, in BTC/kvB and sat/vB
 *   GET /api/v1/btc/mempool                                getmempoolinfo
 */
import { btcFeeEstimateQuerySchema } from "@chaingate/contracts";
import { abortOnClose, parseRequest, strictQuery } from "@chaingate/http";
import type { RequestHandler } from "express";
import type { NodeRoute } from "./stream-node-result.ts";

const SATOSHI_PER_BTC = 100_000_000;
const VBYTES_PER_KVB = 1_000;

export function getFeeEstimate({ node }: NodeRoute): RequestHandler {
  return async (req, res) => {
    const { blocks, mode } = parseRequest(btcFeeEstimateQuerySchema, { ...strictQuery(req.query, ["blocks", "mode"]) });
    const estimate = await node.call<{ feerate?: number; blocks: number; errors?: string[] }>("estimatesmartfee", [blocks, mode.toUpperCase()], {
      signal: abortOnClose(res),
    });
    // feerate is BTC per kvB as a JSON double; whole satoshis per kvB are exact, then /1000.
    const satPerKvb = estimate.feerate === undefined ? null : Math.round(estimate.feerate * SATOSHI_PER_BTC);
    res.json({
      blocks: estimate.blocks,
      feerate_btc_per_kvb: estimate.feerate ?? null,
      feerate_sat_per_vb: satPerKvb === null ? null : satPerKvb / VBYTES_PER_KVB,
      errors: estimate.errors ?? [],
    });
  };
}

export function getMempoolInfo({ node }: NodeRoute): RequestHandler {
  return async (_req, res) => {
    res.json(await node.call("getmempoolinfo", [], { signal: abortOnClose(res) }));
  };
}
