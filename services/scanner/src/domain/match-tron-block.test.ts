import { describe, expect, test } from "vitest";

import { matchTronBlock, type TronBlockData, type TronTokens } from "./match-tron-block.ts";
import { tronAddressFromEvmHex } from "@chaingate/tron";
import { WatchIndex } from "./watch-index.ts";
import { ERC20_TRANSFER_TOPIC } from "@chaingate/ethereum";

const ALICE = "a1".repeat(20);
const BOB = "b2".repeat(20);
const USDT = "a614f803b6fd780986a42c78ec9c7f77e6ded13c";
const word = (hex: string) => hex.padStart(64, "0");
const tokens: TronTokens = new Map([
  [USDT, { contract: USDT, displayContract: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", symbol: "USDT", decimals: 6 }],
]);

const data: TronBlockData = {
  block: {
    blockID: "0000000000000064aa",
    block_header: { raw_data: { number: 100, parentHash: "0000000000000063bb", timestamp: 1_700_000_000_000 } },
    transactions: [
      {
        txID: "trx",
        ret: [{ contractRet: "SUCCESS" }],
        raw_data: {
          contract: [
            { type: "TransferContract", parameter: { value: { owner_address: `41${BOB}`, to_address: `41${ALICE}`, amount: 1_500_000 } } },
          ],
        },
      },
      {
        txID: "trc10",
        ret: [{ contractRet: "SUCCESS" }],
        raw_data: {
          contract: [
            {
              type: "TransferAssetContract",
              parameter: {
                value: {
                  owner_address: `41${BOB}`,
                  to_address: `41${ALICE}`,
                  amount: "123456789012345678",
                  asset_name: Buffer.from("1000001").toString("hex"),
                },
              },
            },
          ],
        },
      },
      {
        txID: "usdt-ok",
        ret: [{ contractRet: "SUCCESS" }],
        raw_data: {
          contract: [
            {
              type: "TriggerSmartContract",
              parameter: {
                value: { owner_address: `41${BOB}`, contract_address: `41${USDT}`, data: `a9059cbb${word(ALICE)}${word("f4240")}` },
              },
            },
          ],
        },
      },
      {
        txID: "usdt-oom",
        ret: [{ contractRet: "OUT_OF_ENERGY" }],
        raw_data: {
          contract: [
            {
              type: "TriggerSmartContract",
              parameter: {
                value: { owner_address: `41${BOB}`, contract_address: `41${USDT}`, data: `a9059cbb${word(ALICE)}${word("2dc6c0")}` },
              },
            },
          ],
        },
      },
      {
        txID: "other",
        ret: [{ contractRet: "SUCCESS" }],
        raw_data: {
          contract: [{ type: "TransferContract", parameter: { value: { owner_address: `41${BOB}`, to_address: `41${BOB}`, amount: 1 } } }],
        },
      },
    ],
  },
  infos: [
    { id: "trx" },
    { id: "usdt-ok", log: [{ address: USDT, topics: [ERC20_TRANSFER_TOPIC, word(BOB), word(ALICE)], data: word("f4240") }] },
    // A Transfer log of a token off the whitelist is no USDT, whatever it claims.
    { id: "fake", log: [{ address: "cc".repeat(20), topics: [ERC20_TRANSFER_TOPIC, word(BOB), word(ALICE)], data: word("f4240") }] },
  ],
  trc10Decimals: new Map([["1000001", 6]]),
};

describe("Tron matching", () => {
  test("TRX, TRC-10 (by token id) and whitelisted TRC-20 logs, with their execution results", () => {
    const index = new WatchIndex();
    index.apply({
      webhookId: 3,
      coin: "TRX",
      addresses: [tronAddressFromEvmHex(ALICE).base58],
      isActive: true,
      deleted: false,
      version: 1,
    });
    const matches = matchTronBlock(data, index, tokens);
    expect(
      matches.map((m) => [
        m.transfer.txid,
        m.transfer.currency,
        m.transfer.amount,
        m.transfer.rawAmount,
        m.transfer.position,
        m.transfer.executionStatus,
      ]),
    ).toEqual([
      ["trx", "TRX", "1.5", "1500000", null, "SUCCESS"],
      ["trc10", "1000001", "123456789012.345678", "123456789012345678", null, "SUCCESS"],
      ["usdt-oom", "USDT", "3", "3000000", null, "OUT_OF_ENERGY"],
      ["usdt-ok", "USDT", "1", "1000000", 0, "SUCCESS"],
    ]);
    expect(matches[0]).toMatchObject({
      watchedAddress: tronAddressFromEvmHex(ALICE).base58,
      transfer: { from: tronAddressFromEvmHex(BOB).base58, to: tronAddressFromEvmHex(ALICE).base58, tokenContract: null },
    });
    expect(matches[3]!.transfer.tokenContract).toBe("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t");
  });

  test("the sending side is matched too", () => {
    const index = new WatchIndex();
    index.apply({ webhookId: 4, coin: "TRX", addresses: [tronAddressFromEvmHex(BOB).base58], isActive: true, deleted: false, version: 1 });
    const matches = matchTronBlock(data, index, tokens);
    // "other" pays BOB to BOB: one notification, not two.
    expect(matches.map((m) => m.transfer.txid)).toEqual(["trx", "trc10", "usdt-oom", "other", "usdt-ok"]);
    expect(new Set(matches.map((m) => m.watchedAddress))).toEqual(new Set([tronAddressFromEvmHex(BOB).base58]));
  });
});
