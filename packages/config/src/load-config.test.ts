import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigError, env, loadConfig, redactConfig } from "./index.ts";

const schema = z.object({
  PORT: env.port(8080),
  DATABASE_URL: env.url(),
  BTC_RPC_URLS: env.urlList(),
  DEBUG_SQL: env.flag(false),
});

describe("loadConfig", () => {
  it("coerces values and applies defaults", () => {
    const config = loadConfig("test", schema, {
      DATABASE_URL: "postgres://u:p@localhost/db",
      BTC_RPC_URLS: "http://a:1, http://b:2",
      DEBUG_SQL: "0",
    });
    expect(config).toEqual({
      PORT: 8080,
      DATABASE_URL: "postgres://u:p@localhost/db",
      BTC_RPC_URLS: ["http://a:1", "http://b:2"],
      DEBUG_SQL: false,
    });
  });

  it("refuses with a message naming every bad variable", () => {
    let error: unknown;
    try {
      loadConfig("gateway", schema, { PORT: "eighty", BTC_RPC_URLS: "not a url" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain("gateway: invalid configuration");
    expect(message).toMatch(/PORT: /);
    expect(message).toContain("DATABASE_URL: is not set");
    expect(message).toMatch(/BTC_RPC_URLS: /);
  });
});

describe("redactConfig", () => {
  it("masks secrets and URL passwords, keeps the rest", () => {
    expect(
      redactConfig({
        DATABASE_URL: "postgres://user:hunter2@db:5432/x",
        BTC_RPC_PASSWORD: "hunter2",
        API_KEY_CACHE_SIZE: 10,
        PORT: 8080,
        UPSTREAMS: ["http://u:pw@node:8332"],
      }),
    ).toEqual({
      DATABASE_URL: "postgres://user:redacted@db:5432/x",
      BTC_RPC_PASSWORD: "[redacted]",
      API_KEY_CACHE_SIZE: 10,
      PORT: 8080,
      UPSTREAMS: ["http://u:redacted@node:8332"],
    });
  });
});
