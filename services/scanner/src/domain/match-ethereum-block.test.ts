import { describe, expect, test } from "vitest";

import { matchEthereumBlock, type EthereumBlock, type EthereumTokens } from "./match-ethereum-block.ts";
import { WatchIndex } from "./watch-index.ts";
import { ERC20_TRANSFER_TOPIC } from "@chaingate/ethereum";

const ALICE = "0x" + "a1".repeat(20);
const BOB = "0x" + "b2".repeat(20);
const TOKEN = "0x" + "dd".repeat(20);
const word = (hex: string) => hex.replace(/^0x/, "").padStart(64, "0");
const tokens: EthereumTokens = new Map([[TOKEN, { contract: TOKEN, displayContract: TOKEN, symbol: "USDT", decimals: 6 }]]);

const block: EthereumBlock = {
  number: "0x10",
  hash: "0xhash",
  parentHash: "0xparent",
  timestamp: "0x6553f100",
  transactions: [
    { hash: "0xpay", from: BOB.toUpperCase().replace("0X", "0x"), to: ALICE, value: "0xde0b6b3a7640001", input: "0x", status: "0x1" },
    { hash: "0xfailed", from: BOB, to: ALICE, value: "0x1", input: "0x", status: "0x0" },
    { hash: "0xzero", from: BOB, to: ALICE, value: "0x0", input: "0x", status: "0x1" },
    {
      hash: "0xtoken",
      from: BOB,
      to: TOKEN,
      value: "0x0",
      input: `0xa9059cbb${word(ALICE)}${word("f4240")}`,
      status: "0x1",
      // The token's own Transfer is this transaction's second log (in its block it could be any; the
      // Anvil test mines two in one block).
      logs: [
        { address: "0x" + "ab".repeat(20), topics: [`0x${word("1")}`], data: "0x" },
        {
          address: TOKEN,
          topics: [`0x${ERC20_TRANSFER_TOPIC}`, `0x${word(BOB)}`, `0x${word(ALICE)}`],
          data: `0x${word("f4240")}`,
        },
      ],
    },
    { hash: "0xtokenfail", from: BOB, to: TOKEN, value: "0x0", input: `0xa9059cbb${word(ALICE)}${word("1e8480")}`, status: "0x0" },
  ],
};

describe("Ethereum matching", () => {
  test("native transfers with value > 0 and their receipt status; ERC-20 only for webhooks that opted in", () => {
    const index = new WatchIndex();
    index.apply({ webhookId: 1, coin: "ETH", addresses: [ALICE], isActive: true, deleted: false, version: 1 });
    index.apply({
      webhookId: 2,
      coin: "ETH",
      addresses: [ALICE.toUpperCase().replace("0X", "0x")],
      isActive: true,
      deleted: false,
      version: 1,
      includeTokens: true,
    });
    const matches = matchEthereumBlock(block, index, tokens);
    const seen = matches.map((m) => [
      m.webhookId,
      m.transfer.txid,
      m.transfer.currency,
      m.transfer.amount,
      m.transfer.executionStatus,
      m.transfer.position,
    ]);
    expect(seen).toEqual([
      [1, "0xpay", "ETH", "1.000000000000000001", "SUCCESS", null],
      [2, "0xpay", "ETH", "1.000000000000000001", "SUCCESS", null],
      [1, "0xfailed", "ETH", "0.000000000000000001", "FAILED", null],
      [2, "0xfailed", "ETH", "0.000000000000000001", "FAILED", null],
      // Its position is its index within the transaction.
      [2, "0xtoken", "USDT", "1", "SUCCESS", 1],
      [2, "0xtokenfail", "USDT", "2", "FAILED", null],
    ]);
    expect(matches[0]!.transfer).toMatchObject({ from: BOB, to: ALICE, rawAmount: "1000000000000000001", decimals: 18 });
    expect(matches[4]!.transfer).toMatchObject({ from: BOB, to: ALICE, tokenContract: TOKEN, rawAmount: "1000000" });
  });
});

describe("Ethereum internal transfers", () => {
  const CONTRACT = "0x" + "cc".repeat(20);
  const frame = (to: string, value: string, index: number, traceAddress: string) =>
    ({ type: "CALL", from: CONTRACT, to, value, index, traceAddress }) as const;
  const traced: EthereumBlock = {
    ...block,
    transactions: [
      {
        hash: "0xforward",
        from: BOB,
        to: CONTRACT,
        value: "0x3",
        input: "0x",
        status: "0x1",
        internalTransfers: [frame(ALICE, "0x1", 1, "0"), frame(ALICE, "0x2", 3, "1.0")],
      },
      {
        hash: "0xreverted",
        from: BOB,
        to: CONTRACT,
        value: "0x3",
        input: "0x",
        status: "0x0",
        internalTransfers: [frame(ALICE, "0x1", 1, "0")],
      },
    ],
  };

  test("each frame paying a watched address is its own transfer, at its own position, marked internal; a failed transaction's are not", () => {
    const index = new WatchIndex();
    index.apply({ webhookId: 1, coin: "ETH", addresses: [ALICE], isActive: true, deleted: false, version: 1 });
    const matches = matchEthereumBlock(traced, index, tokens);
    expect(matches.map((m) => m.transfer)).toEqual([
      expect.objectContaining({
        txid: "0xforward",
        from: CONTRACT,
        to: ALICE,
        amount: "0.000000000000000001",
        position: 1,
        internal: { traceAddress: "0" },
      }),
      expect.objectContaining({
        txid: "0xforward",
        from: CONTRACT,
        to: ALICE,
        rawAmount: "2",
        position: 3,
        internal: { traceAddress: "1.0" },
      }),
    ]);
    expect(matches.every((m) => m.transfer.executionStatus === "SUCCESS" && m.transfer.currency === "ETH")).toBe(true);
  });

  test("a watched contract paying out is matched on its sending side", () => {
    const index = new WatchIndex();
    index.apply({ webhookId: 3, coin: "ETH", addresses: [CONTRACT], isActive: true, deleted: false, version: 1 });
    const matches = matchEthereumBlock(traced, index, tokens);
    // The top-level payment to the contract, then its two internal payments (the failed transaction: only its own transfer, FAILED).
    expect(matches.map((m) => [m.transfer.txid, m.transfer.position, m.transfer.executionStatus])).toEqual([
      ["0xforward", null, "SUCCESS"],
      ["0xforward", 1, "SUCCESS"],
      ["0xforward", 3, "SUCCESS"],
      ["0xreverted", null, "FAILED"],
    ]);
  });

  test("frames in a row from one sender and from another are each matched on whichever side is watched", () => {
    const RELAY = "0x" + "ee".repeat(20);
    const OTHER = "0x" + "0f".repeat(20);
    const index = new WatchIndex();
    index.apply({ webhookId: 4, coin: "ETH", addresses: [RELAY, ALICE], isActive: true, deleted: false, version: 1 });
    const framesOf = (from: string, to: string, index: number) =>
      ({ type: "CALL", from, to, value: "0x1", index, traceAddress: String(index - 1) }) as const;
    const matches = matchEthereumBlock(
      {
        ...block,
        transactions: [
          {
            hash: "0xsenders",
            from: BOB,
            to: CONTRACT,
            value: "0x0",
            input: "0x",
            status: "0x1",
            internalTransfers: [
              framesOf(CONTRACT, OTHER, 1),
              framesOf(CONTRACT, ALICE, 2),
              framesOf(RELAY, OTHER, 3),
              framesOf(RELAY, OTHER, 4),
              framesOf(CONTRACT, OTHER, 5),
            ],
          },
        ],
      },
      index,
      tokens,
    );
    expect(matches.map((m) => [m.transfer.position, m.watchedAddress])).toEqual([
      [2, ALICE],
      [3, RELAY],
      [4, RELAY],
    ]);
  });
});

describe("Ethereum matching, all_tokens", () => {
  const SPAM = "0x" + "5a".repeat(20);
  const NFT = "0x" + "77".repeat(20);
  const transferLog = (contract: string, to: string, amount: string) => ({
    address: contract,
    topics: [`0x${ERC20_TRANSFER_TOPIC}`, `0x${word(BOB)}`, `0x${word(to)}`],
    data: `0x${word(amount)}`,
  });
  const unlistedBlock: EthereumBlock = {
    ...block,
    transactions: [
      {
        hash: "0xunlisted",
        from: BOB,
        to: SPAM,
        value: "0x0",
        input: "0x",
        status: "0x1",
        logs: [
          transferLog(SPAM, ALICE, "3e8"),
          // An ERC-721 Transfer: the token id is the fourth topic, there is no amount.
          { address: NFT, topics: [`0x${ERC20_TRANSFER_TOPIC}`, `0x${word(BOB)}`, `0x${word(ALICE)}`, `0x${word("7")}`], data: "0x" },
          transferLog(TOKEN, ALICE, "f4240"),
        ],
      },
    ],
  };
  const indexWith = (settings: { includeTokens?: boolean; allTokens?: boolean }) => {
    const index = new WatchIndex();
    index.apply({ webhookId: 1, coin: "ETH", addresses: [ALICE], isActive: true, deleted: false, version: 1, ...settings });
    return index;
  };

  test("an unlisted ERC-20 is matched by contract with the decimals read; never an NFT, never without all_tokens", () => {
    const decimals = { decimalsOf: (contract: string) => (contract === SPAM ? 3 : undefined) };
    const matches = matchEthereumBlock(unlistedBlock, indexWith({ allTokens: true }), tokens, undefined, decimals);
    expect(
      matches.map((m) => [m.transfer.currency, m.transfer.tokenContract, m.transfer.amount, m.transfer.decimals, m.transfer.position]),
    ).toEqual([
      [SPAM, SPAM, "1", 3, 0],
      ["USDT", TOKEN, "1", 6, 2],
    ]);
    expect(
      matchEthereumBlock(unlistedBlock, indexWith({ includeTokens: true }), tokens, undefined, decimals).map((m) => m.transfer.currency),
    ).toEqual(["USDT"]);
  });

  test("a contract without decimals is in raw units; one not read yet stops the block instead of guessing", () => {
    const none = { decimalsOf: () => null };
    const [match] = matchEthereumBlock(unlistedBlock, indexWith({ allTokens: true }), new Map(), undefined, none);
    expect(match?.transfer).toMatchObject({ currency: SPAM, amount: "1000", rawAmount: "1000", decimals: 0 });
    expect(() =>
      matchEthereumBlock(unlistedBlock, indexWith({ allTokens: true }), new Map(), undefined, { decimalsOf: () => undefined }),
    ).toThrow(/decimals of 0x5a5a.* not read before matching/);
  });
});
