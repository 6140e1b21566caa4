/**
 * Transaction reads:
 *   GET  /api/v1/eth/transactions/{hash}            eth_getTransactionByHash, the node's object
 *   GET  /api/v1/eth/transactions/{hash}/receipt    eth_getTransactionReceipt, the node's object
 * An unknown hash (or a receipt not mined yet) is not_found.
 */
import type { RequestHandler } from "express";
import { streamNodeResult, type ProxyRoute } from "@chaingate/chain-proxy";
import { hashParameter } from "./parameters.ts";
import { EthNotFoundError } from "./request-errors.ts";

export function getTransaction(route: ProxyRoute): RequestHandler {
  return async (req, res) => {
    const hash = hashParameter(req.params.transactionHash, "transaction hash");
    await streamNodeResult({ ...route, garbageBound: undefined }, res, "eth_getTransactionByHash", [hash], {
      whenNull: () => new EthNotFoundError(route.node.chain, `transaction ${hash}`),
    });
  };
}

export function getReceipt(route: ProxyRoute): RequestHandler {
  return async (req, res) => {
    const hash = hashParameter(req.params.transactionHash, "transaction hash");
    await streamNodeResult({ ...route, garbageBound: undefined }, res, "eth_getTransactionReceipt", [hash], {
      whenNull: () => new EthNotFoundError(route.node.chain, `receipt of ${hash}`),
    });
  };
}
