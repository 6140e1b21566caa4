/**
 * The ERC-20 tokens whose Transfer logs the scanner reports (to webhooks with include_tokens):
 * mainnet USDT and USDC by default (Etherscan), replaced as a whole by ETH_TOKENS.
 */
import { env } from "@chaingate/config";
import { z } from "zod";
import { normalizeEthereumAddress } from "./ethereum-address.ts";

export interface Erc20Token {
  symbol: string;
  /** 0x + 40 hex, lower case. */
  contract: string;
  decimals: number;
}

/** Mainnet USDT and USDC, in ETH_TOKENS' notation. */
export const DEFAULT_ERC20_WHITELIST = JSON.stringify([
  { contract: "0xdac17f958d2ee523a2206206994597c13d831ec7", symbol: "USDT", decimals: 6 },
  { contract: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", symbol: "USDC", decimals: 6 },
]);

const ERC20_NOTATION = "{contract, symbol, decimals} (name optional)";
const entrySchema = z.object({
  contract: z.string().refine((value) => normalizeEthereumAddress(value) !== null, "must be an Ethereum address"),
  symbol: z.string().min(1),
  name: z.string().min(1).optional(),
  decimals: z.number().int().min(0).max(77),
});

/**
 * The whitelist as ETH_TOKENS sets it: a JSON array of {contract, symbol, decimals} (the notation
 * of TRC20_WHITELIST, `name` optional), or the older `SYMBOL:contract:decimals` comma-separated
 * list, still accepted so an upgrade never changes what is notified. Symbols and contracts unique.
 */
export const erc20WhitelistSchema = z
  .string()
  .default(DEFAULT_ERC20_WHITELIST)
  .transform((value, context) => {
    const result = value.trimStart().startsWith("[") ? parseJsonList(value) : parseColonList(value);
    if (!result.ok) {
      context.addIssue({ code: "custom", message: result.message });
      return z.NEVER;
    }
    return result.tokens;
  });

type ParsedList = { ok: true; tokens: Erc20Token[] } | { ok: false; message: string };

function parseJsonList(value: string): ParsedList {
  const result = env.parseJsonArraySetting(value, entrySchema, ERC20_NOTATION, [
    (entry) => entry.symbol,
    (entry) => normalizeEthereumAddress(entry.contract),
  ]);
  if (!result.ok) return result;
  return {
    ok: true,
    tokens: result.entries.map(({ symbol, contract, decimals }) => ({ symbol, contract: normalizeEthereumAddress(contract)!, decimals })),
  };
}

function parseColonList(value: string): ParsedList {
  const tokens: Erc20Token[] = [];
  for (const entry of value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [symbol, contract, decimals] = entry.split(":");
    if (!symbol || !contract || !/^\d{1,2}$/.test(decimals ?? "")) {
      return {
        ok: false,
        message: `entries are SYMBOL:contract:decimals, or a JSON array of ${ERC20_NOTATION} (got ${JSON.stringify(entry)})`,
      };
    }
    const address = normalizeEthereumAddress(contract);
    if (!address) return { ok: false, message: `${contract} is not an Ethereum address` };
    tokens.push({ symbol, contract: address, decimals: Number(decimals) });
  }
  const unique = env.allUniqueBy(tokens, [(token) => token.symbol, (token) => token.contract]);
  return unique ? { ok: true, tokens } : { ok: false, message: "symbols and contracts must be unique" };
}

/** Spread into a service's config schema. */
export const erc20WhitelistSettings = () => ({
  ETH_TOKENS: erc20WhitelistSchema.describe(
    "ERC-20 whitelist (reported only to webhooks with include_tokens; currency = the symbol): a JSON array of {contract, symbol, decimals}, the notation of TRC20_WHITELIST (name optional); the older `SYMBOL:contract:decimals` comma-separated list is still accepted. Unset: mainnet USDT, USDC.",
  ),
});
