/**
 * The ERC-20 tokens whose Transfer logs the scanner reports (to webhooks with include_tokens):
 * mainnet USDT and USDC by default (Etherscan), replaced as a whole by ETH_TOKENS.
 */
import { z } from "zod";
import { normalizeEthereumAddress } from "./ethereum-address.ts";

export interface Erc20Token {
  symbol: string;
  /** 0x + 40 hex, lower case. */
  contract: string;
  decimals: number;
}

/** Mainnet USDT and USDC, in ETH_TOKENS' own notation. */
export const DEFAULT_ERC20_WHITELIST =
  "USDT:0xdac17f958d2ee523a2206206994597c13d831ec7:6,USDC:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48:6";

/** `SYMBOL:contract:decimals` entries, comma-separated; a contract that is no Ethereum address stops the process. */
export const erc20WhitelistSchema = z
  .string()
  .default(DEFAULT_ERC20_WHITELIST)
  .transform((value, context) => {
    const tokens: Erc20Token[] = [];
    for (const entry of value
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean)) {
      const [symbol, contract, decimals] = entry.split(":");
      if (!symbol || !contract || !/^\d{1,2}$/.test(decimals ?? "")) {
        context.addIssue({ code: "custom", message: `entries are SYMBOL:contract:decimals (got ${JSON.stringify(entry)})` });
        return z.NEVER;
      }
      const address = normalizeEthereumAddress(contract);
      if (!address) {
        context.addIssue({ code: "custom", message: `${contract} is not an Ethereum address` });
        return z.NEVER;
      }
      tokens.push({ symbol, contract: address, decimals: Number(decimals) });
    }
    return tokens;
  });

/** Spread into a service's config schema. */
export const erc20WhitelistSettings = () => ({
  ETH_TOKENS: erc20WhitelistSchema.describe(
    "ERC-20 whitelist, `SYMBOL:contract:decimals` comma-separated (reported only to webhooks with include_tokens); unset: mainnet USDT, USDC.",
  ),
});
