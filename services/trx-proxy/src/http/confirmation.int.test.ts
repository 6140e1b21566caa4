/**
 * transactions/{hash} tells a transaction in a block not yet solidified from a confirmed one, with
 * the simulator's solidified block lagging the head as mainnet's does.
 */
import { TronWeb } from "tronweb";
import { expect } from "vitest";
import { trxProxyTest } from "../testing/trx-proxy-fixtures.ts";

const SOLID_LAG = 2;
trxProxyTest.scoped({ trxStackSettings: { devnode: { solidLag: SOLID_LAG } } });
const it = trxProxyTest;

it("reports unconfirmed until the block is solidified, then confirmed", async ({ trxStack: stack }) => {
  const [alice, bob] = stack.devnode.genesis.accounts;
  const created = (await (
    await stack.post("/api/v1/trx/transactions/create", { from: alice!.base58, to: bob!.base58, amount: "3" })
  ).json()) as { txID: string };
  const signed = await new TronWeb({ fullHost: stack.devnode.url }).trx.sign(created as never, alice!.privateKey);
  expect(await (await stack.post("/api/v1/trx/transactions/broadcast", signed)).json()).toMatchObject({ result: true });
  const block = await stack.devnode.produceBlock();
  const status = async () => (await (await stack.request(`/api/v1/trx/transactions/${created.txID}`)).json()) as Record<string, unknown>;
  for (let produced = 0; produced < SOLID_LAG; produced++) {
    expect(await status()).toMatchObject({ status: "unconfirmed", confirmed: false, block_number: block.number, contractRet: "SUCCESS" });
    await stack.devnode.produceBlock();
  }
  expect(await status()).toMatchObject({ status: "confirmed", confirmed: true, block_number: block.number });
});
