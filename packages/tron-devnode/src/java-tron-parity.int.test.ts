/**
 * Behaviours where the devnode follows java-tron (v4.8) closely enough that a gateway or a scanner written
 * against it also works against mainnet. Each test names the java-tron code it mirrors.
 */
import { describe, expect, it } from "vitest";
import { useDevnode } from "./test-devnode.ts";

const USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const USDD = "TPYmHEhy5n8TCEfYGqW2rPxsghSfzghPDn";
const FEE_LIMIT = 150_000_000;

const node = useDevnode();

async function post(path: string, body: unknown = {}): Promise<unknown> {
  const response = await fetch(node.devnode.url + path, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body), headers: { "Content-Type": "application/json" } });
  expect(response.status).toBe(200);
  return response.json();
}

async function headNumber(): Promise<number> {
  return ((await post("/wallet/getnowblock")) as { block_header: { raw_data: { number: number } } }).block_header.raw_data.number;
}

describe("TRC-20 return values (mainnet TetherToken)", () => {
  it("USDT transfer succeeds with a Transfer log but returns 32 zero bytes (false); USDD returns true", async () => {
    const { tronWeb, bob, devnode } = node;
    const usdt = await tronWeb.contract().at(USDT);
    const usdd = await tronWeb.contract().at(USDD);
    const usdtTx: string = await usdt.transfer(bob.base58, 5).send({ feeLimit: FEE_LIMIT });
    const usddTx: string = await usdd.transfer(bob.base58, 5).send({ feeLimit: FEE_LIMIT });
    await devnode.produceBlock();
    const usdtInfo = await tronWeb.trx.getTransactionInfo(usdtTx);
    expect(usdtInfo.receipt.result).toBe("SUCCESS");
    expect(usdtInfo.contractResult).toEqual(["0".repeat(64)]);
    expect(usdtInfo.log).toHaveLength(1);
    const usddInfo = await tronWeb.trx.getTransactionInfo(usddTx);
    expect(usddInfo.contractResult).toEqual(["0".repeat(63) + "1"]);
  });
});

describe("blocks that do not exist yet (a scanner must not step past the head)", () => {
  it("gettransactioninfobyblocknum past the head answers [] (Wallet.getTransactionInfoByBlockNum), {} for num <= 0", async () => {
    const head = await headNumber();
    expect(await post("/wallet/gettransactioninfobyblocknum", { num: head + 1 })).toEqual([]);
    expect(await post("/walletsolidity/gettransactioninfobyblocknum", { num: head + 1000 })).toEqual([]);
    expect(await post("/wallet/gettransactioninfobyblocknum", { num: 0 })).toEqual({});
  });

  it("getblockbylimitnext past the head answers {\"block\":[]} (BlockStore.getLimitNumber), partially past the head only the blocks that exist", async () => {
    const head = await headNumber();
    expect(await post("/wallet/getblockbylimitnext", { startNum: head + 1, endNum: head + 10 })).toEqual({ block: [] });
    const partial = (await post("/wallet/getblockbylimitnext", { startNum: head, endNum: head + 10 })) as { block: { block_header: { raw_data: { number: number } } }[] };
    expect(partial.block.map((block) => block.block_header.raw_data.number)).toEqual([head]);
    expect(await post("/wallet/getblockbylimitnext", { startNum: 5, endNum: 5 })).toEqual({}); // GetBlockByLimitNextServlet's range check
  });

  it("getblockbynum, getblock and getblockbyid of a missing block answer {} (GetBlockByNumServlet, GetBlockServlet)", async () => {
    const head = await headNumber();
    expect(await post("/wallet/getblockbynum", { num: head + 1 })).toEqual({});
    expect(await post("/wallet/getblock", { id_or_num: String(head + 1) })).toEqual({});
    expect(await post("/walletsolidity/getblockbynum", { num: head + 1 })).toEqual({});
  });
});
