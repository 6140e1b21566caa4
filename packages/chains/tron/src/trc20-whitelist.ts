/**
 * The one TRC-20 whitelist: the tokens whose balances the trx-proxy reports (/balance, and builds
 * transfers of) and whose transfers the scanner notifies. Mainnet's common tokens by default
 * (research §11: wallet-cli's aliases, TUSD from trustwallet/assets), replaced as a whole by
 * TRC20_WHITELIST, which both services read.
 */
import { env } from "@chaingate/config";
import { z } from "zod";
import { parseTronAddress } from "./tron-address.ts";

export interface Trc20Token {
  /** Base58Check contract address. */
  contract: string;
  /** The same, 21-byte hex. */
  contractHex: string;
  symbol: string;
  name: string;
  decimals: number;
}

/** Mainnet. The devnode runs USDT and USDD at these same addresses. */
export const DEFAULT_TRC20_WHITELIST: ReadonlyArray<Omit<Trc20Token, "contractHex">> = [
  { contract: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", symbol: "USDT", name: "Tether USD", decimals: 6 },
  { contract: "TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8", symbol: "USDC", name: "USD Coin", decimals: 6 },
  { contract: "TPYmHEhy5n8TCEfYGqW2rPxsghSfzghPDn", symbol: "USDD", name: "Decentralized USD", decimals: 18 },
  { contract: "TUpMhErZL2fhh4sVNULAbNKLokS4GjC1F4", symbol: "TUSD", name: "TrueUSD", decimals: 18 },
  { contract: "TNUC9Qb1rRpS5CbWLmNMxXBjyFoydXjWFR", symbol: "WTRX", name: "Wrapped TRX", decimals: 6 },
];

const TRC20_NOTATION = "{contract, symbol, name, decimals}";
const entrySchema = z.object({
  contract: z.string().refine((value) => parseTronAddress(value) !== undefined, "must be a Tron address"),
  symbol: z.string().min(1),
  name: z.string().min(1),
  decimals: z.number().int().min(0).max(77),
});

/** The whitelist as TRC20_WHITELIST sets it: a JSON array of {contract, symbol, name, decimals}; symbols and contracts unique. */
export const trc20WhitelistSchema = z
  .string()
  .optional()
  .transform((value, context) => {
    if (value === undefined) return DEFAULT_TRC20_WHITELIST.map(withHex);
    const result = env.parseJsonArraySetting(value, entrySchema, TRC20_NOTATION, [
      (entry) => entry.symbol,
      (entry) => parseTronAddress(entry.contract)!.hex,
    ]);
    if (!result.ok) {
      context.addIssue({ code: "custom", message: result.message });
      return z.NEVER;
    }
    return result.entries.map((entry) => withHex({ ...entry, contract: parseTronAddress(entry.contract)!.base58 }));
  });

/** Spread into a service's config schema: the one setting both the trx-proxy and the scanner read. */
export const trc20WhitelistSettings = () => ({
  TRC20_WHITELIST: trc20WhitelistSchema.describe(
    "The one TRC-20 whitelist: the trx-proxy's balances and transactions/create, the scanner's notified TRC-20 transfers (currency = the symbol). A JSON array of {contract, symbol, name, decimals}; unset: mainnet USDT, USDC, USDD, TUSD, WTRX. Set the same value for both services.",
  ),
});

function withHex(token: Omit<Trc20Token, "contractHex">): Trc20Token {
  return { ...token, contractHex: parseTronAddress(token.contract)!.hex };
}
