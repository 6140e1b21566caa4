/**
 * Network reads an integrator needs besides blocks:
 *   GET /api/v1/btc/fee-estimate?blocks=6&mode=economical  estimatesmartfee, in BTC/kvB and sat/vB
 *   GET /api/v1/btc/mempool                                getmempoolinfo
 */
import { btcFeeEstimateQuerySchema } from "@chaingate/contracts";
import { abortOnClose, parseRequest, strictQuery } from "@chaingate/http";
import { BITCOIN_DECIMALS } from "@chaingate/bitcoin";
import type { RequestHandler } from "express";
import type { ProxyRoute } from "@chaingate/chain-proxy";

const SATOSHI_PER_BTC = 10 ** BITCOIN_DECIMALS;
const VBYTES_PER_KVB = 1_000;

export function getFeeEstimate({ node }: ProxyRoute): RequestHandler {
  return async (req, res) => {
    const { blocks, mode } = parseRequest(btcFeeEstimateQuerySchema, { ...strictQuery(req.query, ["blocks", "mode"]) });
    const estimate = await node.call<{ feerate?: number; blocks: number; errors?: string[] }>(
      "estimatesmartfee",
      [blocks, mode.toUpperCase()],
      {
        signal: abortOnClose(res),
      },
    );
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

export function getMempoolInfo({ node }: ProxyRoute): RequestHandler {
  return async (_req, res) => {
    res.json(await node.call("getmempoolinfo", [], { signal: abortOnClose(res) }));
  };
}
