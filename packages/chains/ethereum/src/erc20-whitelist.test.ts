import { describe, expect, it } from "vitest";
import { erc20WhitelistSchema } from "./erc20-whitelist.ts";

describe("ERC-20 whitelist (ETH_TOKENS)", () => {
  it("is a SYMBOL:contract:decimals list, mainnet USDT and USDC by default, contracts lower-cased", () => {
    expect(erc20WhitelistSchema.parse(undefined).map((token) => token.symbol)).toEqual(["USDT", "USDC"]);
    expect(erc20WhitelistSchema.parse("DAI:0x6B175474E89094C44Da98b954EedeAC495271d0F:18")).toEqual([
      { symbol: "DAI", contract: "0x6b175474e89094c44da98b954eedeac495271d0f", decimals: 18 },
    ]);
  });

  it.each([
    ["a missing field", "USDT:0xdac17f958d2ee523a2206206994597c13d831ec7", "SYMBOL:contract:decimals"],
    ["a contract that is no Ethereum address", "USDT:TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t:6", "is not an Ethereum address"],
  ])("refuses %s", (_name, value, message) => {
    const result = erc20WhitelistSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain(message);
  });
});
