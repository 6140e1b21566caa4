import { hex } from "@scure/base";
import { describe, expect, it } from "vitest";
import { parsePrivateKey, signTransactionId, transactionId } from "./sign-transaction.ts";

// research §2.1: generated with tronweb 6.5.1, private key 0x…01.
const KEY = hex.decode("0000000000000000000000000000000000000000000000000000000000000001");
const TRX_TRANSFER = {
  rawDataHex:
    "0a02b4002208111111111111111140e08c87a1f7325a67080112630a2d747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e5472616e73666572436f6e747261637412320a15417e5f4552091a69125d5dfcb7b8c2659029395bdf12154192ad11c1bf16b3b14b0bd6b5c7e2db73a0b5e83a18c0843d7080b883a1f732",
  txId: "087051c6aa1f3ffad5e5087e89096426470a490e1909aee3d1369daac9da5f6c",
  signature:
    "41354594ae75ca65ce07d8cee5926fe22a1a6a4079e2bb3d6910b9422f7fd00f5409798112727d30043e635e908f88c9d66eb8e5e83e432f002b37f5d0e183981C",
};

// The signature vectors live beside @chaingate/tron's signing; this checks the text forms.
describe("local signing (research §2)", () => {
  it("writes the txID and the signature of a TRX transfer as TronWeb does (v in upper case)", () => {
    expect(transactionId(TRX_TRANSFER.rawDataHex.toUpperCase())).toBe(TRX_TRANSFER.txId);
    expect(signTransactionId(TRX_TRANSFER.txId, KEY)).toBe(TRX_TRANSFER.signature);
  });

  it("reads a private key of 64 hex digits (0x allowed) that is a valid scalar, nothing else", () => {
    expect(parsePrivateKey(`0x${"0".repeat(63)}1`)).toEqual(KEY);
    for (const bad of ["", "1", "0".repeat(64), "f".repeat(64), "g".repeat(64), "0".repeat(63) + "1 "])
      expect(parsePrivateKey(bad), bad).toBeUndefined();
  });
});
