/**
 * Blocks, streamed from the node to the client (with full transactions they are megabytes):
 *   GET /api/v1/eth/block/{block}?fullTransactions=      eth_getBlockByNumber (decimal, QUANTITY or tag)
 *   GET /api/v1/eth/block/hash/{hash}?fullTransactions=  eth_getBlockByHash
 * `transactions` holds hashes unless fullTransactions=true. A block the node lacks is not_found.
 */
import { strictQuery } from "@chaingate/http";
import type { Request, RequestHandler } from "express";
import type { NodeRoute } from "./node-route.ts";
import { blockPathParameter, booleanParameter, hashParameter } from "./parameters.ts";
import { streamNodeObject } from "./stream-node-object.ts";

const fullTransactions = (req: Request) => booleanParameter(strictQuery(req.query, ["fullTransactions"]).fullTransactions, "fullTransactions", false);

export function getBlockByNumber(route: NodeRoute): RequestHandler {
  return async (req, res) => {
    const block = blockPathParameter(req.params.block);
    await streamNodeObject(route, res, "eth_getBlockByNumber", [block, fullTransactions(req)], `block ${block}`);
  };
}

export function getBlockByHash(route: NodeRoute): RequestHandler {
  return async (req, res) => {
    const hash = hashParameter(req.params.blockHash, "block hash");
    await streamNodeObject(route, res, "eth_getBlockByHash", [hash, fullTransactions(req)], `block ${hash}`);
  };
}
