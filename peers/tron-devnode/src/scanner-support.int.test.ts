/**
 * What a scanner (issue 8) needs from the devnode: deterministic blocks, every transfer kind readable block by
 * block with its execution result and Transfer log, a solidified block that trails the head as on mainnet
 * (scanner-support-solid-lag), and chain reorganisations on demand (scanner-support-reorg); the forwarder's
 * internal transactions are in scanner-support-internal-transactions.
 */
import { describe, expect } from "vitest";
import { devnodeTest, postJson, sendEveryTransferKind } from "./test-devnode.ts";
import type { JsonObject } from "./transaction-json.ts";

const TRANSFER_TOPIC = "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

interface BlockJson {
  blockID: string;
  block_header: { raw_data: { number: number; parentHash: string } };
  transactions?: { txID: string; ret: { contractRet: string }[]; raw_data: { contract: { type: string }[] } }[];
}

const it = devnodeTest;

describe("reading blocks as a scanner does", () => {
  it("TRX, TRC-10, USDT and an OUT_OF_ENERGY USDT transfer land in the block produced on demand, with results and the Transfer log", async ({
    devnode,
    tronWeb,
    alice,
    bob,
  }) => {
    const sent = await sendEveryTransferKind({ tronWeb, bob });
    const { number } = await devnode.produceBlock();

    const block = await postJson<BlockJson>(devnode, "/wallet/getblockbynum", { num: number });
    const results = Object.fromEntries(
      (block.transactions ?? []).map((tx) => [tx.txID, [tx.raw_data.contract[0]?.type, tx.ret[0]?.contractRet]]),
    );
    expect(results).toEqual({
      [sent.trx]: ["TransferContract", "SUCCESS"],
      [sent.trc10]: ["TransferAssetContract", "SUCCESS"],
      [sent.usdt]: ["TriggerSmartContract", "SUCCESS"],
      [sent.outOfEnergy]: ["TriggerSmartContract", "OUT_OF_ENERGY"],
    });

    const infos = await postJson<JsonObject[]>(devnode, "/wallet/gettransactioninfobyblocknum", { num: number });
    const byId = new Map(infos.map((info) => [info.id, info]));
    expect(byId.size).toBe(4);
    expect(byId.get(sent.usdt)).toMatchObject({
      blockNumber: number,
      receipt: { result: "SUCCESS" },
      log: [
        {
          address: "a614f803b6fd780986a42c78ec9c7f77e6ded13c",
          topics: [TRANSFER_TOPIC, "0".repeat(24) + alice.hex.slice(2), "0".repeat(24) + bob.hex.slice(2)],
          data: (2_000_000).toString(16).padStart(64, "0"),
        },
      ],
    });
    expect(byId.get(sent.outOfEnergy)).toMatchObject({ result: "FAILED", receipt: { result: "OUT_OF_ENERGY" } });
    expect(byId.get(sent.outOfEnergy)).not.toHaveProperty("log");
    expect(byId.get(sent.trx)).not.toHaveProperty("result");
    expect(await postJson(devnode, "/wallet/gettransactioninfobyblocknum", { num: number + 1 })).toEqual([]);
  });
});
