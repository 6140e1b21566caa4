import { describe, expect, it } from "vitest";
import { erc20WhitelistSchema } from "./erc20-whitelist.ts";

describe("ERC-20 whitelist (ETH_TOKENS)", () => {
  it("is a SYMBOL:contract:decimals list, mainnet USDT and USDC by default, contracts lower-cased", () => {
    expect(erc20WhitelistSchema.parse(undefined).map((token) => token.symbol)).toEqual(["USDT", "USDC"]);
    expect(erc20WhitelistSchema.parse("DAI:0x6B175474E89094C44Da98b954EedeAC495271d0F:18")).toEqual([
      { symbol: "DAI", contract: "0x6b175474e89094c44da98b954eedeac495271d0f", decimals: 18 },
    ]);
  });

  it("takes the JSON notation of TRC20_WHITELIST too, name optional, to the same tokens", () => {
    const json = JSON.stringify([{ contract: "0x6B175474E89094C44Da98b954EedeAC495271d0F", symbol: "DAI", name: "Dai", decimals: 18 }]);
    expect(erc20WhitelistSchema.parse(json)).toEqual(erc20WhitelistSchema.parse("DAI:0x6B175474E89094C44Da98b954EedeAC495271d0F:18"));
    expect(
      erc20WhitelistSchema.parse(' [{"contract": "0xdac17f958d2ee523a2206206994597c13d831ec7", "symbol": "USDT", "decimals": 6}]'),
    ).toEqual([{ symbol: "USDT", contract: "0xdac17f958d2ee523a2206206994597c13d831ec7", decimals: 6 }]);
  });

  it.each([
    ["a JSON entry without decimals", '[{"contract": "0xdac17f958d2ee523a2206206994597c13d831ec7", "symbol": "USDT"}]', "0.decimals"],
    [
      "a JSON entry with a Tron contract",
      '[{"contract": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "symbol": "USDT", "decimals": 6}]',
      "must be an Ethereum address",
    ],
    ["broken JSON", '[{"contract": ', "must be a JSON array of {contract, symbol, decimals}"],
    [
      "the same contract twice",
      "USDT:0xdac17f958d2ee523a2206206994597c13d831ec7:6,TETHER:0xDAC17F958D2EE523A2206206994597C13D831EC7:6",
      "unique",
    ],
    ["a missing field", "USDT:0xdac17f958d2ee523a2206206994597c13d831ec7", "SYMBOL:contract:decimals"],
    ["a contract that is no Ethereum address", "USDT:TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t:6", "is not an Ethereum address"],
  ])("refuses %s", (_name, value, message) => {
    const result = erc20WhitelistSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain(message);
  });
});
