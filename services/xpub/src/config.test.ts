import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@chaingate/config";
import { DEFAULT_MAX_ADDRESSES_PER_KEY, xpubConfigSchema } from "./config.ts";

describe("xpub config", () => {
  it("defaults: loopback on 8102, mainnet, 100 000 addresses per key", () => {
    expect(loadConfig("xpub", xpubConfigSchema, {})).toMatchObject({
      HOST: "127.0.0.1",
      PORT: 8102,
      BITCOIN_NETWORK: "mainnet",
      XPUB_MAX_ADDRESSES_PER_KEY: DEFAULT_MAX_ADDRESSES_PER_KEY,
      DATABASE_POOL_SIZE: 10,
    });
    expect(DEFAULT_MAX_ADDRESSES_PER_KEY).toBe(100_000);
  });

  it("accepts litecoin-regtest and refuses other networks, naming the variable", () => {
    expect(loadConfig("xpub", xpubConfigSchema, { BITCOIN_NETWORK: "litecoin-regtest" }).BITCOIN_NETWORK).toBe("litecoin-regtest");
    expect(() => loadConfig("xpub", xpubConfigSchema, { BITCOIN_NETWORK: "testnet" })).toThrow(ConfigError);
    expect(() => loadConfig("xpub", xpubConfigSchema, { BITCOIN_NETWORK: "testnet" })).toThrow(/BITCOIN_NETWORK/);
  });

  it("refuses a per-key limit beyond the 2^31 non-hardened indexes, or below 1", () => {
    expect(loadConfig("xpub", xpubConfigSchema, { XPUB_MAX_ADDRESSES_PER_KEY: "2147483648" }).XPUB_MAX_ADDRESSES_PER_KEY).toBe(2 ** 31);
    expect(() => loadConfig("xpub", xpubConfigSchema, { XPUB_MAX_ADDRESSES_PER_KEY: "2147483649" })).toThrow(/XPUB_MAX_ADDRESSES_PER_KEY/);
    expect(() => loadConfig("xpub", xpubConfigSchema, { XPUB_MAX_ADDRESSES_PER_KEY: "0" })).toThrow(/XPUB_MAX_ADDRESSES_PER_KEY/);
  });
});
