import { hex } from "@scure/base";
import { describe, expect, it } from "vitest";
import { recoverTronSigner, signTronTransactionId, tronTransactionId } from "./tron-signature.ts";

// research §2.1: generated with tronweb 6.5.1, private key 0x…01 (address TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC).
const KEY = hex.decode("0000000000000000000000000000000000000000000000000000000000000001");
const SIGNER = "TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC";
const VECTORS = [
  {
    name: "a TRX transfer",
    rawDataHex:
      "0a02b4002208111111111111111140e08c87a1f7325a67080112630a2d747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e5472616e73666572436f6e747261637412320a15417e5f4552091a69125d5dfcb7b8c2659029395bdf12154192ad11c1bf16b3b14b0bd6b5c7e2db73a0b5e83a18c0843d7080b883a1f732",
    txId: "087051c6aa1f3ffad5e5087e89096426470a490e1909aee3d1369daac9da5f6c",
    signature:
      "41354594ae75ca65ce07d8cee5926fe22a1a6a4079e2bb3d6910b9422f7fd00f5409798112727d30043e635e908f88c9d66eb8e5e83e432f002b37f5d0e183981c",
  },
  {
    name: "a USDT transfer",
    rawDataHex:
      "0a02b4002208111111111111111140e08c87a1f7325aae01081f12a9010a31747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e54726967676572536d617274436f6e747261637412740a15417e5f4552091a69125d5dfcb7b8c2659029395bdf121541a614f803b6fd780986a42c78ec9c7f77e6ded13c2244a9059cbb00000000000000000000000092ad11c1bf16b3b14b0bd6b5c7e2db73a0b5e83a00000000000000000000000000000000000000000000000000000000000f42407080b883a1f732900180c2d72f",
    txId: "c5783f14f46aa9251957ff401c34922c1738fe6d30e1ad074893d71abc25608c",
    signature:
      "d6fa8331b47e96f3b544f602daa6cf3e1d612a883c9be95643b66e15ddf7cb5623784e131dc31ad0226445e2386af67be8c7ba1c2d86ffe7c626eb70b15763c51c",
  },
];

describe("Tron transaction signatures (research §2)", () => {
  it.each(VECTORS)(
    "signs $name exactly as TronWeb does: txID = sha256(raw_data), r‖s‖v with v 27/28",
    ({ rawDataHex, txId, signature }) => {
      expect(hex.encode(tronTransactionId(hex.decode(rawDataHex)))).toBe(txId);
      expect(hex.encode(signTronTransactionId(hex.decode(txId), KEY))).toBe(signature);
    },
  );

  it.each(VECTORS)("recovers the signer of $name, with v as TronWeb (27/28) or java-tron (0/1) writes it", ({ txId, signature }) => {
    const bytes = hex.decode(signature);
    expect(recoverTronSigner(hex.decode(txId), bytes)?.base58).toBe(SIGNER);
    const javaStyle = Uint8Array.from(bytes);
    javaStyle[64] = bytes[64]! - 27;
    expect(recoverTronSigner(hex.decode(txId), javaStyle)?.base58).toBe(SIGNER);
  });

  it("recovers no signer from a truncated signature or an impossible v", () => {
    const { txId, signature } = VECTORS[0]!;
    const bytes = hex.decode(signature);
    expect(recoverTronSigner(hex.decode(txId), bytes.subarray(0, 64))).toBeUndefined();
    const badV = Uint8Array.from(bytes);
    badV[64] = 31;
    expect(recoverTronSigner(hex.decode(txId), badV)).toBeUndefined();
  });
});
