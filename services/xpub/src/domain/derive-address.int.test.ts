import { describe, expect } from "vitest";
import { integrationTest as it } from "@chaingate/testing/fixtures";
import { deriveAddress } from "./derive-address.ts";
import { parseAccountZpub } from "./parse-account-zpub.ts";

const BIP84_ACCOUNT_0 = "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs";

describe("addresses issued for litecoin-regtest are payable on the test chain", () => {
  it("the node accepts them as P2WPKH addresses it does not own", async ({ litecoind: node }) => {
    const account = parseAccountZpub(BIP84_ACCOUNT_0, "litecoin-regtest");
    for (let index = 0; index < 5; index++) {
      const { address } = deriveAddress(account, index);
      const info = await node.rpc<{ isvalid: boolean; iswitness: boolean; witness_version: number; witness_program: string }>(
        "validateaddress",
        [address],
      );
      expect(info).toMatchObject({ isvalid: true, iswitness: true, witness_version: 0 });
      expect(info.witness_program).toHaveLength(40);
      const mine = await node.walletRpc<{ ismine: boolean }>("getaddressinfo", [address]);
      expect(mine.ismine).toBe(false);
    }
  });

  it("a payment to an issued address lands in a block as an output to that address", async ({ litecoind: node }) => {
    const account = parseAccountZpub(BIP84_ACCOUNT_0, "litecoin-regtest");
    const { address } = deriveAddress(account, 3);
    const txid = await node.fundAddress(address, "0.5");
    const [blockHash] = await node.mine(1);
    const block = await node.rpc<{
      tx: Array<{ txid: string; vout: Array<{ value: number; scriptPubKey: { address?: string; addresses?: string[] } }> }>;
    }>("getblock", [blockHash, 2]);
    const tx = block.tx.find((candidate) => candidate.txid === txid);
    const output = tx?.vout.find((out) => (out.scriptPubKey.address ?? out.scriptPubKey.addresses?.[0]) === address);
    expect(output?.value).toBe(0.5);
  });

  it("mainnet addresses are refused by the regtest node (the network setting matters)", async ({ litecoind: node }) => {
    const { address } = deriveAddress(parseAccountZpub(BIP84_ACCOUNT_0, "mainnet"), 0);
    expect((await node.rpc<{ isvalid: boolean }>("validateaddress", [address])).isvalid).toBe(false);
  });
});
