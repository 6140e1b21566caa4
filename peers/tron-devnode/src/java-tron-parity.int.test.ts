/**
 * Behaviours where the devnode follows java-tron (v4.8) closely enough that a gateway or a scanner written
 * against it also works against mainnet. Each test names the java-tron code it mirrors.
 */
import { describe, expect, it } from "vitest";
import { startTronDevnode } from "./index.ts";
import { signJson, useDevnode } from "./test-devnode.ts";
import type { JsonObject } from "./transaction-json.ts";

const USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const USDD = "TPYmHEhy5n8TCEfYGqW2rPxsghSfzghPDn";
const USDT_HEX = "41a614f803b6fd780986a42c78ec9c7f77e6ded13c";
const FEE_LIMIT = 150_000_000;

const node = useDevnode();

async function post(path: string, body: unknown = {}): Promise<unknown> {
  const response = await fetch(node.devnode.url + path, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "Content-Type": "application/json" },
  });
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

  it('getblockbylimitnext past the head answers {"block":[]} (BlockStore.getLimitNumber), partially past the head only the blocks that exist', async () => {
    const head = await headNumber();
    expect(await post("/wallet/getblockbylimitnext", { startNum: head + 1, endNum: head + 10 })).toEqual({ block: [] });
    const partial = (await post("/wallet/getblockbylimitnext", { startNum: head, endNum: head + 10 })) as {
      block: { block_header: { raw_data: { number: number } } }[];
    };
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

describe("energy: current-mainnet-like costs with the dynamic energy penalty (VM.play, Program.spendEnergyWithPenalty)", () => {
  const transferTo = (to: string, amount: number): string => "0".repeat(24) + to.slice(2) + amount.toString(16).padStart(64, "0");

  it("a USDT transfer to a holder costs about 64 300 energy by default, the penalty in receipt.energy_penalty_total", async () => {
    const { tronWeb, bob, devnode } = node;
    const estimate = (await post("/wallet/estimateenergy", {
      owner_address: node.alice.hex,
      contract_address: USDT_HEX,
      function_selector: "transfer(address,uint256)",
      parameter: transferTo(bob.hex, 1),
    })) as { energy_required: number };
    expect(estimate.energy_required).toBe(64_376); // mainnet: about 64 285
    const usdt = await tronWeb.contract().at(USDT);
    const txid: string = await usdt.transfer(bob.base58, 1).send({ feeLimit: FEE_LIMIT });
    await devnode.produceBlock();
    const info = await tronWeb.trx.getTransactionInfo(txid);
    expect(info.receipt).toMatchObject({
      result: "SUCCESS",
      energy_usage_total: 64_376,
      energy_penalty_total: 49_745,
      energy_fee: 6_437_600,
    });
    expect(info.fee).toBe(6_437_600 + (info.receipt.net_fee ?? 0));
  });

  it("OUT_OF_ENERGY: resMessage carries penaltyEnergy[…] and the receipt energy_penalty_total", async () => {
    const { tronWeb, bob, devnode } = node;
    const usdt = await tronWeb.contract().at(USDT);
    const txid: string = await usdt.transfer(bob.base58, 1).send({ feeLimit: 5_000_000 }); // 50 000 energy: enough for 2020's cost, not today's
    await devnode.produceBlock();
    const info = await tronWeb.trx.getTransactionInfo(txid);
    expect(info.receipt).toMatchObject({ result: "OUT_OF_ENERGY", energy_usage_total: 50_000, energy_fee: 5_000_000 });
    expect(info.receipt.energy_penalty_total).toBeGreaterThan(0);
    expect(Buffer.from(info.resMessage ?? "", "hex").toString()).toBe(
      "Not enough energy for 'SSTORE' operation executing: curInvokeEnergyLimit[50000], curOpEnergy[20000], penaltyEnergy[68000], usedEnergy[0]",
    );
  });

  it("getcontractinfo reports the energy factor; triggerconstantcontract reports energy_penalty", async () => {
    expect(await post("/wallet/getcontractinfo", { value: USDT_HEX })).toMatchObject({ contract_state: { energy_factor: 34_000 } });
    const call = (await post("/wallet/triggerconstantcontract", {
      owner_address: node.alice.hex,
      contract_address: USDT_HEX,
      function_selector: "transfer(address,uint256)",
      parameter: transferTo(node.bob.hex, 1),
    })) as JsonObject;
    expect(call).toMatchObject({ energy_used: 64_376, energy_penalty: 49_745 });
  });
});

describe("energy costs are configurable", () => {
  const custom = useDevnode({ energy: { transfer: 20_000, energyFactor: 0 } });

  it("uses the configured base cost; with energyFactor 0 there is no penalty and java-tron's message without penaltyEnergy", async () => {
    const { tronWeb, bob, devnode } = custom;
    const usdt = await tronWeb.contract().at(USDT);
    const ok: string = await usdt.transfer(bob.base58, 1).send({ feeLimit: FEE_LIMIT });
    const short: string = await usdt.transfer(bob.base58, 1).send({ feeLimit: 1_000_000 });
    await devnode.produceBlock();
    const info = await tronWeb.trx.getTransactionInfo(ok);
    expect(info.receipt.energy_usage_total).toBe(20_000);
    expect(info.receipt).not.toHaveProperty("energy_penalty_total");
    const failed = await tronWeb.trx.getTransactionInfo(short);
    expect(Buffer.from(failed.resMessage ?? "", "hex").toString()).toBe(
      "Not enough energy for 'SSTORE' operation executing: curInvokeEnergyLimit[10000], curOpEnergy[20000], usedEnergy[0]",
    );
  });

  it("refuses a negative or unknown cost", async () => {
    await expect(startTronDevnode({ port: 0, blockIntervalMs: 0, energy: { transfer: -1 } })).rejects.toThrow(
      /transfer must be a non-negative integer/,
    );
    await expect(startTronDevnode({ port: 0, blockIntervalMs: 0, energy: { nope: 1 } as never })).rejects.toThrow(
      /unknown energy cost "nope"/,
    );
  });
});

describe("broadcast follows Util.packTransaction and Manager.pushTransaction", () => {
  const hex = (text: string): string => Buffer.from(text).toString("hex");
  const created = async (amount: number): Promise<JsonObject> =>
    (await post("/wallet/createtransaction", { owner_address: node.alice.hex, to_address: node.bob.hex, amount })) as JsonObject;
  const withRaw = (transaction: JsonObject, changes: JsonObject): JsonObject => ({
    ...transaction,
    raw_data: { ...(transaction.raw_data as JsonObject), ...changes },
  });

  it("drops contracts it cannot parse: a signed transfer plus an unknown contract entry is the transfer alone", async () => {
    const signed = signJson(await created(11), node.alice.privateKey);
    const contracts = (signed.raw_data as { contract: unknown[] }).contract;
    const padded = withRaw(signed, { contract: [...contracts, { type: "NoSuchContract", parameter: { value: {} } }, { parameter: {} }] });
    expect(await post("/wallet/broadcasttransaction", padded)).toEqual({ result: true, txid: signed.txID });
  });

  it('an empty contract list answers CONTRACT_VALIDATE_ERROR "Contract validate error : No contract!" (Wallet.broadcastTransaction, 4.7.2+)', async () => {
    const signed = signJson(await created(12), node.alice.privateKey);
    const empty = withRaw(signed, { contract: [] });
    const answer = (await post("/wallet/broadcasttransaction", empty)) as JsonObject;
    expect(answer).toMatchObject({ code: "CONTRACT_VALIDATE_ERROR", message: hex("Contract validate error : No contract!") });
    expect(answer).not.toHaveProperty("result");
  });

  it("checks the signature before TAPOS, the expiration window and duplicates (pushTransaction before processTransaction)", async () => {
    const transaction = await created(13);
    const foreign = (changes: JsonObject): JsonObject => signJson(withRaw(transaction, changes), node.bob.privateKey);
    const expectSigError = async (body: JsonObject): Promise<void> => {
      const answer = (await post("/wallet/broadcasttransaction", body)) as { code: string; message: string };
      expect(answer.code).toBe("SIGERROR");
      expect(Buffer.from(answer.message, "hex").toString()).toMatch(/is signed by T\w+ but it is not contained of permission\.$/);
    };
    await expectSigError(foreign({ ref_block_hash: "0000000000000000" }));
    const expiration = ((transaction.raw_data as JsonObject).expiration as number) + 2 * 86_400_000;
    await expectSigError(foreign({ expiration }));
    expect(await post("/wallet/broadcasttransaction", signJson(transaction, node.alice.privateKey))).toMatchObject({ result: true });
    await expectSigError(foreign({})); // the same txID, already pending, signed by someone else
  });

  it("still refuses an expiration before the next slot first, before the signature (TransactionCapsule.checkExpiration)", async () => {
    const transaction = await created(14);
    const stale = signJson(withRaw(transaction, { expiration: 1 }), node.bob.privateKey);
    expect(await post("/wallet/broadcasttransaction", stale)).toMatchObject({
      code: "TRANSACTION_EXPIRATION_ERROR",
      message: hex("Transaction expired"),
    });
  });
});

describe("/jsonrpc limits (LogFilterWrapper, JsonRpcApiUtil.getByJsonBlockId)", () => {
  const limited = useDevnode({ jsonRpcMaxBlockRange: 3 });

  async function rpc(method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
    const response = await fetch(`${limited.devnode.url}/jsonrpc`, {
      method: "POST",
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
  }

  it("eth_getLogs: the block range is limited (maxBlockRange, 5000 by default), fromBlock <= toBlock, blockHash excludes a range and must exist", async () => {
    for (let index = 0; index < 5; index += 1) await limited.devnode.produceBlock();
    const head = await limited.devnode.produceBlock();
    expect((await rpc("eth_getLogs", [{ fromBlock: "0x1", toBlock: "0x4" }])).result).toEqual([]);
    expect((await rpc("eth_getLogs", [{ fromBlock: "0x1", toBlock: "0x5" }])).error).toMatchObject({
      code: -32602,
      message: "exceed max block range: 3",
    });
    expect((await rpc("eth_getLogs", [{ fromBlock: "0x1" }])).error).toMatchObject({ code: -32602, message: "exceed max block range: 3" }); // to the head
    expect((await rpc("eth_getLogs", [{ fromBlock: "0x4", toBlock: "0x2" }])).error).toMatchObject({
      code: -32602,
      message: "please verify: fromBlock <= toBlock",
    });
    expect((await rpc("eth_getLogs", [{ blockHash: "0x" + head.blockID, fromBlock: "0x1" }])).error).toMatchObject({
      code: -32602,
      message: "cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other",
    });
    expect((await rpc("eth_getLogs", [{ blockHash: "0x" + "ab".repeat(32) }])).error).toMatchObject({
      code: -32602,
      message: "invalid blockHash",
    });
    expect((await rpc("eth_getLogs", [{ blockHash: "0x" + head.blockID }])).result).toEqual([]);
  });

  it("the pending tag is refused with -32602; balance reads accept only latest", async () => {
    expect((await rpc("eth_getLogs", [{ fromBlock: "pending" }])).error).toMatchObject({
      code: -32602,
      message: "TAG pending not supported",
    });
    expect((await rpc("eth_getBlockByNumber", ["pending", false])).error).toMatchObject({
      code: -32602,
      message: "TAG pending not supported",
    });
    expect((await rpc("eth_getBlockTransactionCountByNumber", ["pending"])).error).toMatchObject({
      code: -32602,
      message: "TAG pending not supported",
    });
    expect((await rpc("eth_getBalance", ["0x" + limited.alice.hex.slice(2), "pending"])).error).toMatchObject({
      code: -32602,
      message: "TAG [earliest | pending | finalized] not supported",
    });
    expect((await rpc("eth_getBalance", ["0x" + limited.alice.hex.slice(2), "0x1"])).error).toMatchObject({
      code: -32602,
      message: "QUANTITY not supported, just support TAG as latest",
    });
    expect((await rpc("eth_getBlockByNumber", ["finalized", false])).result).toMatchObject({ number: expect.stringMatching(/^0x/) });
  });
});

describe("visible: where java-tron reads it, and what a wrong address form answers (PostParams, Util.getVisible, JsonFormat)", () => {
  const PARSE = "class org.tron.core.services.http.JsonFormat$ParseException : ";
  const get = async (path: string): Promise<JsonObject> => (await (await fetch(node.devnode.url + path)).json()) as JsonObject;

  it("a Base58 address without visible is a ParseException (INVALID hex String), not an empty account", async () => {
    const { alice } = node;
    // JsonFormat names the line:column where the refused value starts: {"address":"T… → 1:12.
    expect(await post("/wallet/getaccount", { address: alice.base58 })).toEqual({ Error: PARSE + "1:12: INVALID hex String" });
    expect(await post("/walletsolidity/getaccount", { address: alice.base58 })).toEqual({ Error: PARSE + "1:12: INVALID hex String" });
    expect(await post("/wallet/getaccount", `{\n  "visible": false,\n  "address": "${alice.base58}"\n}`)).toEqual({
      Error: PARSE + "3:14: INVALID hex String",
    });
    expect(await get(`/wallet/getaccount?address=${alice.base58}`)).toEqual({ Error: PARSE + "1:12: INVALID hex String" });
    expect(await get(`/wallet/getaccount?address=${alice.base58}&visible=true`)).toMatchObject({ address: alice.base58 });
  });

  it("hex with visible=true is a ParseException naming the first non-Base58 character, or a NullPointerException when the checksum fails", async () => {
    const { alice } = node;
    const zero = alice.hex.indexOf("0");
    expect(zero).toBeGreaterThan(0);
    expect(await post("/wallet/getaccount", { address: alice.hex, visible: true })).toEqual({
      Error: `${PARSE}1:12: INVALID base58 String, Illegal character 0 at ${zero}`,
    });
    expect(await post("/wallet/getaccount", { address: "41abcdef", visible: true })).toEqual({
      Error: "class java.lang.NullPointerException : null",
    });
  });

  it("a POST reads visible from its body only, never from the query string", async () => {
    const { alice } = node;
    const response = await fetch(`${node.devnode.url}/wallet/getaccount?visible=true`, {
      method: "POST",
      body: JSON.stringify({ address: alice.base58 }),
    });
    expect(await response.json()).toEqual({ Error: PARSE + "1:12: INVALID hex String" });
    expect(await post("/wallet/getaccount", { address: alice.base58, visible: "true" })).toMatchObject({ address: alice.base58 });
  });

  it("servlets whose POST delegates to GET (getnowblock, getnodeinfo, getchainparameters) read visible from the query only", async () => {
    const witness = node.devnode.genesis.witness;
    const fromBody = (await post("/wallet/getnowblock", { visible: true })) as { block_header: { raw_data: { witness_address: string } } };
    expect(fromBody.block_header.raw_data.witness_address).toBe(witness.hex);
    const response = await fetch(`${node.devnode.url}/wallet/getnowblock?visible=true`, { method: "POST", body: "{}" });
    expect(((await response.json()) as typeof fromBody).block_header.raw_data.witness_address).toBe(witness.base58);
  });

  it("builders and triggers: the same parse errors (triggersmartcontract as OTHER_ERROR with the exception text)", async () => {
    const { alice, bob } = node;
    expect(await post("/wallet/createtransaction", { owner_address: alice.base58, to_address: bob.base58, amount: 1 })).toEqual({
      Error: PARSE + "1:18: INVALID hex String",
    });
    const trigger = (await post("/wallet/triggersmartcontract", {
      owner_address: alice.base58,
      contract_address: USDT_HEX,
      function_selector: "decimals()",
      fee_limit: 1,
    })) as { result: { code: string; message: string } };
    expect(trigger.result.code).toBe("OTHER_ERROR");
    expect(Buffer.from(trigger.result.message, "hex").toString()).toBe(PARSE + "1:18: INVALID hex String");
  });
});

describe("internal transactions of the forwarder (Program.callToAddress, VMActuator, TransactionUtil.buildInternalTransaction)", () => {
  const CALL_NOTE = Buffer.from("call").toString("hex");
  const TRC10_ID = "1000001";
  const hash = expect.stringMatching(/^[0-9a-f]{64}$/);
  const hexOf = (base58: string): string => node.tronWeb.address.toHex(base58).toLowerCase();
  const freshAddress = async (): Promise<string> => (await node.tronWeb.createAccount()).address.base58;
  const account = (address: string) => post("/wallet/getaccount", { address: hexOf(address) }) as Promise<JsonObject>;
  const forwarder = () => node.tronWeb.contract().at(node.devnode.genesis.forwarder.base58);
  type Info = JsonObject & { internal_transactions?: JsonObject[] };
  const mined = async (txid: string): Promise<{ info: Info; contractRet: string | undefined }> => {
    await node.devnode.produceBlock();
    const transaction = (await post("/wallet/gettransactionbyid", { value: txid })) as { ret?: { contractRet?: string }[] };
    return {
      info: (await post("/wallet/gettransactioninfobyid", { value: txid })) as Info,
      contractRet: transaction.ret?.[0]?.contractRet,
    };
  };

  it("a callee that fails inside a successful transaction: its entry has rejected:true and the value stays with the calling contract (internalTx.reject())", async () => {
    const forwarderHex = node.devnode.genesis.forwarder.hex;
    const before = Number((await account(node.devnode.genesis.forwarder.base58)).balance ?? 0);
    // tryForward makes a low-level call: USDT has no payable fallback, so the call fails and returns false.
    const txid: string = await (await forwarder()).tryForward(USDT).send({ callValue: 700_000, feeLimit: FEE_LIMIT });
    const { info, contractRet } = await mined(txid);
    expect(contractRet).toBe("SUCCESS");
    expect(info).toMatchObject({ receipt: { result: "SUCCESS" }, contractResult: ["0".repeat(64)] });
    expect(info).not.toHaveProperty("result");
    expect(info.internal_transactions).toEqual([
      {
        hash,
        caller_address: forwarderHex,
        transferTo_address: USDT_HEX,
        callValueInfo: [{ callValue: 700_000 }],
        note: CALL_NOTE,
        rejected: true,
      },
    ]);
    expect(Number((await account(node.devnode.genesis.forwarder.base58)).balance ?? 0)).toBe(before + 700_000);
    expect(await account(USDT)).not.toHaveProperty("balance");
  });

  it("a transaction that fails after its internal transfers: REVERT, every entry rejected, nothing moved (VMActuator's rejectInternalTransactions)", async () => {
    const { alice } = node;
    const to = await freshAddress();
    const balanceBefore = Number((await account(alice.base58)).balance);
    const tokenBefore = ((await account(alice.base58)).assetV2 as { key: string; value: number }[]).find((asset) => asset.key === TRC10_ID);
    const txid: string = await (await forwarder())
      .forwardAndRevert(to)
      .send({ callValue: 1_000_000, tokenId: TRC10_ID, tokenValue: 5, feeLimit: FEE_LIMIT });
    const { info, contractRet } = await mined(txid);
    expect(contractRet).toBe("REVERT");
    expect(info).toMatchObject({
      result: "FAILED",
      receipt: { result: "REVERT" },
      resMessage: Buffer.from("REVERT opcode executed").toString("hex"),
    });
    expect(Buffer.from((info.contractResult as string[])[0]!, "hex").toString()).toContain("forwardAndRevert");
    const entry = {
      hash,
      caller_address: node.devnode.genesis.forwarder.hex,
      transferTo_address: hexOf(to),
      note: CALL_NOTE,
      rejected: true,
    };
    expect(info.internal_transactions).toEqual([
      { ...entry, callValueInfo: [{ callValue: 1_000_000 }] },
      { ...entry, callValueInfo: [{}, { callValue: 5, tokenId: TRC10_ID }] },
    ]);
    expect(await account(to)).toEqual({});
    expect(Number((await account(alice.base58)).balance)).toBe(balanceBefore - Number(info.fee));
    expect(((await account(alice.base58)).assetV2 as { key: string }[]).find((asset) => asset.key === TRC10_ID)).toEqual(tokenBefore);

    // forward's transfer to a contract reverts the whole call (Solidity's transfer), with the entry rejected.
    const reverted: string = await (await forwarder()).forward(USDD).send({ callValue: 3, feeLimit: FEE_LIMIT });
    const second = await mined(reverted);
    expect(second.contractRet).toBe("REVERT");
    expect(second.info.internal_transactions).toEqual([{ ...entry, transferTo_address: hexOf(USDD), callValueInfo: [{ callValue: 3 }] }]);
  });

  it("OUT_OF_ENERGY between two CALLs: the entry made before is rejected, the whole limit burned; the CALL that did not fit has none (Program.spendEnergy)", async () => {
    const to = await freshAddress();
    // 300 (dispatch) + 34 700 (TRX to a new account) fit in 40 000; the token CALL's 9 700 do not.
    const txid: string = await (await forwarder())
      .forward(to)
      .send({ callValue: 1_000_000, tokenId: TRC10_ID, tokenValue: 5, feeLimit: 4_000_000 });
    const { info, contractRet } = await mined(txid);
    expect(contractRet).toBe("OUT_OF_ENERGY");
    expect(info).toMatchObject({
      result: "FAILED",
      receipt: { result: "OUT_OF_ENERGY", energy_usage_total: 40_000, energy_fee: 4_000_000 },
    });
    expect(Buffer.from(String(info.resMessage), "hex").toString()).toBe(
      "Not enough energy for 'CALL' operation executing: curInvokeEnergyLimit[40000], curOpEnergy[9700], usedEnergy[35000]",
    );
    expect(info.internal_transactions).toEqual([
      {
        hash,
        caller_address: node.devnode.genesis.forwarder.hex,
        transferTo_address: hexOf(to),
        callValueInfo: [{ callValue: 1_000_000 }],
        note: CALL_NOTE,
        rejected: true,
      },
    ]);
    expect(await account(to)).toEqual({});
  });

  it("visible=true prints caller_address and transferTo_address in Base58 (HttpSelfFormatFieldName); hash and note stay hex", async () => {
    const to = await freshAddress();
    const txid: string = await (await forwarder()).forward(to).send({ callValue: 42, feeLimit: FEE_LIMIT });
    const { info } = await mined(txid);
    const visible = (await post("/wallet/gettransactioninfobyid", { value: txid, visible: true })) as Info;
    expect(visible.internal_transactions).toEqual([
      {
        hash: info.internal_transactions?.[0]?.hash,
        caller_address: node.devnode.genesis.forwarder.base58,
        transferTo_address: to,
        callValueInfo: [{ callValue: 42 }],
        note: CALL_NOTE,
      },
    ]);
    expect(await post("/walletsolidity/gettransactioninfobyid", { value: txid })).toEqual(info);
  });

  it("what the caller sends is checked at broadcast (checkTokenValueAndId, MUtil.transferToken): CONTRACT_VALIDATE_ERROR", async () => {
    const { tronWeb, alice, bob } = node;
    const attempt = async (options: { tokenId: string; tokenValue: number }): Promise<string> => {
      const { transaction } = await tronWeb.transactionBuilder.triggerSmartContract(
        node.devnode.genesis.forwarder.base58,
        "forward(address)",
        { ...options, feeLimit: FEE_LIMIT },
        [{ type: "address", value: bob.base58 }],
        alice.base58,
      );
      const answer = await tronWeb.trx.sendRawTransaction(await tronWeb.trx.sign(transaction, alice.privateKey));
      expect(answer.code).toBe("CONTRACT_VALIDATE_ERROR");
      return Buffer.from(answer.message ?? "", "hex").toString();
    };
    expect(await attempt({ tokenId: TRC10_ID, tokenValue: 10 ** 15 })).toBe("Contract validate error : assetBalance is not sufficient.");
    expect(await attempt({ tokenId: "1000000", tokenValue: 1 })).toBe("Contract validate error : tokenId must be > 1000000");
    expect(await attempt({ tokenId: "1000099", tokenValue: 1 })).toBe("Contract validate error : No asset !");
  });

  it("getcontract shows the forwarder's payable ABI; constant calls and estimateenergy run it without moving anything", async () => {
    const { devnode, alice, bob } = node;
    const forwarderHex = devnode.genesis.forwarder.hex;
    expect(await post("/wallet/getcontract", { value: forwarderHex })).toMatchObject({
      contract_address: forwarderHex,
      name: "Forwarder",
      abi: { entrys: expect.arrayContaining([expect.objectContaining({ name: "forward", stateMutability: "Payable", payable: true })]) },
    });
    expect(await post("/wallet/getcontractinfo", { value: forwarderHex })).toMatchObject({ contract_state: {} });
    const call = {
      owner_address: alice.hex,
      contract_address: forwarderHex,
      function_selector: "forward(address)",
      parameter: "0".repeat(24) + bob.hex.slice(2),
      call_value: 5_000,
    };
    const before = await post("/wallet/getaccount", { address: bob.hex });
    // 300 (dispatch) + 700 (CALL) + 9 000 (value transfer to an existing account).
    expect(await post("/wallet/triggerconstantcontract", call)).toMatchObject({
      result: { result: true },
      energy_used: 10_000,
      constant_result: [""],
    });
    expect(await post("/wallet/estimateenergy", call)).toEqual({ result: { result: true }, energy_required: 10_000 });
    expect(await post("/wallet/getaccount", { address: bob.hex })).toEqual(before);
    expect(await post("/wallet/triggerconstantcontract", { ...call, call_value: 10 ** 15 })).toEqual({
      result: {
        code: "CONTRACT_VALIDATE_ERROR",
        message: Buffer.from("Validate InternalTransfer error, balance is not sufficient.").toString("hex"),
      },
    });
  });
});
