/**
 * GET /api/v1/trx/account/{address}/balance and /assets (one handler, byte-identical answers):
 * `{address, balance, trc10, trc20, trc20_tokens}` (spec, "Tron account balances").
 *
 * Node calls per request: one getaccount, one triggerconstantcontract balanceOf per whitelisted
 * TRC-20 (concurrently, alongside getaccount), and getassetissuebyid only for TRC-10 ids not yet in
 * the metadata cache (immutable, so a warm cache makes none).
 */
import { abortOnClose } from "@chaingate/http";
import { JsonNumber, stringifyLosslessJson } from "@chaingate/node-client";
import type { RequestHandler } from "express";
import { formatUnits } from "../domain/decimal-amount.ts";
import { parseTronAddress } from "../domain/tron-address.ts";
import { bigintOf, getAccount, trc20BalanceOf } from "../infra/tron-wallet.ts";
import { INVALID_ARGUMENT, nodeFailure } from "./node-error-response.ts";
import { sendJsonText, type TrxRoute } from "./trx-route.ts";
import { Trc20ReadError } from "../infra/tron-wallet.ts";

interface Trc10Holding {
  name: string;
  id: string;
  balance: JsonNumber;
}

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
      const { status, body } = nodeFailure("node_error", { node_message: trc20Balances.reason.message });
      res.status(status).json(body);
      return;
    }

    const held = Array.isArray(account.value.assetV2) ? (account.value.assetV2 as Array<{ key?: string; value?: unknown }>) : [];
    const holdings = held.filter((entry) => typeof entry.key === "string" && bigintOf(entry.value) > 0n);
    const metadata = await trc10.getMany(
      holdings.map((entry) => entry.key!),
      signal,
    );
    const trc10Holdings = trc10View(holdings, metadata);

    const trc20: Record<string, string> = {};
    const trc20Tokens: Record<string, { contract: string; name: string; decimals: number; balance_raw: string; balance: string }> = {};
    whitelist.forEach((token, index) => {
      const raw = trc20Balances.value[index]!;
      trc20[token.contract] = raw.toString();
      trc20Tokens[token.symbol] = { contract: token.contract, name: token.name, decimals: token.decimals, balance_raw: raw.toString(), balance: formatUnits(raw, token.decimals) };
    });

    const body = {
      address: address.base58,
      balance: new JsonNumber(bigintOf(account.value.balance).toString()),
      trc10: trc10Holdings.size === 0 ? [] : Object.fromEntries(trc10Holdings),
      trc20,
      trc20_tokens: trc20Tokens,
    };
    sendJsonText(res, 200, stringifyLosslessJson(body));
  };
}

/**
 * Keyed by symbol, in ascending token id order. Symbols are not unique on Tron: the lowest id keeps
 * the bare symbol, a later token with the same one is keyed `<symbol>#<id>`; a token without a
 * symbol (or one the node does not know) is keyed by its id.
 */
function trc10View(holdings: ReadonlyArray<{ key?: string; value?: unknown }>, metadata: Map<string, { name: string; symbol: string }>): Map<string, Trc10Holding> {
  const view = new Map<string, Trc10Holding>();
  const sorted = [...holdings].sort((a, b) => compareIds(a.key!, b.key!));
  for (const entry of sorted) {
    const id = entry.key!;
    const token = metadata.get(id);
    const symbol = token?.symbol || id;
    const key = view.has(symbol) ? `${symbol}#${id}` : symbol;
    view.set(key, { name: token?.name ?? "", id, balance: new JsonNumber(bigintOf(entry.value).toString()) });
  }
  return view;
}

function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
