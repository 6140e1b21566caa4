/**
 * POST /api/v1/eth/account/send   eth_sendTransaction (an unlocked node account)
 */
import { ethSendTransactionRequestSchema } from "@chaingate/contracts";
import { parseRequest } from "@chaingate/http";
import type { RequestHandler } from "express";
import type { ProxyRoute } from "@chaingate/chain-proxy";

export function sendTransaction({ node }: ProxyRoute): RequestHandler {
  return async (req, res) => {
    const { transaction } = parseRequest(ethSendTransactionRequestSchema, req.body);
    // Not cancelled when the client leaves: a send half-done is worse than one finished.
    const transactionHash = await node.call<string>("eth_sendTransaction", [transaction]);
    res.json({ transactionHash });
  };
}
