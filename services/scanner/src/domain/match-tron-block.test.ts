import { describe, expect, test } from "vitest";

import { matchTronBlock, type TronBlockData, type TronInternalTransaction, type TronTokens } from "./match-tron-block.ts";
import { tronAddressFromEvmHex } from "@chaingate/tron";
import type { Match } from "./transfer.ts";
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

/** Internal transfers: a block where BOB calls a forwarding contract that pays ALICE and CAROL. */
const FORWARDER = "f0".repeat(20);
const CAROL = "c3".repeat(20);
const CALL_NOTE = Buffer.from("call").toString("hex");
const entry = (to: string, callValueInfo: TronInternalTransaction["callValueInfo"], extra: Record<string, unknown> = {}) => ({
  hash: "ab".repeat(32),
  caller_address: `41${FORWARDER}`,
  transferTo_address: `41${to}`,
  callValueInfo,
  note: CALL_NOTE,
  ...extra,
});
const trigger = (txID: string, contractRet: string | undefined) => ({
  txID,
  ...(contractRet === undefined ? { ret: [{}] } : { ret: [{ contractRet }] }),
  raw_data: {
    contract: [
      { type: "TriggerSmartContract", parameter: { value: { owner_address: `41${BOB}`, contract_address: `41${FORWARDER}`, data: "" } } },
    ],
  },
});
const internalData: TronBlockData = {
  block: {
    blockID: "00000000000000c8aa",
    block_header: { raw_data: { number: 200, parentHash: "00000000000000c7bb", timestamp: 1_700_000_000_000 } },
    transactions: [
      {
        txID: "plain",
        ret: [{ contractRet: "SUCCESS" }],
        raw_data: {
          contract: [
            { type: "TransferContract", parameter: { value: { owner_address: `41${BOB}`, to_address: `41${ALICE}`, amount: 700_000 } } },
          ],
        },
      },
      trigger("fwd", "SUCCESS"),
      trigger("reverted", "REVERT"),
      trigger("oom", "OUT_OF_ENERGY"),
      trigger("no-result", undefined),
    ],
  },
  infos: [
    // A TransferContract runs no contract code: an entry here would count its amount twice.
    { id: "plain", internal_transactions: [entry(ALICE, [{ callValue: 700_000 }])] },
    {
      id: "FWD",
      internal_transactions: [
        entry(ALICE, [{ callValue: 1_000_000 }]),
        entry(ALICE, [{}]),
        entry(ALICE, [{}, { callValue: 2_500_000, tokenId: "1000001" }]),
        entry(ALICE, [{ callValue: 3_000_000 }, { callValue: 40, tokenId: "1000002" }]),
        entry(ALICE, [{ callValue: 9 }], { rejected: true }),
        entry(CAROL, [{ callValue: "123456789012345678" }]),
      ],
    },
    // java-tron marks a failed transaction's entries rejected; the block's result decides even when it does not.
    { id: "reverted", internal_transactions: [entry(ALICE, [{ callValue: 5 }])] },
    { id: "oom", internal_transactions: [entry(ALICE, [{ callValue: 6 }]), entry(ALICE, [{}, { callValue: 7, tokenId: "1000001" }])] },
    { id: "no-result", internal_transactions: [entry(ALICE, [{ callValue: 8 }])] },
  ],
  trc10Decimals: new Map([
    ["1000001", 6],
    ["1000002", 0],
  ]),
};
const watching = (...watched: Array<[webhookId: number, hex: string]>) => {
  const index = new WatchIndex();
  for (const [webhookId, hex] of watched) {
    index.apply({ webhookId, coin: "TRX", addresses: [tronAddressFromEvmHex(hex).base58], isActive: true, deleted: false, version: 1 });
  }
  return index;
};
const summary = (m: Match) => [
  m.webhookId,
  m.transfer.txid,
  m.transfer.position,
  m.transfer.currency,
  m.transfer.amount,
  m.transfer.rawAmount,
  m.transfer.decimals,
];

describe("Tron internal transfers (internal_transactions: TRX and TRC-10 sent by a contract)", () => {
  test("TRX, TRC-10 and an entry carrying both, each at its entry's index; zero, rejected and failed transactions' entries are not", () => {
    const matches = matchTronBlock(internalData, watching([3, ALICE]), tokens);
    expect(matches.map(summary)).toEqual([
      [3, "plain", null, "TRX", "0.7", "700000", 6],
      [3, "fwd", 0, "TRX", "1", "1000000", 6],
      [3, "fwd", 2, "1000001", "2.5", "2500000", 6],
      [3, "fwd", 3, "TRX", "3", "3000000", 6],
      [3, "fwd", 3, "1000002", "40", "40", 0],
    ]);
    expect(matches[1]).toMatchObject({
      watchedAddress: tronAddressFromEvmHex(ALICE).base58,
      transfer: {
        coin: "TRX",
        from: tronAddressFromEvmHex(FORWARDER).base58,
        to: tronAddressFromEvmHex(ALICE).base58,
        tokenContract: null,
        executionStatus: "SUCCESS",
        internal: { traceAddress: null },
      },
    });
    // The transaction's own TRX transfer is no internal transfer.
    expect(matches[0]!.transfer.internal).toBeUndefined();
    // One transfer per (txid, position, currency): the event ids stay distinct.
    expect(new Set(matches.map((m) => `${m.transfer.txid}|${m.transfer.position}|${m.transfer.currency}`)).size).toBe(matches.length);
  });

  test("two webhooks: the receiver's and the sending contract's each get every internal transfer", () => {
    const matches = matchTronBlock(internalData, watching([3, CAROL], [5, FORWARDER]), tokens);
    expect(matches.map((m) => [...summary(m), m.watchedAddress])).toEqual([
      [5, "fwd", 0, "TRX", "1", "1000000", 6, tronAddressFromEvmHex(FORWARDER).base58],
      [5, "fwd", 2, "1000001", "2.5", "2500000", 6, tronAddressFromEvmHex(FORWARDER).base58],
      [5, "fwd", 3, "TRX", "3", "3000000", 6, tronAddressFromEvmHex(FORWARDER).base58],
      [5, "fwd", 3, "1000002", "40", "40", 0, tronAddressFromEvmHex(FORWARDER).base58],
      // Beyond 2^53: the block source hands it over as text, and it stays exact.
      [3, "fwd", 5, "TRX", "123456789012.345678", "123456789012345678", 6, tronAddressFromEvmHex(CAROL).base58],
      [5, "fwd", 5, "TRX", "123456789012.345678", "123456789012345678", 6, tronAddressFromEvmHex(FORWARDER).base58],
    ]);
    const toCarol = matches.filter((m) => m.transfer.position === 5);
    expect(toCarol[0]!.transfer).toBe(toCarol[1]!.transfer);
  });

  test("malformed entries are skipped, the well-formed ones beside them still matched", () => {
    const malformed: TronBlockData = {
      ...internalData,
      infos: [
        {
          id: "fwd",
          internal_transactions: [
            null,
            entry(ALICE, [{ callValue: -5 }, { callValue: 1.5 }, { callValue: "12abc" }, { callValue: 4, tokenId: "USDT" }]),
            { ...entry(ALICE, [{ callValue: 1 }]), caller_address: tronAddressFromEvmHex(FORWARDER).base58 },
            { ...entry(ALICE, [{ callValue: 1 }]), transferTo_address: undefined },
            entry(ALICE, [{ callValue: 1 }], { rejected: "true" }),
            entry(ALICE, "not a list" as unknown as TronInternalTransaction["callValueInfo"]),
            entry(ALICE, [{ callValue: 11 }, { callValue: 12 }]),
          ],
        } as unknown as TronBlockData["infos"][number],
        // An info of a transaction the block does not hold: its result is unknown.
        { id: "elsewhere", internal_transactions: [entry(ALICE, [{ callValue: 13 }])] },
      ],
    };
    expect(matchTronBlock(malformed, watching([3, ALICE]), tokens).map(summary)).toEqual([
      [3, "plain", null, "TRX", "0.7", "700000", 6],
      [3, "fwd", 6, "TRX", "0.000023", "23", 6],
    ]);
  });
});
