import { loadConfig } from "@chaingate/config";
import { describe, expect, test } from "vitest";
import { scannerConfigSchema } from "./config.ts";

describe("scanner config", () => {
  test("token whitelists: the chain packages' defaults, the TRC-20 one shared with the trx-proxy", () => {
    const defaults = scannerConfigSchema.parse({});
    expect(defaults.ETH_TOKENS.map((token) => token.symbol)).toEqual(["USDT", "USDC"]);
    expect(defaults.TRC20_WHITELIST.map((token) => token.symbol)).toEqual(["USDT", "USDC", "USDD", "TUSD", "WTRX"]);
    expect(scannerConfigSchema.parse({ ETH_TOKENS: "DAI:0x6b175474e89094c44da98b954eedeac495271d0f:18" }).ETH_TOKENS).toEqual([
      { symbol: "DAI", contract: "0x6b175474e89094c44da98b954eedeac495271d0f", decimals: 18 },
    ]);
  });

  test("a lease expiry the holder could outlive is refused: it must exceed the holder's give-up time (three polls, at least 3 s) plus a poll", () => {
    expect(() => loadConfig("scanner", scannerConfigSchema, { SCANNER_LEASE_EXPIRY_MS: "4000" })).toThrow(
      "SCANNER_LEASE_EXPIRY_MS: must exceed 4000 ms",
    );
    expect(() => loadConfig("scanner", scannerConfigSchema, { SCANNER_LEASE_POLL_MS: "5000", SCANNER_LEASE_EXPIRY_MS: "15000" })).toThrow(
      "must exceed 20000 ms",
    );
    expect(loadConfig("scanner", scannerConfigSchema, { SCANNER_LEASE_EXPIRY_MS: "4001" }).SCANNER_LEASE_EXPIRY_MS).toBe(4001);
    expect(scannerConfigSchema.parse({}).SCANNER_LEASE_EXPIRY_MS).toBe(15_000);
  });

  test("a malformed whitelist entry stops the process at start-up, naming the entry", () => {
    const result = scannerConfigSchema.safeParse({ ETH_TOKENS: "USDT:0xdac17f958d2ee523a2206206994597c13d831ec7" });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain("SYMBOL:contract:decimals");
  });

  test("the retired TRX_TOKENS stops the process, pointing at TRC20_WHITELIST", () => {
    expect(() => loadConfig("scanner", scannerConfigSchema, { TRX_TOKENS: "USDT:TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t:6" })).toThrow(
      /TRX_TOKENS: was replaced by TRC20_WHITELIST/,
    );
  });

  test("a hosted Tron node's key travels in TRON_NODE_API_KEY_HEADER, as in the trx-proxy", () => {
    expect(scannerConfigSchema.parse({ TRON_NODE_API_KEY: "k", TRON_NODE_API_KEY_HEADER: "x-api-key" })).toMatchObject({
      TRON_NODE_API_KEY: "k",
      TRON_NODE_API_KEY_HEADER: "x-api-key",
    });
    expect(scannerConfigSchema.parse({}).TRON_NODE_API_KEY_HEADER).toBe("TRON-PRO-API-KEY");
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

  test("block announcements are off unless configured; Tron polls every 300 ms by default, the others every second", () => {
    const defaults = scannerConfigSchema.parse({});
    expect(defaults).toMatchObject({ SCANNER_POLL_INTERVAL_MS: 1000, TRX_POLL_INTERVAL_MS: 300 });
    expect([defaults.BTC_ZMQ_URL, defaults.ETH_WS_URL]).toEqual([undefined, undefined]);
    const push = scannerConfigSchema.parse({
      BTC_ZMQ_URL: "tcp://bitcoind:28332",
      ETH_WS_URL: "ws://geth-0:8546, wss://provider.example/ws/KEY",
    });
    expect([push.BTC_ZMQ_URL, push.ETH_WS_URL]).toEqual([["tcp://bitcoind:28332"], ["ws://geth-0:8546", "wss://provider.example/ws/KEY"]]);
    const bad = scannerConfigSchema.safeParse({ ETH_WS_URL: "http://geth:8545", BTC_ZMQ_URL: "bitcoind:28332" });
    expect(bad.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ["BTC_ZMQ_URL", "every URL must start with tcp:// or ipc://"],
      ["ETH_WS_URL", "every URL must start with ws:// or wss://"],
    ]);
  });
});
