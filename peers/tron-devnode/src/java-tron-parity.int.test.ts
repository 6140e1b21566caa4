/**
 * Behaviours where the devnode follows java-tron (v4.8) closely enough that a gateway or a scanner written
 * against it also works against mainnet. Each test names the java-tron code it mirrors. More of them, each
 * on a devnode of its own, in java-tron-parity-*.int.test.ts: energy, /jsonrpc limits, the forwarder's
 * internal transactions.
 */
import { describe, expect } from "vitest";
import type { TronDevnode } from "./index.ts";
import { devnodeTest, postJson, signJson } from "./test-devnode.ts";
import type { DevnodeContext } from "./test-devnode.ts";
import type { JsonObject } from "./transaction-json.ts";

const USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const USDD = "TPYmHEhy5n8TCEfYGqW2rPxsghSfzghPDn";
const USDT_HEX = "41a614f803b6fd780986a42c78ec9c7f77e6ded13c";
const FEE_LIMIT = 150_000_000;

const it = devnodeTest;

async function headNumber(devnode: TronDevnode): Promise<number> {
  return (await postJson<{ block_header: { raw_data: { number: number } } }>(devnode, "/wallet/getnowblock")).block_header.raw_data.number;
}

describe("TRC-20 return values (mainnet TetherToken)", () => {
  it("USDT transfer succeeds with a Transfer log but returns 32 zero bytes (false); USDD returns true", async ({
    tronWeb,
    bob,
    devnode,
  }) => {
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
  it("gettransactioninfobyblocknum past the head answers [] (Wallet.getTransactionInfoByBlockNum), {} for num <= 0", async ({
    devnode,
  }) => {
    const head = await headNumber(devnode);
    expect(await postJson(devnode, "/wallet/gettransactioninfobyblocknum", { num: head + 1 })).toEqual([]);
    expect(await postJson(devnode, "/walletsolidity/gettransactioninfobyblocknum", { num: head + 1000 })).toEqual([]);
    expect(await postJson(devnode, "/wallet/gettransactioninfobyblocknum", { num: 0 })).toEqual({});
  });

  it('getblockbylimitnext past the head answers {"block":[]} (BlockStore.getLimitNumber), partially past the head only the blocks that exist', async ({
    devnode,
  }) => {
    const head = await headNumber(devnode);
    expect(await postJson(devnode, "/wallet/getblockbylimitnext", { startNum: head + 1, endNum: head + 10 })).toEqual({ block: [] });
    const partial = (await postJson(devnode, "/wallet/getblockbylimitnext", { startNum: head, endNum: head + 10 })) as {
      block: { block_header: { raw_data: { number: number } } }[];
    };
    expect(partial.block.map((block) => block.block_header.raw_data.number)).toEqual([head]);
    expect(await postJson(devnode, "/wallet/getblockbylimitnext", { startNum: 5, endNum: 5 })).toEqual({}); // GetBlockByLimitNextServlet's range check
  });

  it("getblockbynum, getblock and getblockbyid of a missing block answer {} (GetBlockByNumServlet, GetBlockServlet)", async ({
    devnode,
  }) => {
    const head = await headNumber(devnode);
    expect(await postJson(devnode, "/wallet/getblockbynum", { num: head + 1 })).toEqual({});
    expect(await postJson(devnode, "/wallet/getblock", { id_or_num: String(head + 1) })).toEqual({});
    expect(await postJson(devnode, "/walletsolidity/getblockbynum", { num: head + 1 })).toEqual({});
  });
});

describe("broadcast follows Util.packTransaction and Manager.pushTransaction", () => {
  const hex = (text: string): string => Buffer.from(text).toString("hex");
  const created = async ({ devnode, alice, bob }: Omit<DevnodeContext, "tronWeb">, amount: number): Promise<JsonObject> =>
    await postJson(devnode, "/wallet/createtransaction", { owner_address: alice.hex, to_address: bob.hex, amount });
  const withRaw = (transaction: JsonObject, changes: JsonObject): JsonObject => ({
    ...transaction,
    raw_data: { ...(transaction.raw_data as JsonObject), ...changes },
  });

  it("drops contracts it cannot parse: a signed transfer plus an unknown contract entry is the transfer alone", async ({
    devnode,
    alice,
    bob,
  }) => {
    const signed = signJson(await created({ devnode, alice, bob }, 11), alice.privateKey);
    const contracts = (signed.raw_data as { contract: unknown[] }).contract;
    const padded = withRaw(signed, { contract: [...contracts, { type: "NoSuchContract", parameter: { value: {} } }, { parameter: {} }] });
    expect(await postJson(devnode, "/wallet/broadcasttransaction", padded)).toEqual({ result: true, txid: signed.txID });
  });

  it('an empty contract list answers CONTRACT_VALIDATE_ERROR "Contract validate error : No contract!" (Wallet.broadcastTransaction, 4.7.2+)', async ({
    devnode,
    alice,
    bob,
  }) => {
    const signed = signJson(await created({ devnode, alice, bob }, 12), alice.privateKey);
    const empty = withRaw(signed, { contract: [] });
    const answer = (await postJson(devnode, "/wallet/broadcasttransaction", empty)) as JsonObject;
    expect(answer).toMatchObject({ code: "CONTRACT_VALIDATE_ERROR", message: hex("Contract validate error : No contract!") });
    expect(answer).not.toHaveProperty("result");
  });

  it("checks the signature before TAPOS, the expiration window and duplicates (pushTransaction before processTransaction)", async ({
    devnode,
    alice,
    bob,
  }) => {
    const transaction = await created({ devnode, alice, bob }, 13);
    const foreign = (changes: JsonObject): JsonObject => signJson(withRaw(transaction, changes), bob.privateKey);
    const expectSigError = async (body: JsonObject): Promise<void> => {
      const answer = (await postJson(devnode, "/wallet/broadcasttransaction", body)) as { code: string; message: string };
      expect(answer.code).toBe("SIGERROR");
      expect(Buffer.from(answer.message, "hex").toString()).toMatch(/is signed by T\w+ but it is not contained of permission\.$/);
    };
    await expectSigError(foreign({ ref_block_hash: "0000000000000000" }));
    const expiration = ((transaction.raw_data as JsonObject).expiration as number) + 2 * 86_400_000;
    await expectSigError(foreign({ expiration }));
    expect(await postJson(devnode, "/wallet/broadcasttransaction", signJson(transaction, alice.privateKey))).toMatchObject({
      result: true,
    });
    await expectSigError(foreign({})); // the same txID, already pending, signed by someone else
  });

  it("still refuses an expiration before the next slot first, before the signature (TransactionCapsule.checkExpiration)", async ({
    devnode,
    alice,
    bob,
  }) => {
    const transaction = await created({ devnode, alice, bob }, 14);
    const stale = signJson(withRaw(transaction, { expiration: 1 }), bob.privateKey);
    expect(await postJson(devnode, "/wallet/broadcasttransaction", stale)).toMatchObject({
      code: "TRANSACTION_EXPIRATION_ERROR",
      message: hex("Transaction expired"),
    });
  });
});

describe("visible: where java-tron reads it, and what a wrong address form answers (PostParams, Util.getVisible, JsonFormat)", () => {
  const PARSE = "class org.tron.core.services.http.JsonFormat$ParseException : ";
  const get = async (devnode: TronDevnode, path: string): Promise<JsonObject> =>
    (await (await fetch(devnode.url + path)).json()) as JsonObject;

  it("a Base58 address without visible is a ParseException (INVALID hex String), not an empty account", async ({ devnode, alice }) => {
    // JsonFormat names the line:column where the refused value starts: {"address":"T… → 1:12.
    expect(await postJson(devnode, "/wallet/getaccount", { address: alice.base58 })).toEqual({ Error: PARSE + "1:12: INVALID hex String" });
    expect(await postJson(devnode, "/walletsolidity/getaccount", { address: alice.base58 })).toEqual({
      Error: PARSE + "1:12: INVALID hex String",
    });
    expect(await postJson(devnode, "/wallet/getaccount", `{\n  "visible": false,\n  "address": "${alice.base58}"\n}`)).toEqual({
      Error: PARSE + "3:14: INVALID hex String",
    });
    expect(await get(devnode, `/wallet/getaccount?address=${alice.base58}`)).toEqual({ Error: PARSE + "1:12: INVALID hex String" });
    expect(await get(devnode, `/wallet/getaccount?address=${alice.base58}&visible=true`)).toMatchObject({ address: alice.base58 });
  });

  it("hex with visible=true is a ParseException naming the first non-Base58 character, or a NullPointerException when the checksum fails", async ({
    devnode,
    alice,
  }) => {
    const zero = alice.hex.indexOf("0");
    expect(zero).toBeGreaterThan(0);
    expect(await postJson(devnode, "/wallet/getaccount", { address: alice.hex, visible: true })).toEqual({
      Error: `${PARSE}1:12: INVALID base58 String, Illegal character 0 at ${zero}`,
    });
    expect(await postJson(devnode, "/wallet/getaccount", { address: "41abcdef", visible: true })).toEqual({
      Error: "class java.lang.NullPointerException : null",
    });
  });

  it("a POST reads visible from its body only, never from the query string", async ({ devnode, alice }) => {
    const response = await fetch(`${devnode.url}/wallet/getaccount?visible=true`, {
      method: "POST",
      body: JSON.stringify({ address: alice.base58 }),
    });
    expect(await response.json()).toEqual({ Error: PARSE + "1:12: INVALID hex String" });
    expect(await postJson(devnode, "/wallet/getaccount", { address: alice.base58, visible: "true" })).toMatchObject({
      address: alice.base58,
    });
  });

  it("servlets whose POST delegates to GET (getnowblock, getnodeinfo, getchainparameters) read visible from the query only", async ({
    devnode,
  }) => {
    const witness = devnode.genesis.witness;
    const fromBody = (await postJson(devnode, "/wallet/getnowblock", { visible: true })) as {
      block_header: { raw_data: { witness_address: string } };
    };
    expect(fromBody.block_header.raw_data.witness_address).toBe(witness.hex);
    const response = await fetch(`${devnode.url}/wallet/getnowblock?visible=true`, { method: "POST", body: "{}" });
    expect(((await response.json()) as typeof fromBody).block_header.raw_data.witness_address).toBe(witness.base58);
  });

  it("builders and triggers: the same parse errors (triggersmartcontract as OTHER_ERROR with the exception text)", async ({
    devnode,
    alice,
    bob,
  }) => {
    expect(
      await postJson(devnode, "/wallet/createtransaction", { owner_address: alice.base58, to_address: bob.base58, amount: 1 }),
    ).toEqual({
      Error: PARSE + "1:18: INVALID hex String",
    });
    const trigger = (await postJson(devnode, "/wallet/triggersmartcontract", {
      owner_address: alice.base58,
      contract_address: USDT_HEX,
      function_selector: "decimals()",
      fee_limit: 1,
    })) as { result: { code: string; message: string } };
    expect(trigger.result.code).toBe("OTHER_ERROR");
    expect(Buffer.from(trigger.result.message, "hex").toString()).toBe(PARSE + "1:18: INVALID hex String");
  });
});
