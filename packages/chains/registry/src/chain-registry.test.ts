import { describe, expect, test } from "vitest";
import { createChainRegistry } from "./chain-registry.ts";
import { parseEvmChains } from "./evm-chains-setting.ts";

describe("the chain registry", () => {
  test("the built-in chains, then the configured ones, by coin and by API prefix", () => {
    const parsed = parseEvmChains(JSON.stringify([{ name: "bsc" }, { name: "polygon" }]));
    const registry = createChainRegistry(parsed.ok ? parsed.chains : []);
    expect(registry.chains.map((chain) => chain.coin)).toEqual(["BTC", "ETH", "TRX", "BSC", "POLYGON"]);
    expect(registry.chain("POLYGON")?.evmChainId).toBe(137);
    expect(registry.byPrefix("bsc")?.coin).toBe("BSC");
    expect(registry.byPrefix("eth")?.coin).toBe("ETH");
    expect(registry.chain("polygon")).toBeUndefined();
    expect(registry.chain("DOGE")).toBeUndefined();
  });

  test("without configured chains: Bitcoin, Ethereum and Tron", () => {
    expect(createChainRegistry().chains.map((chain) => chain.coin)).toEqual(["BTC", "ETH", "TRX"]);
  });
});
