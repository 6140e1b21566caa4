/**
 * Blocks, streamed from the node to the client (with full transactions they are megabytes):
 *   GET /api/v1/eth/block/{block}?fullTransactions=      eth_getBlockByNumber (decimal, QUANTITY or tag)
 *   GET /api/v1/eth/block/hash/{hash}?fullTransactions=  eth_getBlockByHash
 * `transactions` holds hashes unless fullTransactions=true. A block the node lacks is not_found.
 */
import { strictQuery } from "@chaingate/http";
import type { Request, RequestHandler } from "express";
import { streamNodeResult, type ProxyRoute } from "@chaingate/chain-proxy";
import { blockPathParameter, booleanParameter, hashParameter } from "./parameters.ts";
import { EthNotFoundError } from "./request-errors.ts";

const fullTransactions = (req: Request) =>
  booleanParameter(strictQuery(req.query, ["fullTransactions"]).fullTransactions, "fullTransactions", false);

export function getBlockByNumber(route: ProxyRoute): RequestHandler {
  return async (req, res) => {
    const block = blockPathParameter(req.params.block);
    await streamNodeResult(route, res, "eth_getBlockByNumber", [block, fullTransactions(req)], {
      whenNull: () => new EthNotFoundError(route.node.chain, `block ${block}`),
    });
  };
}

export function getBlockByHash(route: ProxyRoute): RequestHandler {
  return async (req, res) => {
    const hash = hashParameter(req.params.blockHash, "block hash");
    await streamNodeResult(route, res, "eth_getBlockByHash", [hash, fullTransactions(req)], {
      whenNull: () => new EthNotFoundError(route.node.chain, `block ${hash}`),
    });
  };
}
