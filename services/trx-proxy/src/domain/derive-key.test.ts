import { describe, expect, it } from "vitest";
import { TronWeb } from "tronweb";
import { generateKey, keyFromMnemonic } from "./derive-key.ts";
import { parseTronAddress } from "@chaingate/tron";

// BIP-39's test mnemonic; TronWeb's own fromMnemonic is the reference for the path m/44'/195'/0'/0/{index}.
const MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

describe("key derivation of the deprecated endpoints", () => {
  it.each([0, 1, 7])("derives index %i as TronWeb's fromMnemonic does", (index) => {
    const expected = TronWeb.fromMnemonic(MNEMONIC, `m/44'/195'/0'/0/${index}`) as { privateKey: string; address: string };
    const derived = keyFromMnemonic(MNEMONIC, index)!;
    expect(derived.base58).toBe(expected.address);
    expect(`0x${derived.privateKey}`).toBe(expected.privateKey);
  });

  it("refuses a phrase with a bad checksum or unknown word", () => {
    expect(keyFromMnemonic(MNEMONIC.replace("about", "abandon"), 0)).toBeUndefined();
    expect(keyFromMnemonic("not a mnemonic at all", 0)).toBeUndefined();
  });

  it("generates a fresh key whose address matches it", () => {
    const [a, b] = [generateKey(), generateKey()];
    expect(a.privateKey).not.toBe(b.privateKey);
    expect(TronWeb.address.fromPrivateKey(a.privateKey)).toBe(a.base58);
    expect(parseTronAddress(a.base58)?.hex).toBe(a.hex);
  });
});
