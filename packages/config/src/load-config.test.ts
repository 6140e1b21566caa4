import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigError, env, loadConfig, natsSettings, redactConfig } from "./index.ts";

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

describe("redactConfig: inside lists of objects", () => {
  it("masks the node URLs of each EVM chain (EVM_CHAINS) and secret-named fields, keeping the rest", () => {
    expect(
      redactConfig({
        EVM_CHAINS: [
          {
            entry: { coin: "POLYGON", confirmations: { max: 256 } },
            rpcUrls: ["https://polygon-mainnet.g.alchemy.com/v2/Xk2Lp0Q9zAbCdEfGhIjKlMnOpQr", "http://u:pw@node:8545"],
            wsUrl: "wss://polygon.example/ws?key=abc",
            password: "k",
          },
        ],
      }),
    ).toEqual({
      EVM_CHAINS: [
        {
          entry: { coin: "POLYGON", confirmations: { max: 256 } },
          rpcUrls: ["https://polygon-mainnet.g.alchemy.com/v2/[redacted]", "http://u:redacted@node:8545"],
          wsUrl: "wss://polygon.example/ws?key=[redacted]",
          password: "[redacted]",
        },
      ],
    });
  });
});

describe("redactConfig: secrets, not every name with KEY in it", () => {
  it("keeps limits and flags, masks secret strings and provider keys in node URLs", () => {
    expect(
      redactConfig({
        XPUB_MAX_ADDRESSES_PER_KEY: 100_000,
        API_KEY_CACHE_SIZE: 10_000,
        INTERNAL_API_KEY: "s3cr3t-shared-between-services",
        WEBHOOK_SIGNING_SECRET: "whsec_abc",
        ETH_RPC_URL: [
          "https://mainnet.infura.io/v3/9aa3d95b3bc440fa88ea12eaa4456161",
          "https://eth-mainnet.g.alchemy.com/v2/Xk2Lp0Q9zAbCdEfGhIjKlMnOpQr",
          "http://127.0.0.1:8545",
        ],
        TRON_NODE_URL: "https://api.trongrid.io/wallet?apikey=5f3c1a2b-0000-4444-8888-abcdefabcdef",
        QUICKNODE: "https://old-snowy-pine.quiknode.pro/4a1b2c3d4e5f60718293a4b5c6d7e8f9/",
        DATABASE_URL: "postgres://postgres@127.0.0.1:5432/postgres",
      }),
    ).toEqual({
      XPUB_MAX_ADDRESSES_PER_KEY: 100_000,
      API_KEY_CACHE_SIZE: 10_000,
      INTERNAL_API_KEY: "[redacted]",
      WEBHOOK_SIGNING_SECRET: "[redacted]",
      ETH_RPC_URL: ["https://mainnet.infura.io/v3/[redacted]", "https://eth-mainnet.g.alchemy.com/v2/[redacted]", "http://127.0.0.1:8545"],
      TRON_NODE_URL: "https://api.trongrid.io/wallet?apikey=[redacted]",
      QUICKNODE: "https://old-snowy-pine.quiknode.pro/[redacted]/",
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/postgres",
    });
  });
});

describe("natsSettings", () => {
  const natsSchema = z.object(natsSettings());
  it("takes a cluster's comma-separated server list and a stream replica count; one server and one copy by default", () => {
    expect(
      loadConfig("test", natsSchema, { NATS_URL: "nats://nats-0:4222, nats://nats-1:4222,nats://nats-2:4222", NATS_STREAM_REPLICAS: "3" }),
    ).toMatchObject({
      NATS_URL: "nats://nats-0:4222, nats://nats-1:4222,nats://nats-2:4222",
      NATS_STREAM_REPLICAS: 3,
    });
    expect(loadConfig("test", natsSchema, {})).toMatchObject({ NATS_URL: "nats://127.0.0.1:4222", NATS_STREAM_REPLICAS: 1 });
  });
  it("refuses a list with a non-URL and a replica count JetStream cannot keep", () => {
    expect(() => loadConfig("test", natsSchema, { NATS_URL: "nats://a:4222,not a url" })).toThrow(/NATS_URL/);
    expect(() => loadConfig("test", natsSchema, { NATS_STREAM_REPLICAS: "6" })).toThrow(/NATS_STREAM_REPLICAS/);
    expect(() => loadConfig("test", natsSchema, { NATS_STREAM_REPLICAS: "0" })).toThrow(/NATS_STREAM_REPLICAS/);
  });
});
