/** The HTTP wire: java-tron's bodies for bad input, `visible`, block queries, solidity twins and the admin endpoint. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeBlockId, computeTxTrieRoot } from "./block.ts";
import { encodeTransaction } from "./encode-transaction.ts";
import { DEFAULT_ENERGY_COSTS, energyPenalty } from "./energy-costs.ts";
import { parseHex, toHex } from "./hex.ts";
import { startTronDevnode } from "./index.ts";
import type { DevAccount, TronDevnode } from "./index.ts";
import { signJson } from "./test-devnode.ts";
import { parseTransactionJson } from "./transaction-json.ts";
import type { JsonObject } from "./transaction-json.ts";

const USDT_HEX = "41a614f803b6fd780986a42c78ec9c7f77e6ded13c";
let devnode: TronDevnode;
let alice: DevAccount;
let bob: DevAccount;

async function call(path: string, body?: unknown, init: RequestInit = {}): Promise<{ status: number; json: unknown; text: string }> {
  const response = await fetch(devnode.url + path, {
    method: body === undefined && !init.method ? "GET" : "POST",
    ...(body === undefined
      ? {}
      : { body: typeof body === "string" ? body : JSON.stringify(body), headers: { "Content-Type": "application/json" } }),
    ...init,
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

async function post(path: string, body?: unknown): Promise<JsonObject> {
  const result = await call(path, body ?? "", { method: "POST" });
  expect(result.status).toBe(200);
  return result.json as JsonObject;
}

function utf8(hex: unknown): string {
  return Buffer.from(String(hex), "hex").toString("utf8");
}

beforeAll(async () => {
  devnode = await startTronDevnode({ port: 0, blockIntervalMs: 0 });
  [alice, bob] = devnode.genesis.accounts as [DevAccount, DevAccount];
});

afterAll(async () => {
  await devnode?.close();
});

describe("bad input gets java-tron's error bodies (HTTP 200), never a crash", () => {
  it("malformed JSON", async () => {
    const account = await call("/wallet/getaccount", "{not json", { method: "POST" });
    expect(account.status).toBe(200);
    expect((account.json as JsonObject).Error).toMatch(/^class com\.alibaba\.fastjson\.JSONException : /);
    expect(await post("/wallet/broadcasttransaction", '{"raw_data":')).toEqual({ Error: "class java.lang.NullPointerException : null" });
    expect((await post("/wallet/createtransaction", "[1,2]")).Error).toBe(
      "class com.alibaba.fastjson.JSONException : can not cast to JSONObject.",
    );
  });

  it("wrong address forms: JsonFormat's parse errors, {} for well-formed unknown addresses, actuator messages for short hex", async () => {
    expect(await post("/wallet/getaccount", { address: "41" + "00".repeat(20) })).toEqual({});
    expect((await post("/wallet/getaccount", { address: 12345 })).Error).toBe(
      "class org.tron.core.services.http.JsonFormat$ParseException : 1:12: Expected string.",
    );
    expect(await post("/wallet/createtransaction", { owner_address: alice.hex, to_address: "41abcd", amount: 1 })).toEqual({
      Error: "class org.tron.core.exception.ContractValidateException : Invalid toAddress!",
    });
    // Base58 alphabet, bad checksum: Commons.decodeFromBase58Check returns null and the servlet dereferences it.
    expect(
      await post("/wallet/createtransaction", { owner_address: "TNotAnAddress", to_address: bob.base58, amount: 1, visible: true }),
    ).toEqual({
      Error: "class java.lang.NullPointerException : null",
    });
  });

  it("absurd amounts", async () => {
    const body = { owner_address: alice.hex, to_address: bob.hex };
    expect((await post("/wallet/createtransaction", { ...body, amount: 1e30 })).Error).toMatch(
      /^class org\.tron\.core\.services\.http\.JsonFormat\$ParseException : /,
    );
    expect((await post("/wallet/createtransaction", { ...body, amount: "lots" })).Error).toMatch(/ParseException/);
    expect(await post("/wallet/createtransaction", { ...body, amount: -5 })).toEqual({
      Error: "class org.tron.core.exception.ContractValidateException : Amount must be greater than 0.",
    });
    expect(await post("/wallet/createtransaction", { ...body, amount: 9_000_000_000_000_000 })).toEqual({
      Error: "class org.tron.core.exception.ContractValidateException : Validate TransferContract error, balance is not sufficient.",
    });
    expect(await post("/wallet/transferasset", { ...body, asset_name: "31303030303939", amount: 1 })).toEqual({
      Error: "class org.tron.core.exception.ContractValidateException : No asset!",
    });
  });

  it("garbage transactions at broadcast", async () => {
    // Util.packTransaction drops contracts it cannot parse; an empty list is "No contract!" (java-tron 4.7.2+).
    const unknownType = await post("/wallet/broadcasttransaction", {
      raw_data: { contract: [{ type: "NopeContract", parameter: { value: {} } }] },
      visible: true,
    });
    expect(unknownType).toMatchObject({ code: "CONTRACT_VALIDATE_ERROR", message: "Contract validate error : No contract!" });
    // A java-tron contract type the devnode does not execute is refused rather than dropped (a devnode limitation).
    expect(
      (
        await post("/wallet/broadcasttransaction", {
          raw_data: { contract: [{ type: "FreezeBalanceV2Contract", parameter: { value: {} } }] },
        })
      ).Error,
    ).toMatch(/ParseException : Unsupported contract type/);
    // packTransaction returns null when raw_data itself does not parse: the servlet then fails with a NullPointerException.
    expect(await post("/wallet/broadcasttransaction", { raw_data: "x" })).toEqual({ Error: "class java.lang.NullPointerException : null" });
    const created = await post("/wallet/createtransaction", { owner_address: alice.hex, to_address: bob.hex, amount: 1 });
    const unsigned = await post("/wallet/broadcasttransaction", created);
    expect(unsigned).toEqual({
      code: "SIGERROR",
      txid: created.txID,
      message: Buffer.from("Validate signature error: miss sig or contract").toString("hex"),
    });
    const badHexSignature = await post("/wallet/broadcasttransaction", { ...created, signature: ["zz"] });
    expect(badHexSignature).toEqual({ Error: "class java.lang.NullPointerException : null" });
  });

  it("methods and paths java-tron does not serve", async () => {
    expect((await call("/wallet/broadcasttransaction")).status).toBe(405);
    expect((await call("/wallet/nosuchthing")).status).toBe(404);
    expect((await call("/nothing/here")).status).toBe(404);
  });

  it("an oversized body gets an error body", async () => {
    const big = JSON.stringify({ address: "41" + "0".repeat(5 * 1024 * 1024) });
    expect((await post("/wallet/getaccount", big)).Error).toBe("class java.lang.Exception : body size is too big, the limit is 4194304");
  });

  it("is still alive afterwards", async () => {
    expect((await post("/wallet/getnowblock")).blockID).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("requests and visible handling", () => {
  it("accepts empty POST bodies, form bodies and GET query parameters", async () => {
    const params = await call("/wallet/getchainparameters", "", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect((params.json as { chainParameter: { key: string; value?: number }[] }).chainParameter).toContainEqual({
      key: "getEnergyFee",
      value: 100,
    });
    const form = await call("/wallet/getaccount", `address=${alice.base58}&visible=true`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect((form.json as JsonObject).address).toBe(alice.base58);
    const get = await call(`/wallet/getaccount?address=${alice.hex}`);
    expect((get.json as JsonObject).balance).toBe(alice.balanceSun);
    expect((await call("/wallet/getnowblock?visible=true")).json).toMatchObject({
      block_header: { raw_data: { witness_address: devnode.genesis.witness.base58 } },
    });
  });

  it("prints accounts in java-tron's shape, Base58 with visible=true", async () => {
    const hex = await post("/wallet/getaccount", { address: alice.hex });
    expect(hex).toMatchObject({
      address: alice.hex,
      balance: alice.balanceSun,
      assetV2: [
        { key: "1000001", value: 1_000_000_000_000 },
        { key: "1000002", value: 1_000_000 },
      ],
      frozenV2: [{}, { type: "ENERGY" }, { type: "TRON_POWER" }],
      free_asset_net_usageV2: [
        { key: "1000001", value: 0 },
        { key: "1000002", value: 0 },
      ],
      owner_permission: { permission_name: "owner", threshold: 1, keys: [{ address: alice.hex, weight: 1 }] },
    });
    const visible = await post("/wallet/getaccount", { address: alice.base58, visible: true });
    expect(visible).toMatchObject({ address: alice.base58, owner_permission: { keys: [{ address: alice.base58 }] } });
    expect(await post("/wallet/getaccountresource", { address: alice.hex })).toMatchObject({ freeNetLimit: 600 });
  });

  it("builder responses are visible-aware and messages are hex unless visible", async () => {
    const visible = await post("/wallet/createtransaction", {
      owner_address: alice.base58,
      to_address: bob.base58,
      amount: 1,
      visible: true,
    });
    expect(visible).toMatchObject({
      visible: true,
      raw_data: { contract: [{ parameter: { value: { owner_address: alice.base58, to_address: bob.base58 } } }] },
    });
    const missing = await post("/wallet/triggersmartcontract", {
      owner_address: alice.hex,
      contract_address: bob.hex,
      function_selector: "transfer(address,uint256)",
      parameter: "",
      fee_limit: 1,
    });
    expect(missing).toEqual({
      result: { code: "CONTRACT_VALIDATE_ERROR", message: Buffer.from("No contract or not a valid smart contract").toString("hex") },
    });
    const missingVisible = await post("/wallet/triggerconstantcontract", {
      owner_address: alice.base58,
      contract_address: bob.base58,
      function_selector: "decimals()",
      visible: true,
    });
    expect(missingVisible).toEqual({ result: { code: "CONTRACT_VALIDATE_ERROR", message: "No contract or not a valid smart contract" } });
  });

  it("triggerconstantcontract returns constant_result and energy_used; a revert carries a hex message", async () => {
    const balance = await post("/wallet/triggerconstantcontract", {
      owner_address: alice.hex,
      contract_address: USDT_HEX,
      function_selector: "balanceOf(address)",
      parameter: "0".repeat(24) + alice.hex.slice(2),
    });
    expect(balance).toMatchObject({
      result: { result: true },
      energy_used: DEFAULT_ENERGY_COSTS.balanceOf + energyPenalty(DEFAULT_ENERGY_COSTS.balanceOf, DEFAULT_ENERGY_COSTS),
      constant_result: [
        BigInt(alice.trc20.TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t ?? 0)
          .toString(16)
          .padStart(64, "0"),
      ],
      transaction: { ret: [{}] },
    });
    const tooMuch = "0".repeat(24) + bob.hex.slice(2) + "f".repeat(64);
    const reverted = await post("/wallet/triggerconstantcontract", {
      owner_address: alice.hex,
      contract_address: USDT_HEX,
      function_selector: "transfer(address,uint256)",
      parameter: tooMuch,
    });
    expect(reverted).toMatchObject({
      result: { result: true, message: Buffer.from("REVERT opcode executed").toString("hex") },
      transaction: { ret: [{ ret: "FAILED" }] },
    });
    expect(String((reverted.constant_result as string[])[0]).slice(0, 8)).toBe("08c379a0");
  });
});

describe("blocks", () => {
  it("broadcasts, then serves the transaction in a block with a correct txTrieRoot and parentHash chain", async () => {
    const created = await post("/wallet/createtransaction", { owner_address: alice.hex, to_address: bob.hex, amount: 42 });
    const broadcast = await post("/wallet/broadcasttransaction", signJson(created, alice.privateKey));
    expect(broadcast).toEqual({ result: true, txid: created.txID });
    expect(await post("/wallet/gettransactionbyid", { value: created.txID })).toEqual({});
    expect(await post("/wallet/gettransactioninfobyid", { value: created.txID })).toEqual({});

    const produced = await post("/admin/produceblock");
    const number = (produced.block_header as { raw_data: { number: number } }).raw_data.number;
    const block = await post("/wallet/getblockbynum", { num: number });
    expect(block.blockID).toBe(produced.blockID);
    const raw = (block.block_header as { raw_data: JsonObject }).raw_data;
    const parent = await post("/wallet/getblockbynum", { num: number - 1 });
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

    expect(await post("/wallet/gettransactioninfobyblocknum", { num: number })).toEqual([
      await post("/walletsolidity/gettransactioninfobyid", { value: created.txID }),
    ]);
    expect(await post("/wallet/getblockbyid", { value: block.blockID })).toEqual(block);
  });

  it("getblock: head, by number, by id, detail=false strips transactions, bad ids", async () => {
    await devnode.produceBlock();
    const head = await post("/wallet/getnowblock");
    expect(await post("/wallet/getblock", {})).toEqual(head);
    expect(await post("/wallet/getblock", { detail: false })).not.toHaveProperty("transactions");
    const withTx = (await post("/wallet/getblockbylatestnum", { num: 5 })).block as JsonObject[];
    const withTransactions = withTx.find((candidate) => candidate.transactions);
    expect(withTransactions).toBeDefined();
    expect(await post("/wallet/getblock", { id_or_num: String(withTransactions?.blockID), detail: true })).toEqual(withTransactions);
    expect(await post("/wallet/getblock", { id_or_num: "nonsense" })).toEqual({ Error: "id must be legal block hash." });
    expect(await post("/wallet/getblockbynum", { num: 999_999 })).toEqual({});
    expect(await post("/wallet/getblockbyid", { value: "00".repeat(32) })).toEqual({});
  });

  it("getblockbylatestnum is ascending; getblockbylimitnext is [start, end)", async () => {
    await devnode.produceBlock();
    const latest = (
      (await post("/wallet/getblockbylatestnum", { num: 3 })).block as { block_header: { raw_data: { number: number } } }[]
    ).map((b) => b.block_header.raw_data.number);
    expect(latest).toHaveLength(3);
    expect(latest).toEqual([...latest].sort((a, b) => a - b));
    const range = (
      (await post("/wallet/getblockbylimitnext", { startNum: 1, endNum: 3 })).block as { block_header: { raw_data: { number: number } } }[]
    ).map((b) => b.block_header.raw_data.number);
    expect(range).toEqual([1, 2]);
    expect(await post("/wallet/getblockbylatestnum", { num: 0 })).toEqual({});
    expect(await post("/wallet/getblockbylimitnext", { startNum: 0, endNum: 500 })).toEqual({});
    expect(await post("/wallet/gettransactioninfobyblocknum", { num: 0 })).toEqual({});
  });

  it("the solidity twins serve confirmed state only", async () => {
    const created = await post("/wallet/createtransaction", { owner_address: alice.hex, to_address: bob.hex, amount: 1_000 });
    await post("/wallet/broadcasttransaction", signJson(created, alice.privateKey));
    const pending = (await post("/wallet/getaccount", { address: bob.hex })).balance as number;
    const confirmed = (await post("/walletsolidity/getaccount", { address: bob.hex })).balance as number;
    expect(pending - confirmed).toBe(1_000);
    await devnode.produceBlock();
    expect((await post("/walletsolidity/getaccount", { address: bob.hex })).balance).toBe(pending);
  });

  it("getcontract, getcontractinfo, getassetissuebyid, getnodeinfo, healthcheck", async () => {
    expect(await post("/wallet/getcontract", { value: USDT_HEX })).toMatchObject({
      contract_address: USDT_HEX,
      abi: { entrys: expect.arrayContaining([expect.objectContaining({ name: "transfer", type: "Function" })]) },
    });
    expect((await call(`/wallet/getcontract?value=${USDT_HEX}`)).json).toMatchObject({ contract_address: USDT_HEX });
    expect(await post("/wallet/getcontract", { value: bob.hex })).toEqual({});
    expect(await post("/wallet/getcontractinfo", { value: USDT_HEX })).toHaveProperty("smart_contract.contract_address", USDT_HEX);
    expect(await post("/wallet/getassetissuebyid", { value: "1000001" })).toMatchObject({
      id: "1000001",
      precision: 6,
      name: Buffer.from("DevToken").toString("hex"),
    });
    expect(await post("/wallet/getassetissuebyid", { value: "1000002", visible: true })).toMatchObject({ name: "DevPoints" });
    expect(await post("/wallet/getassetissuebyid", { value: "42" })).toEqual({});
    const info = await post("/wallet/getnodeinfo");
    expect(info.block).toMatch(/^Num:\d+,ID:[0-9a-f]{64}$/);
    expect((await call("/healthcheck")).status).toBe(200);
  });

  it("refuses a replay of a mined transaction and a TAPOS reference to a fake block over HTTP", async () => {
    const created = await post("/wallet/createtransaction", { owner_address: alice.hex, to_address: bob.hex, amount: 77 });
    const signedTx = signJson(created, alice.privateKey);
    expect((await post("/wallet/broadcasttransaction", signedTx)).result).toBe(true);
    await devnode.produceBlock();
    expect(await post("/wallet/broadcasttransaction", signedTx)).toMatchObject({
      code: "DUP_TRANSACTION_ERROR",
      message: Buffer.from("Dup transaction.").toString("hex"),
    });
    const fake = { ...created, raw_data: { ...(created.raw_data as JsonObject), ref_block_hash: "0000000000000000" } };
    expect(await post("/wallet/broadcasttransaction", signJson(fake, alice.privateKey))).toMatchObject({
      code: "TAPOS_ERROR",
      message: Buffer.from("Tapos check error.").toString("hex"),
    });
  });

  it("shows OUT_OF_ENERGY over HTTP in the block, gettransactionbyid and gettransactioninfobyid", async () => {
    const parameter = "0".repeat(24) + bob.hex.slice(2) + (1).toString(16).padStart(64, "0");
    const built = await post("/wallet/triggersmartcontract", {
      owner_address: alice.hex,
      contract_address: USDT_HEX,
      function_selector: "transfer(address,uint256)",
      parameter,
      fee_limit: 500_000,
    });
    const transaction = built.transaction as JsonObject;
    expect((transaction.raw_data as JsonObject).fee_limit).toBe(500_000);
    expect(await post("/wallet/broadcasttransaction", signJson(transaction, alice.privateKey))).toEqual({
      result: true,
      txid: transaction.txID,
    });
    await devnode.produceBlock();
    expect(await post("/wallet/gettransactionbyid", { value: transaction.txID })).toMatchObject({
      ret: [{ contractRet: "OUT_OF_ENERGY" }],
    });
    const info = await post("/wallet/gettransactioninfobyid", { value: transaction.txID });
    expect(info).toMatchObject({
      result: "FAILED",
      receipt: { result: "OUT_OF_ENERGY", energy_fee: 500_000, energy_usage_total: 5_000 },
      contractResult: [""],
    });
    expect(utf8(info.resMessage)).toMatch(/^Not enough energy for 'SSTORE' operation executing: curInvokeEnergyLimit\[5000\]/);
    expect(info).not.toHaveProperty("log");
    const visible = await post("/wallet/gettransactioninfobyid", { value: transaction.txID, visible: true });
    expect(String(visible.resMessage)).toMatch(/^Not enough energy/);
    expect(visible.contract_address).toBe("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t");
  });
});
