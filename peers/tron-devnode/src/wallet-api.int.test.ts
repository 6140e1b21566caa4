/**
 * The HTTP wire: java-tron's bodies for bad input, and `visible`. Block queries, solidity twins and the admin
 * endpoint are in wallet-api-blocks.int.test.ts.
 */
import { describe, expect } from "vitest";
import { DEFAULT_ENERGY_COSTS, energyPenalty } from "./energy-costs.ts";
import type { TronDevnode } from "./index.ts";
import { callDevnode, devnodeTest } from "./test-devnode.ts";
import type { JsonObject } from "./transaction-json.ts";

const USDT_HEX = "41a614f803b6fd780986a42c78ec9c7f77e6ded13c";

async function post(devnode: TronDevnode, path: string, body?: unknown): Promise<JsonObject> {
  const result = await callDevnode(devnode, path, body ?? "", { method: "POST" });
  expect(result.status).toBe(200);
  return result.json as JsonObject;
}

const it = devnodeTest;

describe("bad input gets java-tron's error bodies (HTTP 200), never a crash", () => {
  it("malformed JSON", async ({ devnode }) => {
    const account = await callDevnode(devnode, "/wallet/getaccount", "{not json", { method: "POST" });
    expect(account.status).toBe(200);
    expect((account.json as JsonObject).Error).toMatch(/^class com\.alibaba\.fastjson\.JSONException : /);
    expect(await post(devnode, "/wallet/broadcasttransaction", '{"raw_data":')).toEqual({
      Error: "class java.lang.NullPointerException : null",
    });
    expect((await post(devnode, "/wallet/createtransaction", "[1,2]")).Error).toBe(
      "class com.alibaba.fastjson.JSONException : can not cast to JSONObject.",
    );
  });

  it("wrong address forms: JsonFormat's parse errors, {} for well-formed unknown addresses, actuator messages for short hex", async ({
    devnode,
    alice,
    bob,
  }) => {
    expect(await post(devnode, "/wallet/getaccount", { address: "41" + "00".repeat(20) })).toEqual({});
    expect((await post(devnode, "/wallet/getaccount", { address: 12345 })).Error).toBe(
      "class org.tron.core.services.http.JsonFormat$ParseException : 1:12: Expected string.",
    );
    expect(await post(devnode, "/wallet/createtransaction", { owner_address: alice.hex, to_address: "41abcd", amount: 1 })).toEqual({
      Error: "class org.tron.core.exception.ContractValidateException : Invalid toAddress!",
    });
    // Base58 alphabet, bad checksum: Commons.decodeFromBase58Check returns null and the servlet dereferences it.
    expect(
      await post(devnode, "/wallet/createtransaction", {
        owner_address: "TNotAnAddress",
        to_address: bob.base58,
        amount: 1,
        visible: true,
      }),
    ).toEqual({
      Error: "class java.lang.NullPointerException : null",
    });
  });

  it("absurd amounts", async ({ devnode, alice, bob }) => {
    const body = { owner_address: alice.hex, to_address: bob.hex };
    expect((await post(devnode, "/wallet/createtransaction", { ...body, amount: 1e30 })).Error).toMatch(
      /^class org\.tron\.core\.services\.http\.JsonFormat\$ParseException : /,
    );
    expect((await post(devnode, "/wallet/createtransaction", { ...body, amount: "lots" })).Error).toMatch(/ParseException/);
    expect(await post(devnode, "/wallet/createtransaction", { ...body, amount: -5 })).toEqual({
      Error: "class org.tron.core.exception.ContractValidateException : Amount must be greater than 0.",
    });
    expect(await post(devnode, "/wallet/createtransaction", { ...body, amount: 9_000_000_000_000_000 })).toEqual({
      Error: "class org.tron.core.exception.ContractValidateException : Validate TransferContract error, balance is not sufficient.",
    });
    expect(await post(devnode, "/wallet/transferasset", { ...body, asset_name: "31303030303939", amount: 1 })).toEqual({
      Error: "class org.tron.core.exception.ContractValidateException : No asset!",
    });
  });

  it("garbage transactions at broadcast", async ({ devnode, alice, bob }) => {
    // Util.packTransaction drops contracts it cannot parse; an empty list is "No contract!" (java-tron 4.7.2+).
    const unknownType = await post(devnode, "/wallet/broadcasttransaction", {
      raw_data: { contract: [{ type: "NopeContract", parameter: { value: {} } }] },
      visible: true,
    });
    expect(unknownType).toMatchObject({ code: "CONTRACT_VALIDATE_ERROR", message: "Contract validate error : No contract!" });
    // A java-tron contract type the devnode does not execute is refused rather than dropped (a devnode limitation).
    expect(
      (
        await post(devnode, "/wallet/broadcasttransaction", {
          raw_data: { contract: [{ type: "FreezeBalanceV2Contract", parameter: { value: {} } }] },
        })
      ).Error,
    ).toMatch(/ParseException : Unsupported contract type/);
    // packTransaction returns null when raw_data itself does not parse: the servlet then fails with a NullPointerException.
    expect(await post(devnode, "/wallet/broadcasttransaction", { raw_data: "x" })).toEqual({
      Error: "class java.lang.NullPointerException : null",
    });
    const created = await post(devnode, "/wallet/createtransaction", { owner_address: alice.hex, to_address: bob.hex, amount: 1 });
    const unsigned = await post(devnode, "/wallet/broadcasttransaction", created);
    expect(unsigned).toEqual({
      code: "SIGERROR",
      txid: created.txID,
      message: Buffer.from("Validate signature error: miss sig or contract").toString("hex"),
    });
    const badHexSignature = await post(devnode, "/wallet/broadcasttransaction", { ...created, signature: ["zz"] });
    expect(badHexSignature).toEqual({ Error: "class java.lang.NullPointerException : null" });
  });

  it("methods and paths java-tron does not serve", async ({ devnode }) => {
    expect((await callDevnode(devnode, "/wallet/broadcasttransaction")).status).toBe(405);
    expect((await callDevnode(devnode, "/wallet/nosuchthing")).status).toBe(404);
    expect((await callDevnode(devnode, "/nothing/here")).status).toBe(404);
  });

  it("an oversized body gets an error body", async ({ devnode }) => {
    const big = JSON.stringify({ address: "41" + "0".repeat(5 * 1024 * 1024) });
    expect((await post(devnode, "/wallet/getaccount", big)).Error).toBe(
      "class java.lang.Exception : body size is too big, the limit is 4194304",
    );
  });

  it("is still alive afterwards", async ({ devnode }) => {
    expect((await post(devnode, "/wallet/getnowblock")).blockID).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("requests and visible handling", () => {
  it("accepts empty POST bodies, form bodies and GET query parameters", async ({ devnode, alice }) => {
    const params = await callDevnode(devnode, "/wallet/getchainparameters", "", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect((params.json as { chainParameter: { key: string; value?: number }[] }).chainParameter).toContainEqual({
      key: "getEnergyFee",
      value: 100,
    });
    const form = await callDevnode(devnode, "/wallet/getaccount", `address=${alice.base58}&visible=true`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect((form.json as JsonObject).address).toBe(alice.base58);
    const get = await callDevnode(devnode, `/wallet/getaccount?address=${alice.hex}`);
    expect((get.json as JsonObject).balance).toBe(alice.balanceSun);
    expect((await callDevnode(devnode, "/wallet/getnowblock?visible=true")).json).toMatchObject({
      block_header: { raw_data: { witness_address: devnode.genesis.witness.base58 } },
    });
  });

  it("prints accounts in java-tron's shape, Base58 with visible=true", async ({ devnode, alice }) => {
    const hex = await post(devnode, "/wallet/getaccount", { address: alice.hex });
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
    const visible = await post(devnode, "/wallet/getaccount", { address: alice.base58, visible: true });
    expect(visible).toMatchObject({ address: alice.base58, owner_permission: { keys: [{ address: alice.base58 }] } });
    expect(await post(devnode, "/wallet/getaccountresource", { address: alice.hex })).toMatchObject({ freeNetLimit: 600 });
  });

  it("builder responses are visible-aware and messages are hex unless visible", async ({ devnode, alice, bob }) => {
    const visible = await post(devnode, "/wallet/createtransaction", {
      owner_address: alice.base58,
      to_address: bob.base58,
      amount: 1,
      visible: true,
    });
    expect(visible).toMatchObject({
      visible: true,
      raw_data: { contract: [{ parameter: { value: { owner_address: alice.base58, to_address: bob.base58 } } }] },
    });
    const missing = await post(devnode, "/wallet/triggersmartcontract", {
      owner_address: alice.hex,
      contract_address: bob.hex,
      function_selector: "transfer(address,uint256)",
      parameter: "",
      fee_limit: 1,
    });
    expect(missing).toEqual({
      result: { code: "CONTRACT_VALIDATE_ERROR", message: Buffer.from("No contract or not a valid smart contract").toString("hex") },
    });
    const missingVisible = await post(devnode, "/wallet/triggerconstantcontract", {
      owner_address: alice.base58,
      contract_address: bob.base58,
      function_selector: "decimals()",
      visible: true,
    });
    expect(missingVisible).toEqual({ result: { code: "CONTRACT_VALIDATE_ERROR", message: "No contract or not a valid smart contract" } });
  });

  it("triggerconstantcontract returns constant_result and energy_used; a revert carries a hex message", async ({ devnode, alice, bob }) => {
    const balance = await post(devnode, "/wallet/triggerconstantcontract", {
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
    const reverted = await post(devnode, "/wallet/triggerconstantcontract", {
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
