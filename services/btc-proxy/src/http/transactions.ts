/**
 * Transactions:
 *   POST /api/v1/btc/transactions/send-raw          {hex} → {txid} (sendrawtransaction)
 *   GET  /api/v1/btc/transactions/{txid}            verbose transaction (getrawtransaction, streamed)
 *   GET  /api/v1/btc/transactions/{txid}/outputs/{n}  {unspent, output} (gettxout, mempool included)
 */
import { btcSendRawRequestSchema } from "@chaingate/contracts";
import { parseRequest } from "@chaingate/http";
import type { RequestHandler } from "express";
import type { BitcoinRpcClient } from "../infra/bitcoin-rpc-client.ts";
import { streamNodeResult } from "./stream-node-result.ts";

export function sendRawTransaction(node: BitcoinRpcClient): RequestHandler {
  return async (req, res) => {
    const { hex } = parseRequest(btcSendRawRequestSchema, req.body);
    const txid = await node.call<string>("sendrawtransaction", [hex]);
    res.json({ txid });
  };
}

export function getTransaction(node: BitcoinRpcClient): RequestHandler {
  return (req, res) => streamNodeResult(node, res, "getrawtransaction", [String(req.params.txid), true]);
}

export function getTransactionOutput(node: BitcoinRpcClient): RequestHandler {
  return async (req, res) => {
    const n = String(req.params.n);
    const output = await node.call<Record<string, unknown> | null>("gettxout", [String(req.params.txid), Number(n), true]);
    // null means spent or never existed: the node does not tell which.
    res.json({ unspent: output !== null, output });
  };
}
