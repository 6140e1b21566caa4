/** java-tron parity (see java-tron-parity.int.test.ts): the energy costs a devnode is started with. */
import { describe, expect } from "vitest";
import { startTronDevnode } from "./index.ts";
import { devnodeTest } from "./test-devnode.ts";

const USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const FEE_LIMIT = 150_000_000;

const it = devnodeTest;
devnodeTest.scoped({ devnodeOptions: { energy: { transfer: 20_000, energyFactor: 0 } } });

describe("energy costs are configurable", () => {
  it("uses the configured base cost; with energyFactor 0 there is no penalty and java-tron's message without penaltyEnergy", async ({
    tronWeb,
    bob,
    devnode,
  }) => {
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
