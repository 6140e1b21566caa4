/**
 * Accounts:
 *   GET  /api/v1/eth/account                          eth_accounts (the node's key store)
 *   GET  /api/v1/eth/account/{address}/nonce?block=   eth_getTransactionCount
 *   GET  /api/v1/eth/account/{address}/balance?block= eth_getBalance
 *   POST /api/v1/eth/account/estimate-gas             eth_estimateGas
 *   POST /api/v1/eth/account/send                     eth_sendTransaction (an unlocked node account)
 */
import { ethEstimateGasRequestSchema, ethSendTransactionRequestSchema } from "@chaingate/contracts";
import { abortOnClose, parseRequest, strictQuery } from "@chaingate/http";
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

export function estimateGas({ node }: ProxyRoute): RequestHandler {
  return async (req, res) => {
    const { transaction, block } = parseRequest(ethEstimateGasRequestSchema, req.body);
    const gas = await node.call<string>("eth_estimateGas", [transaction, block ?? "latest"], { signal: abortOnClose(res) });
    res.json({ gas });
  };
}

export function sendTransaction({ node }: ProxyRoute): RequestHandler {
  return async (req, res) => {
    const { transaction } = parseRequest(ethSendTransactionRequestSchema, req.body);
    // Not cancelled when the client leaves: a send half-done is worse than one finished.
    const transactionHash = await node.call<string>("eth_sendTransaction", [transaction]);
    res.json({ transactionHash });
  };
}
