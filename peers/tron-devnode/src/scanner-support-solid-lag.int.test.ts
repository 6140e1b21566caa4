/** What a scanner needs from the devnode: a solidified block that trails the head as on mainnet (option solidLag). */
import { describe, expect } from "vitest";
import { devnodeTest, postJson } from "./test-devnode.ts";

const LAG = 3;

interface BlockJson {
  blockID: string;
  block_header: { raw_data: { number: number } };
}

const it = devnodeTest;
devnodeTest.scoped({ devnodeOptions: { solidLag: LAG } });

describe("solidified block trailing the head (option solidLag)", () => {
  it("/walletsolidity answers {} for a transaction in a block not yet solidified, as mainnet does ~19 blocks long", async ({
    devnode,
    tronWeb,
    bob,
  }) => {
    for (let produced = 0; produced < LAG; produced += 1) await devnode.produceBlock();
    const before = await tronWeb.trx.getBalance(bob.base58);
    const sent = await tronWeb.trx.sendTransaction(bob.base58, 4_000);
    const { number } = await devnode.produceBlock();
    const txid = { value: sent.transaction.txID };

    expect(await postJson(devnode, "/wallet/gettransactioninfobyid", txid)).toMatchObject({ blockNumber: number });
    expect(await postJson(devnode, "/walletsolidity/gettransactioninfobyid", txid)).toEqual({});
    expect(await postJson(devnode, "/walletsolidity/gettransactionbyid", txid)).toEqual({});
    expect(await tronWeb.trx.getTransactionInfo(sent.transaction.txID)).toEqual({});
    expect(await tronWeb.trx.getBalance(bob.base58)).toBe(before); // TronWeb's getBalance reads /walletsolidity
    expect(await tronWeb.trx.getUnconfirmedBalance(bob.base58)).toBe(before + 4_000);
    const solidHead = await postJson<BlockJson>(devnode, "/walletsolidity/getnowblock");
    expect(solidHead.block_header.raw_data.number).toBe(number - LAG);
    expect(await postJson(devnode, "/walletsolidity/getblockbynum", { num: number })).toEqual({});
    expect(await postJson(devnode, "/walletsolidity/gettransactioninfobyblocknum", { num: number })).toEqual([]);
    expect((await postJson(devnode, "/wallet/getnodeinfo")).solidityBlock).toBe(`Num:${number - LAG},ID:${solidHead.blockID}`);

    for (let produced = 0; produced < LAG; produced += 1) await devnode.produceBlock();
    expect(await tronWeb.trx.getTransactionInfo(sent.transaction.txID)).toMatchObject({ id: sent.transaction.txID, blockNumber: number });
    expect(await tronWeb.trx.getBalance(bob.base58)).toBe(before + 4_000);
  });

  it("refuses a negative lag", async () => {
    const { startTronDevnode } = await import("./index.ts");
    await expect(startTronDevnode({ port: 0, blockIntervalMs: 0, solidLag: -1 })).rejects.toThrow(/solidLag/);
  });
});
