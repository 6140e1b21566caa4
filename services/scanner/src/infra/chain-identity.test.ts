/** The chain's CAIP-2 id from a node identity, checked against the published ids of the mainnets. */
import { describe, expect, it } from "vitest";
import { bitcoinChainId, ethereumChainId, tronChainId } from "./chain-identity.ts";

describe("CAIP-2 chain ids from node identities", () => {
  it("Bitcoin: bip122 and the genesis hash's first 32 hex digits (CAIP-2's own example)", () => {
    expect(bitcoinChainId("genesis 000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f")).toBe(
      "bip122:000000000019d6689c085ae165831e93",
    );
  });

  it("Ethereum: eip155 and the decimal chain id, whatever the genesis", () => {
    expect(ethereumChainId("chain id 1, genesis 0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3")).toBe("eip155:1");
    expect(ethereumChainId("chain id 31337, genesis 0xabc")).toBe("eip155:31337");
  });

  it("Tron: tron:0x and the genesis block id's last 4 bytes, java-tron's eth_chainId for mainnet", () => {
    expect(tronChainId("genesis 00000000000000001ebf88508a03865c71d452e25f4d51194196a1d22b6653dc")).toBe("tron:0x2b6653dc");
  });
});
