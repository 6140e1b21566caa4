/**
 * Account reads:
 *   GET  /api/v1/eth/account                          eth_accounts (the node's key store)
 *   GET  /api/v1/eth/account/{address}/nonce?block=   eth_getTransactionCount
 *   GET  /api/v1/eth/account/{address}/balance?block= eth_getBalance
 */
import { abortOnClose, strictQuery } from "@chaingate/http";
import type { RequestHandler } from "express";
import type { ProxyRoute } from "@chaingate/chain-proxy";
import { addressParameter, blockParameter } from "./parameters.ts";

export function getAccount({ node }: ProxyRoute): RequestHandler {
  return async (_req, res) => {
    res.json(await node.call<string[]>("eth_accounts", [], { signal: abortOnClose(res) }));
  };
}

export function getNonce({ node }: ProxyRoute): RequestHandler {
  return async (req, res) => {
    const address = addressParameter(req.params.address);
    const block = blockParameter(strictQuery(req.query, ["block"]).block);
    const transactionCount = await node.call<string>("eth_getTransactionCount", [address, block], { signal: abortOnClose(res) });
    res.json({ address, block, transactionCount });
  };
}

export function getBalance({ node }: ProxyRoute): RequestHandler {
  return async (req, res) => {
    const address = addressParameter(req.params.address);
    const block = blockParameter(strictQuery(req.query, ["block"]).block);
    const balance = await node.call<string>("eth_getBalance", [address, block], { signal: abortOnClose(res) });
    res.json({ address, block, balance });
  };
}
