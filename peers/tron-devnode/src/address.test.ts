import { describe, expect, it } from "vitest";
import { addressFromBase58, addressFromPrivateKey, addressToBase58, parseAddress, parseAnyAddress } from "./address.ts";
import { toHex } from "./hex.ts";
import fixtures from "./fixtures/addresses.json" with { type: "json" };

describe("Tron addresses (research §1, §11)", () => {
  for (const entry of fixtures.addresses) {
    it(`${entry.name}: Base58Check ⇄ 41-hex`, () => {
      expect(toHex(addressFromBase58(entry.base58) as Uint8Array)).toBe(entry.hex);
      expect(addressToBase58(parseAddress(entry.hex, false) as Uint8Array)).toBe(entry.base58);
      if (entry.privateKey) expect(toHex(addressFromPrivateKey(entry.privateKey))).toBe(entry.hex);
    });
  }

  it("parses the form that matches visible, and only that form", () => {
    const entry = fixtures.addresses[0] as { base58: string; hex: string };
    expect(parseAddress(entry.base58, true)).toBeDefined();
    expect(parseAddress(entry.hex, true)).toBeUndefined();
    expect(parseAddress(entry.base58, false)).toBeUndefined();
    expect(parseAddress(entry.hex.toUpperCase(), false)).toBeDefined();
  });

  for (const text of fixtures.invalid) {
    it(`refuses ${JSON.stringify(text)}`, () => {
      expect(parseAnyAddress(text)).toBeUndefined();
    });
  }
});
