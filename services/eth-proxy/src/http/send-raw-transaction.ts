/**
 * POST /api/v1/eth/transactions/send-raw   {hex} → {transactionHash} (eth_sendRawTransaction)
 */
import { ethSendRawRequestSchema } from "@chaingate/contracts";
import { parseRequest } from "@chaingate/http";
import type { RequestHandler } from "express";
import type { ProxyRoute } from "@chaingate/chain-proxy";

export function sendRawTransaction({ node }: ProxyRoute): RequestHandler {
  return async (req, res) => {
    const { hex } = parseRequest(ethSendRawRequestSchema, req.body);
    // Not cancelled when the client leaves: a broadcast half-sent is worse than one finished.
    const transactionHash = await node.call<string>("eth_sendRawTransaction", [hex]);
    res.json({ transactionHash });
  };
}
