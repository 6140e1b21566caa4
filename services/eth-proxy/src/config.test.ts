import { ConfigError, loadConfig } from "@chaingate/config";
import { describe, expect, it } from "vitest";
import { ethProxyConfigSchema } from "./config.ts";

const load = (env: Record<string, string>) => loadConfig("eth-proxy", ethProxyConfigSchema, env);

describe("eth-proxy config", () => {
  it("reads ETH_RPC_URL as URLs in order of preference, and leaves it unset when absent", () => {
    expect(load({}).ETH_RPC_URL).toBeUndefined();
    expect(load({ ETH_RPC_URL: "http://a:8545, https://u:p@b.example/rpc" }).ETH_RPC_URL).toEqual([
      "http://a:8545",
      "https://u:p@b.example/rpc",
    ]);
  });

  it.each(["not a url", "http://a:8545,not a url"])("stops at start-up on ETH_RPC_URL=%j, naming the variable", (value) => {
    expect(() => load({ ETH_RPC_URL: value })).toThrow(ConfigError);
    expect(() => load({ ETH_RPC_URL: value })).toThrow(/ETH_RPC_URL/);
  });

  it("listens on 8106 by default and parses timeouts as positive milliseconds", () => {
    expect(load({}).PORT).toBe(8106);
    expect(load({ ETH_RPC_TIMEOUT_MS: "1500" }).ETH_RPC_TIMEOUT_MS).toBe(1500);
    expect(() => load({ ETH_RPC_TIMEOUT_MS: "0" })).toThrow(/ETH_RPC_TIMEOUT_MS/);
  });
});
