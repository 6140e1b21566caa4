import { describe, expect, test } from "vitest";
import { scannerConfigSchema } from "./config.ts";

describe("scanner config", () => {
  test("token whitelists are SYMBOL:contract:decimals lists, mainnet USDT/USDC by default", () => {
    const defaults = scannerConfigSchema.parse({});
    expect(defaults.TRX_TOKENS).toContainEqual({ symbol: "USDT", contract: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", decimals: 6 });
    expect(defaults.ETH_TOKENS.map((token) => token.symbol)).toEqual(["USDT", "USDC"]);
    expect(scannerConfigSchema.parse({ ETH_TOKENS: "DAI:0x6b175474e89094c44da98b954eedeac495271d0f:18" }).ETH_TOKENS).toEqual([{ symbol: "DAI", contract: "0x6b175474e89094c44da98b954eedeac495271d0f", decimals: 18 }]);
  });

  test("a malformed whitelist entry stops the process at start-up, naming the entry", () => {
    const result = scannerConfigSchema.safeParse({ TRX_TOKENS: "USDT:TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain("SYMBOL:contract:decimals");
  });

  test("no node URL means the chain is not followed", () => {
    const config = scannerConfigSchema.parse({ BTC_RPC_URL: "http://127.0.0.1:18443" });
    expect(config.BTC_RPC_URL).toEqual(["http://127.0.0.1:18443"]);
    expect(config.ETH_RPC_URL).toBeUndefined();
  });

  test("kept reorg windows per chain: the documented depths by default, never below the chain's maximum confirmations", () => {
    expect(scannerConfigSchema.parse({})).toMatchObject({ BTC_REORG_WINDOW: 144, ETH_REORG_WINDOW: 128, TRX_REORG_WINDOW: 100 });
    expect(scannerConfigSchema.parse({ ETH_REORG_WINDOW: "400" }).ETH_REORG_WINDOW).toBe(400);
    const tooShallow = scannerConfigSchema.safeParse({ TRX_REORG_WINDOW: "20" });
    expect(tooShallow.success).toBe(false);
    expect(JSON.stringify(tooShallow.error?.issues)).toContain("at least 30");
  });
});
