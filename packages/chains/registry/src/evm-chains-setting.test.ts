import { describe, expect, test } from "vitest";
import { parseEvmChains } from "./evm-chains-setting.ts";

const parse = (chains: unknown) => parseEvmChains(JSON.stringify(chains));
const chainsOf = (chains: unknown) => {
  const result = parse(chains);
  if (!result.ok) throw new Error(result.message);
  return result.chains;
};

describe("EVM_CHAINS", () => {
  test("a well-known chain needs only its node URLs: its facts and tokens come from the registry", () => {
    const [polygon] = chainsOf([{ name: "polygon", rpc_urls: ["https://polygon.example/rpc"] }]);
    expect(polygon).toEqual({
      entry: {
        coin: "POLYGON",
        prefix: "polygon",
        name: "polygon",
        kind: "evm",
        native: { symbol: "POL", decimals: 18 },
        caip2Namespace: "eip155",
        evmChainId: 137,
        slip44: 60,
        blockSeconds: 2,
        confirmations: { default: 1, max: 256 },
        reorgWindow: 320,
        tokenReporting: "optional",
        pendingEvents: true,
      },
      rpcUrls: ["https://polygon.example/rpc"],
      wsUrl: undefined,
      traceMode: undefined,
      tokens: [
        { symbol: "USDT", contract: "0xc2132d05d31c914a87c6611c10748aeb04b58e8f", decimals: 6 },
        { symbol: "USDC", contract: "0x3c499c542cef5e3811e1192ce70d8cc03d5c3359", decimals: 6 },
      ],
    });
  });

  test("BNB Chain's stablecoins are Binance-Peg tokens with 18 decimals", () => {
    const [bsc] = chainsOf([{ name: "bsc" }]);
    expect(bsc!.entry.native.symbol).toBe("BNB");
    expect(bsc!.tokens.map((t) => [t.symbol, t.decimals])).toEqual([
      ["USDT", 18],
      ["USDC", 18],
    ]);
  });

  test("any other chain by its chain id and symbol, with Ethereum's confirmations and window unless given; every field the operator sets wins", () => {
    const [plain, tuned] = chainsOf([
      { name: "devnet", chain_id: 31338, symbol: "DEV" },
      {
        name: "gnosis",
        chain_id: 100,
        symbol: "XDAI",
        block_seconds: 5,
        confirmations: { default: 3, max: 20 },
        reorg_window: 40,
        ws_url: "wss://gnosis.example/ws",
        tokens: [{ contract: "0x" + "AB".repeat(20), symbol: "USDC", decimals: 6 }],
      },
    ]);
    expect(plain!.entry).toMatchObject({ coin: "DEVNET", evmChainId: 31338, confirmations: { default: 1, max: 64 }, reorgWindow: 128 });
    expect(plain!.tokens).toEqual([]);
    expect(tuned!.entry).toMatchObject({ blockSeconds: 5, confirmations: { default: 3, max: 20 }, reorgWindow: 40 });
    expect(tuned!.wsUrl).toBe("wss://gnosis.example/ws");
    expect(tuned!.tokens).toEqual([{ contract: "0x" + "ab".repeat(20), symbol: "USDC", decimals: 6 }]);
  });

  test("a chain may trace its own way (its nodes may offer another method than Ethereum's); unset, the scanner's ETH_TRACE_MODE", () => {
    const [arbitrum, base] = chainsOf([{ name: "arbitrum", trace_mode: "parity" }, { name: "base" }]);
    expect([arbitrum!.traceMode, base!.traceMode]).toEqual(["parity", undefined]);
    expect(parse([{ name: "base", trace_mode: "callTracer" }])).toMatchObject({ ok: false });
  });

  test("unset or empty: no chain beside Ethereum", () => {
    expect(chainsOf([])).toEqual([]);
  });

  const refused: Array<[string, unknown, RegExp]> = [
    ["not JSON", "polygon", /must be a JSON array/],
    ["a name that is a built-in chain", [{ name: "eth", chain_id: 1, symbol: "ETH" }], /name is taken/],
    ["a name that is an API path", [{ name: "webhooks", chain_id: 5, symbol: "X" }], /name is taken/],
    ["a name with capitals", [{ name: "Polygon" }], /lower-case/],
    ["an unknown chain without its id", [{ name: "devnet", symbol: "DEV" }], /chain_id and symbol are required/],
    ["a well-known name with another chain id", [{ name: "polygon", chain_id: 80002 }], /polygon: is chain 137, not 80002/],
    ["two chains of one chain id", [{ name: "polygon" }, { name: "matic", chain_id: 137, symbol: "POL" }], /chain ids must be unique/],
    ["one name twice", [{ name: "bsc" }, { name: "bsc" }], /names must be unique/],
    [
      "a maximum beyond the window",
      [{ name: "base", confirmations: { max: 2_000 } }],
      /confirmations.max \(2000\) must not exceed reorg_window \(1000\)/,
    ],
    [
      "a default beyond the maximum",
      [{ name: "avalanche", confirmations: { default: 30 } }],
      /default \(30\) must not exceed confirmations.max \(20\)/,
    ],
    ["a window beyond what the scanner keeps", [{ name: "base", reorg_window: 20_000 }], /reorg_window/],
    ["a field nobody reads (a typo)", [{ name: "base", rpc_url: "https://x" }], /rpc_url/],
    ["a node URL that is not one", [{ name: "base", rpc_urls: ["base-node:8545"] }], /rpc_urls/],
    ["a WebSocket URL over http", [{ name: "base", ws_url: "http://node:8546" }], /ws_url/],
    [
      "a token that is not an address",
      [{ name: "base", tokens: [{ contract: "0x12", symbol: "X", decimals: 6 }] }],
      /must be an Ethereum address/,
    ],
    [
      "a token listed twice",
      [
        {
          name: "base",
          tokens: [
            { contract: "0x" + "ab".repeat(20), symbol: "A", decimals: 6 },
            { contract: "0x" + "AB".repeat(20), symbol: "B", decimals: 6 },
          ],
        },
      ],
      /token symbols and contracts must be unique/,
    ],
  ];
  test.each(refused)("refused: %s", (_name, chains, message) => {
    const result = typeof chains === "string" ? parseEvmChains(chains) : parse(chains);
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.message).toMatch(message);
  });
});
