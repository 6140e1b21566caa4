/**
 * GET /api/v1/trx/account/{address}: java-tron's `/wallet/getaccount` record passed through as the
 * node prints it by default (hex addresses, hex names, int64 numbers exact, zero fields omitted,
 * `latest_opration_time` as spelled upstream); `[]` for an address never seen (the node's `{}`).
 */
import { abortOnClose } from "@chaingate/http";
import { stringifyLosslessJson } from "@chaingate/node-client";
import type { RequestHandler } from "express";
import { parseTronAddress } from "@chaingate/tron";
import { getAccount } from "../infra/tron-wallet.ts";
import { INVALID_ARGUMENT } from "./trx-errors.ts";
import { sendJsonText, type TrxRoute } from "./trx-route.ts";

export function getAccountRecord({ node }: TrxRoute): RequestHandler {
  return async (req, res) => {
    const address = parseTronAddress(String(req.params.address));
    if (!address) {
      res.status(INVALID_ARGUMENT.status).json(INVALID_ARGUMENT.body);
      return;
    }
    const record = await getAccount(node, address, abortOnClose(res));
    if (Object.keys(record).length === 0) {
      res.json([]);
      return;
    }
    sendJsonText(res, 200, stringifyLosslessJson(record));
  };
}
