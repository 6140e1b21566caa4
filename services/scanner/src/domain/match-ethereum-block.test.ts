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
      logs: [
        {
          address: TOKEN,
          topics: [`0x${ERC20_TRANSFER_TOPIC}`, `0x${word(BOB)}`, `0x${word(ALICE)}`],
          data: `0x${word("f4240")}`,
          logIndex: "0x4",
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
      [2, "0xtoken", "USDT", "1", "SUCCESS", 4],
      [2, "0xtokenfail", "USDT", "2", "FAILED", null],
    ]);
    expect(matches[0]!.transfer).toMatchObject({ from: BOB, to: ALICE, rawAmount: "1000000000000000001", decimals: 18 });
    expect(matches[4]!.transfer).toMatchObject({ from: BOB, to: ALICE, tokenContract: TOKEN, rawAmount: "1000000" });
  });
});
