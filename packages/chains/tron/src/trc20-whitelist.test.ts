import { describe, expect, it } from "vitest";
import { trc20WhitelistSchema } from "./trc20-whitelist.ts";

describe("TRC-20 whitelist (TRC20_WHITELIST)", () => {
  it("defaults to mainnet USDT, USDC, USDD, TUSD and WTRX", () => {
    expect(trc20WhitelistSchema.parse(undefined).map((token) => `${token.symbol}:${token.contract}:${token.decimals}`)).toEqual([
      "USDT:TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t:6",
      "USDC:TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8:6",
      "USDD:TPYmHEhy5n8TCEfYGqW2rPxsghSfzghPDn:18",
      "TUSD:TUpMhErZL2fhh4sVNULAbNKLokS4GjC1F4:18",
      "WTRX:TNUC9Qb1rRpS5CbWLmNMxXBjyFoydXjWFR:6",
    ]);
  });

  it("refuses a duplicate contract written in its other form", () => {
    const result = trc20WhitelistSchema.safeParse(
      JSON.stringify([
        { contract: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", symbol: "USDT", name: "a", decimals: 6 },
        { contract: "41a614f803b6fd780986a42c78ec9c7f77e6ded13c", symbol: "USDT2", name: "b", decimals: 6 },
      ]),
    );
    expect(JSON.stringify(result.error?.issues)).toContain("unique");
  });
});
