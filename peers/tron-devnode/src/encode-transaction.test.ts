import { utils as tronWebUtils } from "tronweb";
import { describe, expect, it } from "vitest";
import { encodeTransaction, encodeTransactionRaw, transactionId } from "./encode-transaction.ts";
import { parseHex, toHex } from "./hex.ts";
import { recoverSigner, signTransactionId } from "./sign-transaction.ts";
import { parseTransactionJson, printTransaction } from "./transaction-json.ts";
import type { JsonObject } from "./transaction-json.ts";
import fixtures from "./fixtures/transactions.json" with { type: "json" };

describe("transaction encoding (research §2.1 vectors)", () => {
  for (const vector of fixtures.vectors) {
    describe(vector.name, () => {
      const transaction = parseTransactionJson(vector.transaction as JsonObject, false);

      it("serialises raw_data to the exact raw_data_hex", () => {
        expect(toHex(encodeTransactionRaw(transaction.raw))).toBe(vector.raw_data_hex);
      });

      it("computes txID as sha256(raw_data)", () => {
        expect(toHex(transactionId(transaction.raw))).toBe(vector.txID);
      });

      it("prints raw_data that TronWeb's own encoder re-encodes to the same bytes", () => {
        const printed = printTransaction(transaction, false, true);
        expect(printed.raw_data_hex).toBe(vector.raw_data_hex);
        expect(tronWebUtils.transaction.txCheck(printed)).toBe(true);
      });

      if (vector.signature) {
        const signature = vector.signature;
        it("signs the txID exactly like TronWeb (RFC 6979, low-s, v=27/28)", () => {
          const txId = parseHex(vector.txID) as Uint8Array;
          expect(toHex(signTransactionId(txId, fixtures.privateKey))).toBe(signature.toLowerCase());
        });

        it("recovers the owner address from the signature", () => {
          const txId = parseHex(vector.txID) as Uint8Array;
          expect(toHex(recoverSigner(txId, parseHex(signature) as Uint8Array) as Uint8Array)).toBe(fixtures.ownerHex);
        });
      }
    });
  }
});

describe("signature recovery", () => {
  const txId = parseHex(fixtures.vectors[0]?.txID ?? "") as Uint8Array;
  const signature = parseHex(fixtures.vectors[0]?.signature ?? "") as Uint8Array;

  it("accepts java-style v = 0/1 as well as 27/28", () => {
    const javaStyle = Uint8Array.from(signature);
    javaStyle[64] = (signature[64] ?? 0) - 27;
    expect(toHex(recoverSigner(txId, javaStyle) as Uint8Array)).toBe(fixtures.ownerHex);
  });

  it("recovers a different address for another txID (a signature does not transfer)", () => {
    const otherTxId = parseHex(fixtures.vectors[1]?.txID ?? "") as Uint8Array;
    expect(toHex(recoverSigner(otherTxId, signature) ?? new Uint8Array())).not.toBe(fixtures.ownerHex);
  });

  it("refuses malformed signatures without throwing", () => {
    expect(recoverSigner(txId, signature.subarray(0, 64))).toBeUndefined();
    const badV = Uint8Array.from(signature);
    badV[64] = 99;
    expect(recoverSigner(txId, badV)).toBeUndefined();
    expect(recoverSigner(txId, new Uint8Array(65))).toBeUndefined();
  });
});

describe("encoding agrees with TronWeb's google-protobuf encoder on other shapes", () => {
  const owner = fixtures.ownerHex;
  const to = "4192ad11c1bf16b3b14b0bd6b5c7e2db73a0b5e83a";
  const header = {
    ref_block_bytes: "ffff",
    ref_block_hash: "0123456789abcdef",
    expiration: 1_760_000_060_000,
    timestamp: 1_760_000_000_000,
  };
  const cases: { name: string; raw: JsonObject }[] = [
    {
      name: "memo and large amount",
      raw: {
        ...header,
        data: "68656c6c6f",
        contract: [
          {
            type: "TransferContract",
            parameter: {
              value: { owner_address: owner, to_address: to, amount: 9_007_199_254_740_991 },
              type_url: "type.googleapis.com/protocol.TransferContract",
            },
          },
        ],
      },
    },
    {
      name: "permission id",
      raw: {
        ...header,
        contract: [
          {
            type: "TransferContract",
            Permission_id: 2,
            parameter: {
              value: { owner_address: owner, to_address: to, amount: 1 },
              type_url: "type.googleapis.com/protocol.TransferContract",
            },
          },
        ],
      },
    },
    {
      name: "trigger with call value and token",
      raw: {
        ...header,
        fee_limit: 15_000_000_000,
        contract: [
          {
            type: "TriggerSmartContract",
            parameter: {
              value: {
                owner_address: owner,
                contract_address: "41a614f803b6fd780986a42c78ec9c7f77e6ded13c",
                call_value: 5,
                data: "70a08231",
                call_token_value: 7,
                token_id: 1000001,
              },
              type_url: "type.googleapis.com/protocol.TriggerSmartContract",
            },
          },
        ],
      },
    },
  ];
  for (const testCase of cases) {
    it(testCase.name, () => {
      const transaction = parseTransactionJson({ raw_data: testCase.raw }, false);
      const ours = toHex(encodeTransactionRaw(transaction.raw));
      const theirs = tronWebUtils.transaction
        .txPbToRawDataHex(tronWebUtils.transaction.txJsonToPb({ raw_data: testCase.raw, visible: false }))
        .toLowerCase();
      expect(ours).toBe(theirs);
    });
  }

  it("serialises a signed transaction with its result (the txTrieRoot leaf) as protobuf expects", () => {
    const transaction = {
      ...parseTransactionJson(fixtures.vectors[0]?.transaction as JsonObject, false),
      signatures: [new Uint8Array([1, 2])],
      contractRet: "SUCCESS" as const,
    };
    const rawHex = fixtures.vectors[0]?.raw_data_hex ?? "";
    const rawLength = rawHex.length / 2; // 155: a two-byte varint
    const lengthVarint = toHex(Uint8Array.of((rawLength & 0x7f) | 0x80, rawLength >> 7));
    // raw (field 1) ‖ signature (field 2) ‖ ret (field 5: { contractRet (field 3) = SUCCESS (1) })
    expect(toHex(encodeTransaction(transaction))).toBe("0a" + lengthVarint + rawHex + "12020102" + "2a021801");
    expect(toHex(encodeTransaction(transaction, false))).toBe("0a" + lengthVarint + rawHex + "12020102");
  });
});
