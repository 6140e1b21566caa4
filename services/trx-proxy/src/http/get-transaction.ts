/**
 * GET /api/v1/trx/transactions/{hash}: a transaction with its execution result, for confirming the
 * create → sign → broadcast flow. One call each to gettransactionbyid and gettransactioninfobyid
 * (full node) and gettransactioninfobyid on /walletsolidity (confirmed = solidified), concurrently;
 * gettransactionfrompending only for a hash in no block.
 *
 * `status`: `pending` (in the node's pool, no block yet), `unconfirmed` (in a block not yet
 * solidified: a reorganisation may still drop it), `confirmed` (solidified). An unknown hash is the
 * spec's 500 with details.reason not_found; one that is not 64 hex digits, invalid_argument.
 */
import { nodeFailureResponse } from "@chaingate/chain-proxy";
import { abortOnClose } from "@chaingate/http";
import { JsonNumber, stringifyLosslessJson, tron } from "@chaingate/node-client";
import type { RequestHandler } from "express";
import { bigintOf, utf8FromHex, type LosslessRecord } from "../infra/tron-wallet.ts";
import { INVALID_ARGUMENT } from "./trx-errors.ts";
import { sendJsonText, type TrxRoute } from "./trx-route.ts";

const TRANSACTION_HASH = /^(0x)?[0-9a-fA-F]{64}$/;

export function getTransaction({ node }: TrxRoute): RequestHandler {
  return async (req, res) => {
    const raw = String(req.params.hash);
    if (!TRANSACTION_HASH.test(raw)) {
      res.status(INVALID_ARGUMENT.status).json(INVALID_ARGUMENT.body);
      return;
    }
    const hash = raw.replace(/^0x/, "").toLowerCase();
    const signal = abortOnClose(res);
    const read = (path: string) => node.request<LosslessRecord>(path, { body: { value: hash }, signal, lossless: true });
    const [transaction, info, solidInfo] = await Promise.all([
      read("/wallet/gettransactionbyid"),
      read("/wallet/gettransactioninfobyid"),
      read("/walletsolidity/gettransactioninfobyid"),
    ]);

    if (isEmpty(transaction)) {
      const pending = await read("/wallet/gettransactionfrompending");
      if (isEmpty(pending)) {
        const { status, body } = nodeFailureResponse(tron, "not_found");
        res.status(status).json(body);
        return;
      }
      sendJsonText(
        res,
        200,
        stringifyLosslessJson({
          txID: hash,
          status: "pending",
          confirmed: false,
          block_number: null,
          block_timestamp: null,
          contractRet: null,
          fee: 0,
          receipt: null,
          transaction: pending,
        }),
      );
      return;
    }
    const ret = (transaction.ret as Array<{ contractRet?: string }> | undefined)?.[0];
    const inBlock = !isEmpty(info);
    const confirmed = !isEmpty(solidInfo);
    const body = {
      txID: hash,
      status: confirmed ? "confirmed" : "unconfirmed",
      confirmed,
      block_number: inBlock ? (info.blockNumber ?? null) : null,
      block_timestamp: inBlock ? (info.blockTimeStamp ?? null) : null,
      contractRet: ret?.contractRet ?? null,
      fee: new JsonNumber(bigintOf(info.fee).toString()),
      receipt: info.receipt ?? null,
      // Present only when execution failed (java-tron omits result on success); decoded from hex.
      result: info.result ?? null,
      res_message: typeof info.resMessage === "string" ? utf8FromHex(info.resMessage) : null,
      transaction,
      info: inBlock ? info : null,
    };
    sendJsonText(res, 200, stringifyLosslessJson(body));
  };
}

function isEmpty(record: LosslessRecord): boolean {
  return Object.keys(record).length === 0;
}
