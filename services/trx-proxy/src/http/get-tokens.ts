/** GET /api/v1/trx/tokens/trc20: the configured whitelist, `{tokens: [{contract, contract_hex, symbol, name, decimals}]}`. */
import type { RequestHandler } from "express";
import type { TrxRoute } from "./trx-route.ts";

export function getTrc20Tokens({ whitelist }: TrxRoute): RequestHandler {
  const body = {
    tokens: whitelist.map((token) => ({
      contract: token.contract,
      contract_hex: token.contractHex,
      symbol: token.symbol,
      name: token.name,
      decimals: token.decimals,
    })),
  };
  return (_req, res) => {
    res.json(body);
  };
}
