/**
 * java-tron parity (see java-tron-parity.int.test.ts): energy as on mainnet today, with the dynamic energy
 * penalty. Each test names the java-tron code it mirrors.
 */
import { describe, expect } from "vitest";
import { devnodeTest, postJson } from "./test-devnode.ts";
import type { JsonObject } from "./transaction-json.ts";

const USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const USDT_HEX = "41a614f803b6fd780986a42c78ec9c7f77e6ded13c";
const FEE_LIMIT = 150_000_000;

const it = devnodeTest;

describe("energy: current-mainnet-like costs with the dynamic energy penalty (VM.play, Program.spendEnergyWithPenalty)", () => {
  const transferTo = (to: string, amount: number): string => "0".repeat(24) + to.slice(2) + amount.toString(16).padStart(64, "0");

  it("a USDT transfer to a holder costs about 64 300 energy by default, the penalty in receipt.energy_penalty_total", async ({
    tronWeb,
    alice,
    bob,
    devnode,
  }) => {
    const estimate = (await postJson(devnode, "/wallet/estimateenergy", {
      owner_address: alice.hex,
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

  it("OUT_OF_ENERGY: resMessage carries penaltyEnergy[…] and the receipt energy_penalty_total", async ({ tronWeb, bob, devnode }) => {
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

  it("getcontractinfo reports the energy factor; triggerconstantcontract reports energy_penalty", async ({ devnode, alice, bob }) => {
    expect(await postJson(devnode, "/wallet/getcontractinfo", { value: USDT_HEX })).toMatchObject({
      contract_state: { energy_factor: 34_000 },
    });
    const call = (await postJson(devnode, "/wallet/triggerconstantcontract", {
      owner_address: alice.hex,
      contract_address: USDT_HEX,
      function_selector: "transfer(address,uint256)",
      parameter: transferTo(bob.hex, 1),
    })) as JsonObject;
    expect(call).toMatchObject({ energy_used: 64_376, energy_penalty: 49_745 });
  });
});
