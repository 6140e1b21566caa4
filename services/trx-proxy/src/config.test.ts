import { ConfigError, loadConfig } from "@chaingate/config";
import { describe, expect, it } from "vitest";
import { trxProxyConfigSchema } from "./config.ts";

const load = (env: Record<string, string>) => loadConfig("trx-proxy", trxProxyConfigSchema, env);

describe("trx-proxy config", () => {
  it("reads TRON_NODE_URL as a failover list and defaults the whitelist to mainnet's tokens", () => {
    const config = load({ TRON_NODE_URL: "http://a:8090, http://b:8090" });
    expect(config.TRON_NODE_URL).toEqual(["http://a:8090", "http://b:8090"]);
    expect(config.TRC20_WHITELIST.map((token) => `${token.symbol}:${token.contractHex}:${token.decimals}`)).toEqual([
      "USDT:41a614f803b6fd780986a42c78ec9c7f77e6ded13c:6",
      "USDC:413487b63d30b5b2c87fb7ffa8bcfade38eaac1abe:6",
      "USDD:4194f24e992ca04b49c6f2a2753076ef8938ed4daa:18",
      "TUSD:41cebde71077b830b958c8da17bcddeeb85d0bcf25:18",
      "WTRX:41891cdb91d149f23b1a45d9c5ca78a88d0cb44c18:6",
    ]);
    expect(config.TRX_DEPRECATED_SUNSET.toUTCString()).toBe("Tue, 01 Dec 2026 00:00:00 GMT");
  });

  it("replaces the whitelist with TRC20_WHITELIST, hex contracts read as Base58", () => {
    const config = load({
      TRC20_WHITELIST: JSON.stringify([
        { contract: "41eca9bc828a3005b9a3b909f2cc5c2a54794de05f", symbol: "USDT", name: "Tether USD (Nile)", decimals: 6 },
      ]),
    });
    expect(config.TRC20_WHITELIST).toEqual([
      {
        contract: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
        contractHex: "41eca9bc828a3005b9a3b909f2cc5c2a54794de05f",
        symbol: "USDT",
        name: "Tether USD (Nile)",
        decimals: 6,
      },
    ]);
  });

  it.each([
    ["not JSON", "USDT"],
    ["a bad contract", JSON.stringify([{ contract: "Tnope", symbol: "X", name: "X", decimals: 6 }])],
    [
      "a duplicate symbol",
      JSON.stringify([
        { contract: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", symbol: "USDT", name: "a", decimals: 6 },
        { contract: "TPYmHEhy5n8TCEfYGqW2rPxsghSfzghPDn", symbol: "USDT", name: "b", decimals: 18 },
      ]),
    ],
    ["fractional decimals", JSON.stringify([{ contract: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", symbol: "USDT", name: "a", decimals: 1.5 }])],
  ])("stops at start-up on TRC20_WHITELIST with %s, naming the variable", (_name, value) => {
    expect(() => load({ TRC20_WHITELIST: value })).toThrow(ConfigError);
    expect(() => load({ TRC20_WHITELIST: value })).toThrow(/TRC20_WHITELIST/);
  });

  it("stops on a TRX_DEPRECATED_SUNSET that is no date-time", () => {
    expect(() => load({ TRX_DEPRECATED_SUNSET: "next year" })).toThrow(/TRX_DEPRECATED_SUNSET/);
  });
});

describe("trx-proxy config: a hosted node's API key", () => {
  it("is masked in the effective config logged at start-up, its header name is not", async () => {
    const { redactConfig } = await import("@chaingate/config");
    const config = load({ TRON_NODE_URL: "https://api.trongrid.io", TRON_NODE_API_KEY: "0b8c6f3e-5d1a-4c2b-9e7f-1a2b3c4d5e6f" });
    const logged = JSON.stringify(redactConfig(config as unknown as Record<string, unknown>));
    expect(logged).not.toContain("0b8c6f3e");
    expect(logged).toContain("TRON-PRO-API-KEY");
  });

  it("reads JSONRPC_BODY_LIMIT as the other proxies do (default 1mb), and still honours its former name JSONRPC_BODY_LIMIT_BYTES", () => {
    expect(load({}).JSONRPC_BODY_LIMIT).toBe(1024 * 1024);
    expect(load({ JSONRPC_BODY_LIMIT: "512kb" }).JSONRPC_BODY_LIMIT).toBe(512 * 1024);
    expect(load({ JSONRPC_BODY_LIMIT_BYTES: "2048" }).JSONRPC_BODY_LIMIT_BYTES).toBe(2048);
    expect(() => load({ JSONRPC_BODY_LIMIT: "5 megabytes" })).toThrow(/JSONRPC_BODY_LIMIT: must be a positive size/);
  });
});
