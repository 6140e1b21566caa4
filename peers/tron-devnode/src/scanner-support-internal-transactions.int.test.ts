/** What a scanner needs from the devnode: the TRX and TRC-10 a contract sends on, as java-tron's internal transactions. */
import { utils as tronWebUtils } from "tronweb";
import { describe, expect } from "vitest";
import { devnodeTest, postJson } from "./test-devnode.ts";
import type { JsonObject } from "./transaction-json.ts";

const TRC10_ID = "1000001";

interface BlockJson {
  transactions?: { txID: string; ret: { contractRet: string }[]; raw_data: { contract: { type: string }[] } }[];
}

function freshAddress(): string {
  return tronWebUtils.accounts.generateAccount().address.base58;
}

const it = devnodeTest;

describe("internal transactions: TRX and TRC-10 a contract sends on (the forwarder)", () => {
  const CALL_NOTE = "63616c6c"; // hex of "call"
  const FEE_LIMIT = 100_000_000;

  it("forward(to) with call_value, with call_token_value: java-tron's internal_transactions entries, and the balances really move", async ({
    devnode,
    tronWeb,
    alice,
  }) => {
    const forwarderHex = devnode.genesis.forwarder.hex;
    const trxTo = freshAddress();
    const tokenTo = freshAddress();
    const forwarder = await tronWeb.contract().at(devnode.genesis.forwarder.base58);
    const trxTx: string = await forwarder.forward(trxTo).send({ callValue: 1_500_000, feeLimit: FEE_LIMIT });
    const tokenTx: string = await forwarder.forward(tokenTo).send({ tokenId: TRC10_ID, tokenValue: 2_500_000, feeLimit: FEE_LIMIT });
    const { number } = await devnode.produceBlock();

    const block = await postJson<BlockJson>(devnode, "/wallet/getblockbynum", { num: number });
    expect((block.transactions ?? []).map((tx) => [tx.txID, tx.raw_data.contract[0]?.type, tx.ret[0]?.contractRet])).toEqual([
      [trxTx, "TriggerSmartContract", "SUCCESS"],
      [tokenTx, "TriggerSmartContract", "SUCCESS"],
    ]);
    const infos = await postJson<JsonObject[]>(devnode, "/wallet/gettransactioninfobyblocknum", { num: number });
    const byId = new Map(infos.map((info) => [info.id, info]));
    const hex = (base58: string) => tronWebUtils.address.toHex(base58).toLowerCase();
    const hash = expect.stringMatching(/^[0-9a-f]{64}$/);
    const common = { hash, caller_address: forwarderHex, note: CALL_NOTE };
    // Exact entries: no `rejected` key (false is the proto3 default), the TRX element first even when it is 0.
    expect(byId.get(trxTx)?.internal_transactions).toEqual([
      { ...common, transferTo_address: hex(trxTo), callValueInfo: [{ callValue: 1_500_000 }] },
    ]);
    expect(byId.get(tokenTx)?.internal_transactions).toEqual([
      { ...common, transferTo_address: hex(tokenTo), callValueInfo: [{}] },
      { ...common, transferTo_address: hex(tokenTo), callValueInfo: [{}, { callValue: 2_500_000, tokenId: TRC10_ID }] },
    ]);
    const [first, second] = byId.get(tokenTx)?.internal_transactions as JsonObject[];
    expect(first?.hash).not.toBe(second?.hash);
    expect(byId.get(trxTx)).toMatchObject({ contract_address: forwarderHex, receipt: { result: "SUCCESS" }, blockNumber: number });
    expect(byId.get(trxTx)).not.toHaveProperty("result");
    expect(await postJson(devnode, "/wallet/gettransactioninfobyid", { value: trxTx })).toEqual(byId.get(trxTx));

    expect(await tronWeb.trx.getBalance(trxTo)).toBe(1_500_000);
    expect((await postJson(devnode, "/wallet/getaccount", { address: hex(tokenTo) })).assetV2).toEqual([
      { key: TRC10_ID, value: 2_500_000 },
    ]);
    // Everything went on: the forwarder keeps nothing.
    const forwarderAccount = await postJson(devnode, "/wallet/getaccount", { address: forwarderHex });
    expect(forwarderAccount).toMatchObject({ address: forwarderHex, type: "Contract" });
    expect(forwarderAccount).not.toHaveProperty("balance");
    expect(forwarderAccount.assetV2).toEqual([{ key: TRC10_ID, value: 0 }]);
    const fees = Number(byId.get(trxTx)?.fee ?? 0) + Number(byId.get(tokenTx)?.fee ?? 0);
    expect(await tronWeb.trx.getBalance(alice.base58)).toBe(Number(alice.balanceSun) - 1_500_000 - fees);
  });
});
