/**
 * POST /api/v1/btc/transactions/send-raw   {hex} → {txid} (sendrawtransaction)
 */
import { btcSendRawRequestSchema } from "@chaingate/contracts";
import { parseRequest } from "@chaingate/http";
import type { RequestHandler } from "express";
import type { ProxyRoute } from "@chaingate/chain-proxy";

export function sendRawTransaction({ node }: ProxyRoute): RequestHandler {
  return async (req, res) => {
    const { hex } = parseRequest(btcSendRawRequestSchema, req.body);
    // Not cancelled when the client leaves: a broadcast half-sent is worse than one finished.
    const txid = await node.call<string>("sendrawtransaction", [hex]);
    res.json({ txid });
  };
}
