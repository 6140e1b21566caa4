/**
 * GET /api/v1/btc/account: addresses of the node's own wallet (listreceivedbyaddress). A node
 * without a wallet (the production case) answers []. Not a way to list the caller's addresses.
 * Amounts pass through as the node wrote them (`0.00000050`, never `5e-7`).
 */
import { abortOnClose, QueryParameterError, strictQuery } from "@chaingate/http";
import { bitcoin, nodeErrorCodes, stringifyLosslessJson, type JsonNumber, type NodeRpcError } from "@chaingate/node-client";
import { hasErrorCode } from "@chaingate/errors";
import type { RequestHandler } from "express";
import type { ProxyRoute } from "@chaingate/chain-proxy";

/** -18 no wallet loaded, -19 wallet not specified, -32601 wallet support compiled out or disabled. */
const NO_WALLET_CODES = new Set([-18, -19, -32601]);
const BOOLEAN_VALUES = new Map([
  ["true", true],
  ["false", false],
  ["1", true],
  ["0", false],
]);
const INT32_MAX = 0x7fffffff;
/** listreceivedbyaddress's own default. */
const DEFAULT_MINCONF = "1";
const PARAMETERS = ["minconf", "includeEmpty", "includeWatchOnly"] as const;
const BAD_VALUE: Record<(typeof PARAMETERS)[number], string> = {
  minconf: "The minconf must be a non-negative integer.",
  includeEmpty: "The includeEmpty parameter must be true or false.",
  includeWatchOnly: "The includeWatchOnly parameter must be true or false.",
};
const RPC_ERROR = nodeErrorCodes(bitcoin.id).rpcError;

interface ReceivedByAddress {
  address: string;
  amount: JsonNumber;
  confirmations: JsonNumber;
  label: string;
  txids: string[];
}

export function getAccount({ node }: ProxyRoute): RequestHandler {
  return async (req, res) => {
    let query: Partial<Record<(typeof PARAMETERS)[number], string>>;
    try {
      query = strictQuery(req.query, PARAMETERS);
    } catch (error) {
      if (!(error instanceof QueryParameterError)) throw error;
      res.status(400).json({ error: BAD_VALUE[error.parameter as (typeof PARAMETERS)[number]] });
      return;
    }
    const minconf = query.minconf ?? DEFAULT_MINCONF;
    // Digits only: rejects "-1", "1.5", "1e3", " 1" and "" alike.
    if (!/^\d+$/.test(minconf) || Number(minconf) > INT32_MAX) {
      res.status(400).json({ error: BAD_VALUE.minconf });
      return;
    }
    const flags: boolean[] = [];
    for (const name of ["includeEmpty", "includeWatchOnly"] as const) {
      const value = query[name] === undefined ? false : BOOLEAN_VALUES.get(query[name]);
      if (value === undefined) {
        res.status(400).json({ error: BAD_VALUE[name] });
        return;
      }
      flags.push(value);
    }
    try {
      const rows = await node.call<ReceivedByAddress[]>("listreceivedbyaddress", [Number(minconf), ...flags], {
        signal: abortOnClose(res),
        lossless: true,
      });
      const picked = rows.map(({ address, amount, confirmations, label, txids }) => ({ address, amount, confirmations, label, txids }));
      res.type("application/json").send(stringifyLosslessJson(picked));
    } catch (error) {
      if (hasErrorCode(error, RPC_ERROR) && NO_WALLET_CODES.has((error as NodeRpcError).rpcCode)) {
        res.json([]);
        return;
      }
      throw error;
    }
  };
}
