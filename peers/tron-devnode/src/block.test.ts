import { describe, expect, it } from "vitest";
import { sha256 } from "@noble/hashes/sha2";
import { computeBlockId, computeTxTrieRoot } from "./block.ts";
import { concatBytes, parseHex, toHex } from "./hex.ts";
import fixtures from "./fixtures/blocks.json" with { type: "json" };

describe("blockID (research §3)", () => {
  for (const header of fixtures.headers) {
    it(`reproduces real block ${header.raw_data.number}`, () => {
      const raw = header.raw_data;
      const id = computeBlockId({
        timestamp: raw.timestamp,
        txTrieRoot: parseHex(raw.txTrieRoot) as Uint8Array,
        parentHash: parseHex(raw.parentHash) as Uint8Array,
        number: raw.number,
        witnessId: 0,
        witnessAddress: parseHex(raw.witness_address) as Uint8Array,
        version: raw.version,
        accountStateRoot: new Uint8Array(),
      });
      expect(toHex(id)).toBe(header.blockID);
    });
  }
});

describe("txTrieRoot", () => {
  const a = Uint8Array.of(1);
  const b = Uint8Array.of(2);
  const c = Uint8Array.of(3);

  it("is 32 zero bytes for an empty block", () => {
    expect(toHex(computeTxTrieRoot([]))).toBe("00".repeat(32));
  });

  it("is the leaf hash for one transaction", () => {
    expect(toHex(computeTxTrieRoot([a]))).toBe(toHex(sha256(a)));
  });

  it("promotes an odd node unchanged", () => {
    const left = sha256(concatBytes(sha256(a), sha256(b)));
    expect(toHex(computeTxTrieRoot([a, b, c]))).toBe(toHex(sha256(concatBytes(left, sha256(c)))));
  });
});
