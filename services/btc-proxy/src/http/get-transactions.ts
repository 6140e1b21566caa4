/**
 * Transaction reads:
 *   GET  /api/v1/btc/transactions/{txid}            verbose transaction (getrawtransaction, streamed)
 *   GET  /api/v1/btc/transactions/{txid}/outputs/{n}  {unspent, output} (gettxout, mempool included)
 */
import { abortOnClose } from "@chaingate/http";
import { stringifyLosslessJson } from "@chaingate/node-client";
import type { RequestHandler } from "express";
import { streamNodeResult, type ProxyRoute } from "@chaingate/chain-proxy";

export function getTransaction(route: ProxyRoute): RequestHandler {
  return (req, res) => streamNodeResult({ ...route, garbageBound: undefined }, res, "getrawtransaction", [String(req.params.txid), true]);
}

export function getTransactionOutput({ node }: ProxyRoute): RequestHandler {
  return async (req, res) => {
    const n = String(req.params.n);
    const output = await node.call<Record<string, unknown> | null>("gettxout", [String(req.params.txid), Number(n), true], {
      signal: abortOnClose(res),
      lossless: true,
    });
    // null means spent or never existed: the node does not tell which. `value` as the node wrote it.
    res.type("application/json").send(stringifyLosslessJson({ unspent: output !== null, output }));
  };
}
