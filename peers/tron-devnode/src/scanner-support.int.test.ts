/**
 * What a scanner (issue 8) needs from the devnode: deterministic blocks, every transfer kind readable block by
 * block with its execution result and Transfer log, a solidified block that trails the head as on mainnet,
 * and chain reorganisations on demand.
 */
import { utils as tronWebUtils } from "tronweb";
import { describe, expect, it } from "vitest";
import type { TronDevnode } from "./index.ts";
import { useDevnode } from "./test-devnode.ts";
import type { DevnodeContext } from "./test-devnode.ts";
import type { JsonObject } from "./transaction-json.ts";

const USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const TRC10_ID = "1000001";
const TRANSFER_TOPIC = "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

interface BlockJson {
  blockID: string;
  block_header: { raw_data: { number: number; parentHash: string } };
  transactions?: { txID: string; ret: { contractRet: string }[]; raw_data: { contract: { type: string }[] } }[];
}

async function post<T = JsonObject>(devnode: TronDevnode, path: string, body: unknown = {}): Promise<T> {
  const response = await fetch(devnode.url + path, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json" },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

function freshAddress(): string {
  return tronWebUtils.accounts.generateAccount().address.base58;
}

/** Broadcasts a TRX, a TRC-10, a USDT and a too-low-fee_limit USDT transfer; returns their txIDs. */
async function sendEveryKind({ tronWeb, bob }: DevnodeContext): Promise<{ trx: string; trc10: string; usdt: string; outOfEnergy: string }> {
  const trx = await tronWeb.trx.sendTransaction(bob.base58, 1_000_000);
  const trc10 = await tronWeb.trx.sendToken(bob.base58, 500, TRC10_ID);
  const usdt = await tronWeb.contract().at(USDT);
  const usdtTx: string = await usdt.transfer(bob.base58, 2_000_000).send({ feeLimit: 150_000_000 });
  const outOfEnergy: string = await usdt.transfer(bob.base58, 3_000_000).send({ feeLimit: 1_000_000 });
  return { trx: trx.transaction.txID, trc10: trc10.transaction.txID, usdt: usdtTx, outOfEnergy };
}

describe("reading blocks as a scanner does", () => {
  const node = useDevnode();

  it("TRX, TRC-10, USDT and an OUT_OF_ENERGY USDT transfer land in the block produced on demand, with results and the Transfer log", async () => {
    const { devnode, alice, bob } = node;
    const sent = await sendEveryKind(node);
    const { number } = await devnode.produceBlock();

    const block = await post<BlockJson>(devnode, "/wallet/getblockbynum", { num: number });
    const results = Object.fromEntries(
      (block.transactions ?? []).map((tx) => [tx.txID, [tx.raw_data.contract[0]?.type, tx.ret[0]?.contractRet]]),
    );
    expect(results).toEqual({
      [sent.trx]: ["TransferContract", "SUCCESS"],
      [sent.trc10]: ["TransferAssetContract", "SUCCESS"],
      [sent.usdt]: ["TriggerSmartContract", "SUCCESS"],
      [sent.outOfEnergy]: ["TriggerSmartContract", "OUT_OF_ENERGY"],
    });

    const infos = await post<JsonObject[]>(devnode, "/wallet/gettransactioninfobyblocknum", { num: number });
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
    expect(await post(devnode, "/wallet/gettransactioninfobyblocknum", { num: number + 1 })).toEqual([]);
  });
});

describe("solidified block trailing the head (option solidLag)", () => {
  const LAG = 3;
  const node = useDevnode({ solidLag: LAG });

  it("/walletsolidity answers {} for a transaction in a block not yet solidified, as mainnet does ~19 blocks long", async () => {
    const { devnode, tronWeb, bob } = node;
    for (let produced = 0; produced < LAG; produced += 1) await devnode.produceBlock();
    const before = await tronWeb.trx.getBalance(bob.base58);
    const sent = await tronWeb.trx.sendTransaction(bob.base58, 4_000);
    const { number } = await devnode.produceBlock();
    const txid = { value: sent.transaction.txID };

    expect(await post(devnode, "/wallet/gettransactioninfobyid", txid)).toMatchObject({ blockNumber: number });
    expect(await post(devnode, "/walletsolidity/gettransactioninfobyid", txid)).toEqual({});
    expect(await post(devnode, "/walletsolidity/gettransactionbyid", txid)).toEqual({});
    expect(await tronWeb.trx.getTransactionInfo(sent.transaction.txID)).toEqual({});
    expect(await tronWeb.trx.getBalance(bob.base58)).toBe(before); // TronWeb's getBalance reads /walletsolidity
    expect(await tronWeb.trx.getUnconfirmedBalance(bob.base58)).toBe(before + 4_000);
    const solidHead = await post<BlockJson>(devnode, "/walletsolidity/getnowblock");
    expect(solidHead.block_header.raw_data.number).toBe(number - LAG);
    expect(await post(devnode, "/walletsolidity/getblockbynum", { num: number })).toEqual({});
    expect(await post(devnode, "/walletsolidity/gettransactioninfobyblocknum", { num: number })).toEqual([]);
    expect((await post(devnode, "/wallet/getnodeinfo")).solidityBlock).toBe(`Num:${number - LAG},ID:${solidHead.blockID}`);

    for (let produced = 0; produced < LAG; produced += 1) await devnode.produceBlock();
    expect(await tronWeb.trx.getTransactionInfo(sent.transaction.txID)).toMatchObject({ id: sent.transaction.txID, blockNumber: number });
    expect(await tronWeb.trx.getBalance(bob.base58)).toBe(before + 4_000);
  });

  it("refuses a negative lag", async () => {
    const { startTronDevnode } = await import("./index.ts");
    await expect(startTronDevnode({ port: 0, blockIntervalMs: 0, solidLag: -1 })).rejects.toThrow(/solidLag/);
  });
});

describe("chain reorganisation (devnode.reorg, POST /admin/reorg)", () => {
  const node = useDevnode();

  it("replaces block N by a different block at the same height; its transfers are gone (default: discarded)", async () => {
    const { devnode, tronWeb, bob } = node;
    const balance = await tronWeb.trx.getBalance(bob.base58);
    const sent = await sendEveryKind(node);
    const mined = await devnode.produceBlock();
    expect(await post(devnode, "/wallet/gettransactionbyid", { value: sent.usdt })).toHaveProperty("txID", sent.usdt);

    const reorg = await devnode.reorg(1);
    expect(reorg.dropped).toEqual([mined]);
    expect(reorg.produced).toHaveLength(1);
    expect(reorg.produced[0]?.number).toBe(mined.number);
    expect(reorg.produced[0]?.blockID).not.toBe(mined.blockID);
    expect(new Set(reorg.discarded)).toEqual(new Set(Object.values(sent)));

    const replacement = await post<BlockJson>(devnode, "/wallet/getblockbynum", { num: mined.number });
    expect(replacement.blockID).toBe(reorg.produced[0]?.blockID);
    expect(replacement).not.toHaveProperty("transactions");
    const parent = await post<BlockJson>(devnode, "/wallet/getblockbynum", { num: mined.number - 1 });
    expect(replacement.block_header.raw_data.parentHash).toBe(parent.blockID);
    expect(await post(devnode, "/wallet/getblockbyid", { value: mined.blockID })).toEqual({});
    expect(await post(devnode, "/wallet/gettransactionbyid", { value: sent.usdt })).toEqual({});
    expect(await post(devnode, "/wallet/gettransactioninfobyblocknum", { num: mined.number })).toEqual([]);
    expect(await tronWeb.trx.getBalance(bob.base58)).toBe(balance);
    const usdt = await tronWeb.contract().at(USDT);
    expect((await usdt.balanceOf(bob.base58).call()).toString()).toBe(bob.trc20[USDT]);
  });

  it("with requeue the dropped transfer comes back in a later block; a pending transaction whose TAPOS block was dropped is discarded", async () => {
    const { devnode, tronWeb } = node;
    const to = freshAddress();
    const mined = await tronWeb.trx.sendTransaction(to, 2_000_000);
    const block = await devnode.produceBlock();
    const stranded = await tronWeb.trx.sendTransaction(to, 3_000_000); // references block `block`, which the reorg drops

    const reorg = await devnode.reorg(1, { requeue: true });
    expect(reorg.requeued).toEqual([mined.transaction.txID]);
    expect(reorg.discarded).toEqual([stranded.transaction.txID]);
    expect(await post(devnode, "/wallet/gettransactionfrompending", { value: mined.transaction.txID })).toHaveProperty(
      "txID",
      mined.transaction.txID,
    );

    const later = await devnode.produceBlock();
    expect(later.number).toBe(block.number + 1);
    expect(await post(devnode, "/wallet/gettransactioninfobyid", { value: mined.transaction.txID })).toMatchObject({
      blockNumber: later.number,
    });
    expect(await tronWeb.trx.getBalance(to)).toBe(2_000_000);
  });

  it("over HTTP: POST /admin/reorg {depth, blocks} answers the dropped and produced blocks; bad input gets 400", async () => {
    const { devnode } = node;
    await devnode.produceBlock();
    const head = await post<BlockJson>(devnode, "/wallet/getnowblock");
    const reorg = await post<{ dropped: { number: number; blockID: string }[]; produced: { number: number }[] }>(devnode, "/admin/reorg", {
      depth: 2,
      blocks: 3,
    });
    expect(reorg.dropped.map((block) => block.number)).toEqual([head.block_header.raw_data.number - 1, head.block_header.raw_data.number]);
    expect(reorg.produced.map((block) => block.number)).toEqual([0, 1, 2].map((offset) => head.block_header.raw_data.number - 1 + offset));
    expect((await post<BlockJson>(devnode, "/wallet/getnowblock")).block_header.raw_data.number).toBe(
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

describe("internal transactions: TRX and TRC-10 a contract sends on (the forwarder)", () => {
  const node = useDevnode();
  const CALL_NOTE = "63616c6c"; // hex of "call"
  const FEE_LIMIT = 100_000_000;

  it("forward(to) with call_value, with call_token_value: java-tron's internal_transactions entries, and the balances really move", async () => {
    const { devnode, tronWeb, alice } = node;
    const forwarderHex = devnode.genesis.forwarder.hex;
    const trxTo = freshAddress();
    const tokenTo = freshAddress();
    const forwarder = await tronWeb.contract().at(devnode.genesis.forwarder.base58);
    const trxTx: string = await forwarder.forward(trxTo).send({ callValue: 1_500_000, feeLimit: FEE_LIMIT });
    const tokenTx: string = await forwarder.forward(tokenTo).send({ tokenId: TRC10_ID, tokenValue: 2_500_000, feeLimit: FEE_LIMIT });
    const { number } = await devnode.produceBlock();

    const block = await post<BlockJson>(devnode, "/wallet/getblockbynum", { num: number });
    expect((block.transactions ?? []).map((tx) => [tx.txID, tx.raw_data.contract[0]?.type, tx.ret[0]?.contractRet])).toEqual([
      [trxTx, "TriggerSmartContract", "SUCCESS"],
      [tokenTx, "TriggerSmartContract", "SUCCESS"],
    ]);
    const infos = await post<JsonObject[]>(devnode, "/wallet/gettransactioninfobyblocknum", { num: number });
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
    expect(await post(devnode, "/wallet/gettransactioninfobyid", { value: trxTx })).toEqual(byId.get(trxTx));

    expect(await tronWeb.trx.getBalance(trxTo)).toBe(1_500_000);
    expect((await post(devnode, "/wallet/getaccount", { address: hex(tokenTo) })).assetV2).toEqual([{ key: TRC10_ID, value: 2_500_000 }]);
    // Everything went on: the forwarder keeps nothing.
    const forwarderAccount = await post(devnode, "/wallet/getaccount", { address: forwarderHex });
    expect(forwarderAccount).toMatchObject({ address: forwarderHex, type: "Contract" });
    expect(forwarderAccount).not.toHaveProperty("balance");
    expect(forwarderAccount.assetV2).toEqual([{ key: TRC10_ID, value: 0 }]);
    const fees = Number(byId.get(trxTx)?.fee ?? 0) + Number(byId.get(tokenTx)?.fee ?? 0);
    expect(await tronWeb.trx.getBalance(alice.base58)).toBe(Number(alice.balanceSun) - 1_500_000 - fees);
  });
});
