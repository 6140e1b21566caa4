/**
 * Transactions:
 *   POST /api/v1/eth/transactions/send-raw          {hex} → {transactionHash} (eth_sendRawTransaction)
 *   GET  /api/v1/eth/transactions/{hash}            eth_getTransactionByHash, the node's object
 *   GET  /api/v1/eth/transactions/{hash}/receipt    eth_getTransactionReceipt, the node's object
 * An unknown hash (or a receipt not mined yet) is not_found.
 */
import { ethSendRawRequestSchema } from "@chaingate/contracts";
import { parseRequest } from "@chaingate/http";
import type { RequestHandler } from "express";
import type { NodeRoute } from "./node-route.ts";
import { hashParameter } from "./parameters.ts";
import { streamNodeObject } from "./stream-node-object.ts";

export function sendRawTransaction({ node }: NodeRoute): RequestHandler {
  return async (req, res) => {
    const { hex } = parseRequest(ethSendRawRequestSchema, req.body);
    // Not cancelled when the client leaves: a broadcast half-sent is worse than one finished.
    const transactionHash = await node.call<string>("eth_sendRawTransaction", [hex]);
    res.json({ transactionHash });
  };
}

export function getTransaction(route: NodeRoute): RequestHandler {
  return async (req, res) => {
    const hash = hashParameter(req.params.transactionHash, "transaction hash");
    await streamNodeObject({ ...route, garbageBound: undefined }, res, "eth_getTransactionByHash", [hash], `transaction ${hash}`);
  };
}

export function getReceipt(route: NodeRoute): RequestHandler {
  return async (req, res) => {
    const hash = hashParameter(req.params.transactionHash, "transaction hash");
    await streamNodeObject({ ...route, garbageBound: undefined }, res, "eth_getTransactionReceipt", [hash], `receipt of ${hash}`);
  };
}
