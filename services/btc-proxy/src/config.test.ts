import { ConfigError, loadConfig } from "@chaingate/config";
import { describe, expect, it } from "vitest";
import { btcProxyConfigSchema } from "./config.ts";

const load = (env: Record<string, string>) => loadConfig("btc-proxy", btcProxyConfigSchema, env);

describe("btc-proxy config", () => {
  it("reads JSONRPC_BODY_LIMIT as body-parser's sizes, in bytes", () => {
    expect(load({}).JSONRPC_BODY_LIMIT).toBe(5 * 1024 * 1024);
    expect(load({ JSONRPC_BODY_LIMIT: "512kb" }).JSONRPC_BODY_LIMIT).toBe(512 * 1024);
    expect(load({ JSONRPC_BODY_LIMIT: "1048576" }).JSONRPC_BODY_LIMIT).toBe(1_048_576);
    expect(load({ JSONRPC_BODY_LIMIT: "1.5MB" }).JSONRPC_BODY_LIMIT).toBe(1.5 * 1024 * 1024);
  });

  it.each(["5 megabytes", "-1mb", "0", "", "mb", "1e3"])("stops at start-up on JSONRPC_BODY_LIMIT=%j, naming the variable", (value) => {
    expect(() => load({ JSONRPC_BODY_LIMIT: value })).toThrow(ConfigError);
    expect(() => load({ JSONRPC_BODY_LIMIT: value })).toThrow(/JSONRPC_BODY_LIMIT: must be a positive size/);
  });
});
