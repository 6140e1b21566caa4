import { describe, expect, test } from "vitest";
import { BUILT_IN_CHAINS, BUILT_IN_COINS, perBuiltInChain } from "./built-in-chains.ts";

describe("the built-in chains", () => {
  const entries = BUILT_IN_COINS.map((coin) => [coin, BUILT_IN_CHAINS[coin]] as const);

  test.each(entries)("%s: keyed by its coin, its prefix the coin in lower case", (coin, chain) => {
    expect(chain.coin).toBe(coin);
    expect(chain.prefix).toBe(coin.toLowerCase());
  });

  test.each(entries)("%s: confirmations from 1 to a maximum inside the reorg window", (_coin, chain) => {
    expect(chain.confirmations.default).toBeGreaterThanOrEqual(1);
    expect(chain.confirmations.default).toBeLessThanOrEqual(chain.confirmations.max);
    expect(chain.confirmations.max).toBeLessThanOrEqual(chain.reorgWindow);
  });

  test("the native currencies as the chains count them", () => {
    expect(perBuiltInChain((chain) => chain.native)).toEqual({
      BTC: { symbol: "BTC", decimals: 8 },
      ETH: { symbol: "ETH", decimals: 18 },
      TRX: { symbol: "TRX", decimals: 6 },
    });
  });

  test("SLIP-44 coin types of their BIP44 paths", () => {
    expect(perBuiltInChain((chain) => chain.slip44)).toEqual({ BTC: 0, ETH: 60, TRX: 195 });
  });
});
