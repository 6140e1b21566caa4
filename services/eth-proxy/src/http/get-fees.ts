/**
 * Fees:
 *   GET /api/v1/eth/gas-price                                             {gasPrice} (eth_gasPrice)
 *   GET /api/v1/eth/fee-history?blockCount=&newestBlock=&rewardPercentiles=  eth_feeHistory, the node's object
 */
import { abortOnClose, strictQuery } from "@chaingate/http";
import type { RequestHandler } from "express";
import { streamNodeResult, type ProxyRoute } from "@chaingate/chain-proxy";
import { blockParameter } from "./parameters.ts";
import { EthBadParameterError, EthNotFoundError } from "./request-errors.ts";

const DEFAULT_BLOCK_COUNT = 10;
/** geth's and erigon's own cap. */
const MAX_BLOCK_COUNT = 1024;
const MAX_PERCENTILES = 100;

export function getGasPrice({ node }: ProxyRoute): RequestHandler {
  return async (_req, res) => {
    res.json({ gasPrice: await node.call<string>("eth_gasPrice", [], { signal: abortOnClose(res) }) });
  };
}

export function getFeeHistory(route: ProxyRoute): RequestHandler {
  return async (req, res) => {
    const query = strictQuery(req.query, ["blockCount", "newestBlock", "rewardPercentiles"]);
    const blockCount =
      query.blockCount === undefined ? DEFAULT_BLOCK_COUNT : /^\d{1,4}$/.test(query.blockCount) ? Number(query.blockCount) : NaN;
    if (!(blockCount >= 1 && blockCount <= MAX_BLOCK_COUNT))
      throw new EthBadParameterError(`The blockCount parameter must be an integer from 1 to ${MAX_BLOCK_COUNT}.`);
    const newestBlock = blockParameter(query.newestBlock, "newestBlock");
    const percentiles = parsePercentiles(query.rewardPercentiles);
    await streamNodeResult(
      { ...route, garbageBound: undefined },
      res,
      "eth_feeHistory",
      [`0x${blockCount.toString(16)}`, newestBlock, percentiles],
      { whenNull: () => new EthNotFoundError(route.node.chain, "fee history") },
    );
  };
}

function parsePercentiles(raw: string | undefined): number[] {
  if (raw === undefined || raw === "") return [];
  const values = raw.split(",").map((part) => (/^\d{1,3}(\.\d{1,4})?$/.test(part) ? Number(part) : NaN));
  const increasing = values.every((value, i) => value >= 0 && value <= 100 && (i === 0 || value >= values[i - 1]!));
  if (!increasing || values.length > MAX_PERCENTILES)
    throw new EthBadParameterError("The rewardPercentiles parameter must be comma-separated, non-decreasing numbers from 0 to 100.");
  return values;
}
