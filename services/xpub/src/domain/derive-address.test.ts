import { describe, expect, it } from "vitest";
import vectors from "./fixtures/bip84-vectors.json" with { type: "json" };
import { deriveAddress, deriveAddressOnChain } from "./derive-address.ts";
import { parseAccountZpub } from "./parse-account-zpub.ts";
import { BITCOIN_NETWORKS } from "@chaingate/bitcoin";

describe("deriveAddress follows BIP84", () => {
  for (const account of vectors.accounts) {
    for (const vector of account.addresses) {
      for (const network of BITCOIN_NETWORKS) {
        const expected = (vector as Record<string, unknown>)[network];
        if (typeof expected !== "string") continue;
        it(`${account.name}: ${vector.path} on ${network} (${vector.source})`, () => {
          const parsed = parseAccountZpub(account.zpub, network);
          const derived = vector.chain === 0 ? deriveAddress(parsed, vector.index) : deriveAddressOnChain(parsed, 1, vector.index);
          expect(derived).toEqual({ address: expected, index: vector.index, path: vector.path });
        });
      }
    }
  }

  it("issues distinct addresses for consecutive indexes", () => {
    const parsed = parseAccountZpub(vectors.accounts[0]!.zpub);
    const addresses = Array.from({ length: 50 }, (_, index) => deriveAddress(parsed, index).address);
    expect(new Set(addresses).size).toBe(50);
    for (const address of addresses) expect(address).toMatch(/^bc1q[02-9ac-hj-np-z]{38}$/);
  });

  for (const index of vectors.invalidIndexes) {
    it(`refuses index ${index}`, () => {
      const parsed = parseAccountZpub(vectors.accounts[0]!.zpub);
      expect(() => deriveAddress(parsed, index)).toThrow(expect.objectContaining({ code: "xpub_index_out_of_range" }));
    });
  }
});
