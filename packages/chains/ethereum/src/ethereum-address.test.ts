import { secp256k1 } from "@noble/curves/secp256k1";
import { hex } from "@scure/base";
import { computeAddress, getAddress } from "ethers";
import { describe, expect, it } from "vitest";
import vectors from "./fixtures/ethereum-addresses.json" with { type: "json" };
import { ethereumAddressFromPublicKey, normalizeEthereumAddress, toChecksumAddress } from "./ethereum-address.ts";

describe("Ethereum addresses", () => {
  it.each(vectors.valid)("accepts $note and stores it lower-case", ({ input, stored }) => {
    expect(normalizeEthereumAddress(input)).toBe(stored);
  });

  it.each(vectors.invalid)("refuses $input ($note)", ({ input }) => {
    expect(normalizeEthereumAddress(input)).toBeNull();
  });
});

describe("Ethereum address encoding", () => {
  it("checksums like EIP-55 (ethers' getAddress as the reference)", () => {
    for (const lower of [
      "5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
      "fb6916095ca1df60bb79ce92ce3ea74c37c5d359",
      "dbf03b407c01e7cd3cbea99509d93f8dddc8c6fb",
      "d1220a0cf47c7b9be7a2e6ba89f429762e7b9adb",
    ]) {
      expect(toChecksumAddress(lower)).toBe(getAddress(`0x${lower}`));
      expect(toChecksumAddress(`0x${lower}`)).toBe(getAddress(`0x${lower}`));
    }
  });

  it("derives the address of a public key, compressed or not (ethers' computeAddress as the reference)", () => {
    const privateKey = secp256k1.utils.randomPrivateKey();
    const expected = computeAddress(`0x${hex.encode(secp256k1.getPublicKey(privateKey, false))}`).toLowerCase();
    expect(ethereumAddressFromPublicKey(secp256k1.getPublicKey(privateKey, true))).toBe(expected);
    expect(ethereumAddressFromPublicKey(secp256k1.getPublicKey(privateKey, false))).toBe(expected);
  });

  it("knows Hardhat's first dev account", () => {
    const privateKey = hex.decode("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
    expect(toChecksumAddress(ethereumAddressFromPublicKey(secp256k1.getPublicKey(privateKey, true)))).toBe(
      "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
    );
  });
});
