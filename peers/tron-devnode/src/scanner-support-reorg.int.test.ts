/** What a scanner needs from the devnode: chain reorganisations on demand, in code and over HTTP. */
import { utils as tronWebUtils } from "tronweb";
import { describe, expect } from "vitest";
import { devnodeTest, postJson, sendEveryTransferKind } from "./test-devnode.ts";

const USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";

interface BlockJson {
  blockID: string;
  block_header: { raw_data: { number: number; parentHash: string } };
  transactions?: { txID: string; ret: { contractRet: string }[]; raw_data: { contract: { type: string }[] } }[];
}

function freshAddress(): string {
  return tronWebUtils.accounts.generateAccount().address.base58;
}

const it = devnodeTest;

describe("chain reorganisation (devnode.reorg, POST /admin/reorg)", () => {
  it("replaces block N by a different block at the same height; its transfers are gone (default: discarded)", async ({
    devnode,
    tronWeb,
    bob,
  }) => {
    const balance = await tronWeb.trx.getBalance(bob.base58);
    const sent = await sendEveryTransferKind({ tronWeb, bob });
    const mined = await devnode.produceBlock();
    expect(await postJson(devnode, "/wallet/gettransactionbyid", { value: sent.usdt })).toHaveProperty("txID", sent.usdt);

    const reorg = await devnode.reorg(1);
    expect(reorg.dropped).toEqual([mined]);
    expect(reorg.produced).toHaveLength(1);
    expect(reorg.produced[0]?.number).toBe(mined.number);
    expect(reorg.produced[0]?.blockID).not.toBe(mined.blockID);
    expect(new Set(reorg.discarded)).toEqual(new Set(Object.values(sent)));

    const replacement = await postJson<BlockJson>(devnode, "/wallet/getblockbynum", { num: mined.number });
    expect(replacement.blockID).toBe(reorg.produced[0]?.blockID);
    expect(replacement).not.toHaveProperty("transactions");
    const parent = await postJson<BlockJson>(devnode, "/wallet/getblockbynum", { num: mined.number - 1 });
    expect(replacement.block_header.raw_data.parentHash).toBe(parent.blockID);
    expect(await postJson(devnode, "/wallet/getblockbyid", { value: mined.blockID })).toEqual({});
    expect(await postJson(devnode, "/wallet/gettransactionbyid", { value: sent.usdt })).toEqual({});
    expect(await postJson(devnode, "/wallet/gettransactioninfobyblocknum", { num: mined.number })).toEqual([]);
    expect(await tronWeb.trx.getBalance(bob.base58)).toBe(balance);
    const usdt = await tronWeb.contract().at(USDT);
    expect((await usdt.balanceOf(bob.base58).call()).toString()).toBe(bob.trc20[USDT]);
  });

  it("with requeue the dropped transfer comes back in a later block; a pending transaction whose TAPOS block was dropped is discarded", async ({
    devnode,
    tronWeb,
  }) => {
    const to = freshAddress();
    const mined = await tronWeb.trx.sendTransaction(to, 2_000_000);
    const block = await devnode.produceBlock();
    const stranded = await tronWeb.trx.sendTransaction(to, 3_000_000); // references block `block`, which the reorg drops

    const reorg = await devnode.reorg(1, { requeue: true });
    expect(reorg.requeued).toEqual([mined.transaction.txID]);
    expect(reorg.discarded).toEqual([stranded.transaction.txID]);
    expect(await postJson(devnode, "/wallet/gettransactionfrompending", { value: mined.transaction.txID })).toHaveProperty(
      "txID",
      mined.transaction.txID,
    );

    const later = await devnode.produceBlock();
    expect(later.number).toBe(block.number + 1);
    expect(await postJson(devnode, "/wallet/gettransactioninfobyid", { value: mined.transaction.txID })).toMatchObject({
      blockNumber: later.number,
    });
    expect(await tronWeb.trx.getBalance(to)).toBe(2_000_000);
  });

  it("over HTTP: POST /admin/reorg {depth, blocks} answers the dropped and produced blocks; bad input gets 400", async ({ devnode }) => {
    await devnode.produceBlock();
    const head = await postJson<BlockJson>(devnode, "/wallet/getnowblock");
    const reorg = await postJson<{ dropped: { number: number; blockID: string }[]; produced: { number: number }[] }>(
      devnode,
      "/admin/reorg",
      {
        depth: 2,
        blocks: 3,
      },
    );
    expect(reorg.dropped.map((block) => block.number)).toEqual([head.block_header.raw_data.number - 1, head.block_header.raw_data.number]);
    expect(reorg.produced.map((block) => block.number)).toEqual([0, 1, 2].map((offset) => head.block_header.raw_data.number - 1 + offset));
    expect((await postJson<BlockJson>(devnode, "/wallet/getnowblock")).block_header.raw_data.number).toBe(
      head.block_header.raw_data.number + 1,
    );

    for (const body of [{ depth: 0 }, { depth: 1_000_000 }, { depth: "1" }, { depth: 1, blocks: -1 }, { depth: 1, requeue: "yes" }]) {
      const response = await fetch(`${devnode.url}/admin/reorg`, { method: "POST", body: JSON.stringify(body) });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/depth|blocks|requeue/);
    }
    expect((await fetch(`${devnode.url}/admin/reorg`)).status).toBe(405);
  });
});
