import { hex } from "@scure/base";
import { describe, expect, it } from "vitest";
import vectors from "./fixtures/tron-addresses.json" with { type: "json" };
import { addressAbiWord, addressFromPrivateKey, parseTronAddress, tronAddressFromPublicKey } from "./tron-address.ts";
import { secp256k1 } from "@noble/curves/secp256k1";

describe("Tron addresses", () => {
  it.each(vectors.valid)("reads $note in both forms", ({ base58, hex: hexForm }) => {
    expect(parseTronAddress(base58)).toEqual({ base58, hex: hexForm });
    expect(parseTronAddress(hexForm)).toEqual({ base58, hex: hexForm });
    expect(parseTronAddress(hexForm.toUpperCase())).toEqual({ base58, hex: hexForm });
  });

  it.each(vectors.valid.filter((vector) => vector.privateKey))(
    "derives $note from its private key",
    ({ privateKey, base58, hex: hexForm }) => {
      expect(addressFromPrivateKey(hex.decode(privateKey!))).toEqual({ base58, hex: hexForm });
      expect(tronAddressFromPublicKey(secp256k1.getPublicKey(hex.decode(privateKey!), true))).toEqual({ base58, hex: hexForm });
    },
  );

  it.each(vectors.invalid)("refuses $note", ({ text }) => {
    expect(parseTronAddress(text)).toBeUndefined();
  });

  it("writes the ABI word of an address: 12 zero bytes and the 20-byte EVM form (research §1)", () => {
    expect(addressAbiWord(parseTronAddress("TPLkz8rzTT7gKRS1bUm3hBcvw1EExAbKTV")!)).toBe(
      "00000000000000000000000092ad11c1bf16b3b14b0bd6b5c7e2db73a0b5e83a",
    );
  });
});
