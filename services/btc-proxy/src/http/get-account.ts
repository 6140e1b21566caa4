/**
 * GET /api/v1/btc/account: addresses of the node's own wallet (listreceivedbyaddress). A node
 * without a wallet (the production case) answers []. Not a way to list the caller's addresses.
 */
import type { RequestHandler } from "express";
import type { BitcoinRpcClient } from "../infra/bitcoin-rpc-client.ts";
import { hasErrorCode } from "@chaingate/errors";
import type { BitcoinNodeRpcError } from "../infra/bitcoin-rpc-errors.ts";

/** -18 no wallet loaded, -19 wallet not specified, -32601 wallet support compiled out or disabled. */
const NO_WALLET_CODES = new Set([-18, -19, -32601]);
const BOOLEAN_VALUES: Record<string, boolean> = { true: true, false: false, "1": true, "0": false };
const INT32_MAX = 0x7fffffff;
/** listreceivedbyaddress's own default. */
const DEFAULT_MINCONF = 1;

interface ReceivedByAddress {
  address: string;
  amount: number;
  confirmations: number;
  label: string;
  txids: string[];
}

export function getAccount(node: BitcoinRpcClient): RequestHandler {
  return async (req, res) => {
    const query = req.query as Record<string, string | undefined>;
    const minconf = Number(query.minconf ?? DEFAULT_MINCONF);
    // Digits only: rejects "-1", "1.5", "1e3", " 1" and "" alike.
    if (!/^\d+$/.test(query.minconf ?? String(DEFAULT_MINCONF)) || minconf > INT32_MAX) {
      res.status(400).json({ error: "The minconf must be a non-negative integer." });
      return;
    }
    const flags: boolean[] = [];
    for (const name of ["includeEmpty", "includeWatchOnly"] as const) {
      const value = query[name] === undefined ? false : BOOLEAN_VALUES[query[name]!];
      if (value === undefined) {
        res.status(400).json({ error: `The ${name} parameter must be true or false.` });
        return;
      }
      flags.push(value);
    }
    try {
      const rows = await node.call<ReceivedByAddress[]>("listreceivedbyaddress", [minconf, ...flags]);
      res.json(rows.map(({ address, amount, confirmations, label, txids }) => ({ address, amount, confirmations, label, txids })));
    } catch (error) {
      if (hasErrorCode(error, "btc_node_rpc_error") && NO_WALLET_CODES.has((error as BitcoinNodeRpcError).rpcCode)) {
        res.json([]);
        return;
      }
      throw error;
    }
  };
}
