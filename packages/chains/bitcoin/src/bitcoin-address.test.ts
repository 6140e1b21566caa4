import { hex } from "@scure/base";
import { describe, expect, it } from "vitest";
import vectors from "./fixtures/bitcoin-addresses.json" with { type: "json" };
import { normalizeBitcoinAddress, p2wpkhAddress } from "./bitcoin-address.ts";
import type { BitcoinNetwork } from "./bitcoin-network.ts";

describe("Bitcoin addresses", () => {
  it.each(vectors.valid)("accepts $note ($network) and stores its matching form", ({ network, input, stored }) => {
    expect(normalizeBitcoinAddress(input, network as BitcoinNetwork)).toBe(stored);
  });

  it.each(vectors.invalid)("refuses $input on $network ($note)", ({ network, input }) => {
    expect(normalizeBitcoinAddress(input, network as BitcoinNetwork)).toBeNull();
  });

  it("encodes the P2WPKH address of a public key (BIP173's example key)", () => {
    const publicKey = hex.decode("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798");
    expect(p2wpkhAddress(publicKey, "mainnet")).toBe("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4");
    expect(normalizeBitcoinAddress(p2wpkhAddress(publicKey, "litecoin-regtest"), "litecoin-regtest")).toMatch(/^rltc1q/);
  });
});
