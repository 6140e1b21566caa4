/**
 * GET /api/v1/trx/account/{address}/balance and /assets (one handler, byte-identical answers):
 * `{address, balance, trc10, trc20, trc20_tokens}` (spec, "Tron account balances").
 *
 * Node calls per request: one getaccount, one triggerconstantcontract balanceOf per whitelisted
 * TRC-20 (concurrently, alongside getaccount), and getassetissuebyid only for TRC-10 ids not yet in
 * the metadata cache (immutable, so a warm cache makes none).
 */
import { nodeFailureResponse } from "@chaingate/chain-proxy";
import { abortOnClose } from "@chaingate/http";
import { JsonNumber, stringifyLosslessJson, tron } from "@chaingate/node-client";
import type { RequestHandler } from "express";
import { formatUnits } from "@chaingate/decimal-amount";
import { parseTronAddress } from "@chaingate/tron";
import { trc10Holdings } from "../domain/trc10-holdings.ts";
import { bigintOf, getAccount, Trc20ReadError, trc20BalanceOf } from "../infra/tron-wallet.ts";
import { INVALID_ARGUMENT } from "./trx-errors.ts";
import { sendJsonText, type TrxRoute } from "./trx-route.ts";

export function getAccountBalance({ node, logger, whitelist, trc10 }: TrxRoute): RequestHandler {
  return async (req, res) => {
    const address = parseTronAddress(String(req.params.address));
    if (!address) {
      res.status(INVALID_ARGUMENT.status).json(INVALID_ARGUMENT.body);
      return;
    }
    const signal = abortOnClose(res);
    const trc20Reads = Promise.all(whitelist.map((token) => trc20BalanceOf(node, token, address, signal)));
    // Settled before anything throws, so no read is left rejecting unobserved.
    const [account, trc20Balances] = await Promise.allSettled([getAccount(node, address, signal), trc20Reads]);
    if (account.status === "rejected") throw account.reason;
    if (trc20Balances.status === "rejected") {
      if (!(trc20Balances.reason instanceof Trc20ReadError)) throw trc20Balances.reason;
      logger.warn({ err: trc20Balances.reason }, "a whitelisted TRC-20 balanceOf failed");
      const { status, body } = nodeFailureResponse(tron, "node_error", { node_message: trc20Balances.reason.message });
      res.status(status).json(body);
      return;
    }

    const assetV2 = Array.isArray(account.value.assetV2) ? (account.value.assetV2 as Array<{ key?: unknown; value?: unknown }>) : [];
    const balances = assetV2.flatMap((entry) => (typeof entry.key === "string" ? [{ id: entry.key, amount: bigintOf(entry.value) }] : []));
    const held = balances.filter((balance) => balance.amount > 0n);
    const holdings = trc10Holdings(
      held,
      await trc10.getMany(
        held.map((balance) => balance.id),
        signal,
      ),
    );

    const trc20: Record<string, string> = {};
    const trc20Tokens: Record<string, { contract: string; name: string; decimals: number; balance_raw: string; balance: string }> = {};
    whitelist.forEach((token, index) => {
      const raw = trc20Balances.value[index]!;
      trc20[token.contract] = raw.toString();
      trc20Tokens[token.symbol] = {
        contract: token.contract,
        name: token.name,
        decimals: token.decimals,
        balance_raw: raw.toString(),
        balance: formatUnits(raw, token.decimals),
      };
    });

    const body = {
      address: address.base58,
      balance: new JsonNumber(bigintOf(account.value.balance).toString()),
      trc10:
        holdings.size === 0
          ? []
          : Object.fromEntries(
              [...holdings].map(([symbol, { name, id, amount }]) => [symbol, { name, id, balance: new JsonNumber(amount.toString()) }]),
            ),
      trc20,
      trc20_tokens: trc20Tokens,
    };
    sendJsonText(res, 200, stringifyLosslessJson(body));
  };
}
