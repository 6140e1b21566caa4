import { describe, expect, test } from "vitest";
import type { TronBlock, TronTransactionInfo } from "../domain/match-tron-block.ts";
import { BlockNotReadyError } from "../domain/scanner-errors.ts";
import { infosOfBlock, trc10Ids } from "./tron-block-source.ts";

const HEIGHT = 42;
const tx = (txID: string) => ({ txID, raw_data: { contract: [] } });
const block = (...txids: string[]): TronBlock => ({
  blockID: "b42",
  block_header: { raw_data: { number: HEIGHT, parentHash: "b41" } },
  ...(txids.length ? { transactions: txids.map(tx) } : {}),
});
const info = (id: string, blockNumber: number | string = HEIGHT) => ({ id, blockNumber, blockTimeStamp: 1 });

describe("Tron transaction infos are used only when they are exactly those of the block asked for", () => {
  test("one info per transaction of the block, of its height, in any order: the infos", () => {
    const infos = [info("aa02"), info("AA01")];
    expect(infosOfBlock(block("aa01", "aa02"), HEIGHT, infos)).toBe(infos);
  });

  test("an empty block: [] or java-tron's {} are fine", () => {
    expect(infosOfBlock(block(), HEIGHT, [])).toEqual([]);
    expect(infosOfBlock(block(), HEIGHT, {})).toEqual([]);
  });

  const notReady: Array<[string, TronBlock, Parameters<typeof infosOfBlock>[2], RegExp]> = [
    ["[] for a block with transactions (a lagging backend)", block("aa01"), [], /0 transaction infos for 1 transactions/],
    ["{} for a block with transactions", block("aa01"), {}, /0 transaction infos for 1 transactions/],
    ["fewer infos than transactions", block("aa01", "aa02"), [info("aa01")], /1 transaction infos for 2/],
    [
      "infos of other transactions (another fork's block)",
      block("aa01", "aa02"),
      [info("aa01"), info("bb02")],
      /not of the block's transactions \(bb02\)/,
    ],
    ["one transaction's info twice", block("aa01", "aa02"), [info("aa01"), info("aa01")], /not of the block's transactions/],
    ["an info of another height", block("aa01"), [info("aa01", HEIGHT + 1)], /the info of aa01 is of block 43/],
    ["an info without its block number", block("aa01"), [{ id: "aa01" }], /is of block undefined/],
    [
      "a block of another height",
      { ...block(), block_header: { raw_data: { number: HEIGHT - 1, parentHash: "b40" } } },
      [],
      /getblockbynum answered block 41/,
    ],
  ];
  test.each(notReady)("%s: BlockNotReadyError", (_name, tronBlock, infos, reason) => {
    let error: unknown;
    try {
      infosOfBlock(tronBlock, HEIGHT, infos);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(BlockNotReadyError);
    expect(error).toMatchObject({ retryable: true, details: { coin: "TRX", height: HEIGHT }, message: expect.stringMatching(reason) });
  });
});

describe("the TRC-10 ids whose precision a block needs", () => {
  const assetTransfer = (txID: string, assetName: string) => ({
    txID,
    raw_data: { contract: [{ type: "TransferAssetContract", parameter: { value: { asset_name: assetName } } }] },
  });

  test("TransferAssetContracts' and internal transactions' token ids; TRX and malformed ids are not asked for", () => {
    const tronBlock: TronBlock = { ...block(), transactions: [assetTransfer("aa01", Buffer.from("1000001").toString("hex")), tx("aa02")] };
    const internal = (callValueInfo: unknown) => ({
      caller_address: "41" + "a1".repeat(20),
      transferTo_address: "41" + "b2".repeat(20),
      callValueInfo,
    });
    const infos = [
      { id: "aa01" },
      {
        id: "aa02",
        internal_transactions: [
          internal([{}, { callValue: 5, tokenId: "1000002" }]),
          internal([{ callValue: 7 }]),
          internal([{ callValue: 1, tokenId: "USDT" }, { callValue: 1, tokenId: 1000003 }, null]),
          internal("not a list"),
          null,
        ],
      },
    ] as unknown as TronTransactionInfo[];
    expect(trc10Ids(tronBlock, infos)).toEqual(new Set(["1000001", "1000002"]));
  });
});
