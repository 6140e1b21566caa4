/**
 * The HTTP wire: block queries, the solidity twins, contract and asset reads, broadcasts and what they leave on
 * chain, and the admin endpoint. Bad input and `visible` are in wallet-api.int.test.ts.
 */
import { describe, expect } from "vitest";
import { computeBlockId, computeTxTrieRoot } from "./block.ts";
import { encodeTransaction } from "./encode-transaction.ts";
import { parseHex, toHex } from "./hex.ts";
import type { TronDevnode } from "./index.ts";
import { callDevnode, devnodeTest, signJson } from "./test-devnode.ts";
import { parseTransactionJson } from "./transaction-json.ts";
import type { JsonObject } from "./transaction-json.ts";

const USDT_HEX = "41a614f803b6fd780986a42c78ec9c7f77e6ded13c";

async function post(devnode: TronDevnode, path: string, body?: unknown): Promise<JsonObject> {
  const result = await callDevnode(devnode, path, body ?? "", { method: "POST" });
  expect(result.status).toBe(200);
  return result.json as JsonObject;
}

function utf8(hex: unknown): string {
  return Buffer.from(String(hex), "hex").toString("utf8");
}

const it = devnodeTest;

describe("blocks", () => {
  it("broadcasts, then serves the transaction in a block with a correct txTrieRoot and parentHash chain", async ({
    devnode,
    alice,
    bob,
  }) => {
    const created = await post(devnode, "/wallet/createtransaction", { owner_address: alice.hex, to_address: bob.hex, amount: 42 });
    const broadcast = await post(devnode, "/wallet/broadcasttransaction", signJson(created, alice.privateKey));
    expect(broadcast).toEqual({ result: true, txid: created.txID });
    expect(await post(devnode, "/wallet/gettransactionbyid", { value: created.txID })).toEqual({});
    expect(await post(devnode, "/wallet/gettransactioninfobyid", { value: created.txID })).toEqual({});

    const produced = await post(devnode, "/admin/produceblock");
    const number = (produced.block_header as { raw_data: { number: number } }).raw_data.number;
    const block = await post(devnode, "/wallet/getblockbynum", { num: number });
    expect(block.blockID).toBe(produced.blockID);
    const raw = (block.block_header as { raw_data: JsonObject }).raw_data;
    const parent = await post(devnode, "/wallet/getblockbynum", { num: number - 1 });
    expect(raw.parentHash).toBe(parent.blockID);
    const transactions = block.transactions as JsonObject[];
    expect(transactions.map((tx) => tx.txID)).toEqual([created.txID]);
    expect(transactions[0]).not.toHaveProperty("visible");
    const leaves = transactions.map((tx) => encodeTransaction({ ...parseTransactionJson(tx, false), contractRet: "SUCCESS" }));
    expect(raw.txTrieRoot).toBe(toHex(computeTxTrieRoot(leaves)));
    const recomputed = computeBlockId({
      number,
      timestamp: raw.timestamp as number,
      txTrieRoot: parseHex(raw.txTrieRoot as string) as Uint8Array,
      parentHash: parseHex(raw.parentHash as string) as Uint8Array,
      witnessId: 0,
      witnessAddress: parseHex(raw.witness_address as string) as Uint8Array,
      version: raw.version as number,
      accountStateRoot: new Uint8Array(),
    });
    expect(toHex(recomputed)).toBe(block.blockID);

    expect(await post(devnode, "/wallet/gettransactioninfobyblocknum", { num: number })).toEqual([
      await post(devnode, "/walletsolidity/gettransactioninfobyid", { value: created.txID }),
    ]);
    expect(await post(devnode, "/wallet/getblockbyid", { value: block.blockID })).toEqual(block);
  });

  it("getblock: head, by number, by id, detail=false strips transactions, bad ids", async ({ devnode }) => {
    await devnode.produceBlock();
    const head = await post(devnode, "/wallet/getnowblock");
    expect(await post(devnode, "/wallet/getblock", {})).toEqual(head);
    expect(await post(devnode, "/wallet/getblock", { detail: false })).not.toHaveProperty("transactions");
    const withTx = (await post(devnode, "/wallet/getblockbylatestnum", { num: 5 })).block as JsonObject[];
    const withTransactions = withTx.find((candidate) => candidate.transactions);
    expect(withTransactions).toBeDefined();
    expect(await post(devnode, "/wallet/getblock", { id_or_num: String(withTransactions?.blockID), detail: true })).toEqual(
      withTransactions,
    );
    expect(await post(devnode, "/wallet/getblock", { id_or_num: "nonsense" })).toEqual({ Error: "id must be legal block hash." });
    expect(await post(devnode, "/wallet/getblockbynum", { num: 999_999 })).toEqual({});
    expect(await post(devnode, "/wallet/getblockbyid", { value: "00".repeat(32) })).toEqual({});
  });

  it("getblockbylatestnum is ascending; getblockbylimitnext is [start, end)", async ({ devnode }) => {
    await devnode.produceBlock();
    const latest = (
      (await post(devnode, "/wallet/getblockbylatestnum", { num: 3 })).block as { block_header: { raw_data: { number: number } } }[]
    ).map((b) => b.block_header.raw_data.number);
    expect(latest).toHaveLength(3);
    expect(latest).toEqual([...latest].sort((a, b) => a - b));
    const range = (
      (await post(devnode, "/wallet/getblockbylimitnext", { startNum: 1, endNum: 3 })).block as {
        block_header: { raw_data: { number: number } };
      }[]
    ).map((b) => b.block_header.raw_data.number);
    expect(range).toEqual([1, 2]);
    expect(await post(devnode, "/wallet/getblockbylatestnum", { num: 0 })).toEqual({});
    expect(await post(devnode, "/wallet/getblockbylimitnext", { startNum: 0, endNum: 500 })).toEqual({});
    expect(await post(devnode, "/wallet/gettransactioninfobyblocknum", { num: 0 })).toEqual({});
  });
});

describe("confirmed state, contract and asset reads, and what broadcasts leave on chain, over HTTP", () => {
  it("the solidity twins serve confirmed state only", async ({ devnode, alice, bob }) => {
    const created = await post(devnode, "/wallet/createtransaction", { owner_address: alice.hex, to_address: bob.hex, amount: 1_000 });
    await post(devnode, "/wallet/broadcasttransaction", signJson(created, alice.privateKey));
    const pending = (await post(devnode, "/wallet/getaccount", { address: bob.hex })).balance as number;
    const confirmed = (await post(devnode, "/walletsolidity/getaccount", { address: bob.hex })).balance as number;
    expect(pending - confirmed).toBe(1_000);
    await devnode.produceBlock();
    expect((await post(devnode, "/walletsolidity/getaccount", { address: bob.hex })).balance).toBe(pending);
  });

  it("getcontract, getcontractinfo, getassetissuebyid, getnodeinfo, healthcheck", async ({ devnode, bob }) => {
    expect(await post(devnode, "/wallet/getcontract", { value: USDT_HEX })).toMatchObject({
      contract_address: USDT_HEX,
      abi: { entrys: expect.arrayContaining([expect.objectContaining({ name: "transfer", type: "Function" })]) },
    });
    expect((await callDevnode(devnode, `/wallet/getcontract?value=${USDT_HEX}`)).json).toMatchObject({ contract_address: USDT_HEX });
    expect(await post(devnode, "/wallet/getcontract", { value: bob.hex })).toEqual({});
    expect(await post(devnode, "/wallet/getcontractinfo", { value: USDT_HEX })).toHaveProperty("smart_contract.contract_address", USDT_HEX);
    expect(await post(devnode, "/wallet/getassetissuebyid", { value: "1000001" })).toMatchObject({
      id: "1000001",
      precision: 6,
      name: Buffer.from("DevToken").toString("hex"),
    });
    expect(await post(devnode, "/wallet/getassetissuebyid", { value: "1000002", visible: true })).toMatchObject({ name: "DevPoints" });
    expect(await post(devnode, "/wallet/getassetissuebyid", { value: "42" })).toEqual({});
    const info = await post(devnode, "/wallet/getnodeinfo");
    expect(info.block).toMatch(/^Num:\d+,ID:[0-9a-f]{64}$/);
    expect((await callDevnode(devnode, "/healthcheck")).status).toBe(200);
  });

  it("refuses a replay of a mined transaction and a TAPOS reference to a fake block over HTTP", async ({ devnode, alice, bob }) => {
    const created = await post(devnode, "/wallet/createtransaction", { owner_address: alice.hex, to_address: bob.hex, amount: 77 });
    const signedTx = signJson(created, alice.privateKey);
    expect((await post(devnode, "/wallet/broadcasttransaction", signedTx)).result).toBe(true);
    await devnode.produceBlock();
    expect(await post(devnode, "/wallet/broadcasttransaction", signedTx)).toMatchObject({
      code: "DUP_TRANSACTION_ERROR",
      message: Buffer.from("Dup transaction.").toString("hex"),
    });
    const fake = { ...created, raw_data: { ...(created.raw_data as JsonObject), ref_block_hash: "0000000000000000" } };
    expect(await post(devnode, "/wallet/broadcasttransaction", signJson(fake, alice.privateKey))).toMatchObject({
      code: "TAPOS_ERROR",
      message: Buffer.from("Tapos check error.").toString("hex"),
    });
  });

  it("shows OUT_OF_ENERGY over HTTP in the block, gettransactionbyid and gettransactioninfobyid", async ({ devnode, alice, bob }) => {
    const parameter = "0".repeat(24) + bob.hex.slice(2) + (1).toString(16).padStart(64, "0");
    const built = await post(devnode, "/wallet/triggersmartcontract", {
      owner_address: alice.hex,
      contract_address: USDT_HEX,
      function_selector: "transfer(address,uint256)",
      parameter,
      fee_limit: 500_000,
    });
    const transaction = built.transaction as JsonObject;
    expect((transaction.raw_data as JsonObject).fee_limit).toBe(500_000);
    expect(await post(devnode, "/wallet/broadcasttransaction", signJson(transaction, alice.privateKey))).toEqual({
      result: true,
      txid: transaction.txID,
    });
    await devnode.produceBlock();
    expect(await post(devnode, "/wallet/gettransactionbyid", { value: transaction.txID })).toMatchObject({
      ret: [{ contractRet: "OUT_OF_ENERGY" }],
    });
    const info = await post(devnode, "/wallet/gettransactioninfobyid", { value: transaction.txID });
    expect(info).toMatchObject({
      result: "FAILED",
      receipt: { result: "OUT_OF_ENERGY", energy_fee: 500_000, energy_usage_total: 5_000 },
      contractResult: [""],
    });
    expect(utf8(info.resMessage)).toMatch(/^Not enough energy for 'SSTORE' operation executing: curInvokeEnergyLimit\[5000\]/);
    expect(info).not.toHaveProperty("log");
    const visible = await post(devnode, "/wallet/gettransactioninfobyid", { value: transaction.txID, visible: true });
    expect(String(visible.resMessage)).toMatch(/^Not enough energy/);
    expect(visible.contract_address).toBe("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t");
  });
});
