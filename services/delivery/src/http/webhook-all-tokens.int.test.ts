/**
 * `all_tokens` (issue #31): every ERC-20 transfer, unlisted tokens too, for webhooks of EVM chains.
 * Stored on create and PUT, returned by every answer, carried to the scanner in the watch feed;
 * refused in the spec's shape for BTC and TRX (no ERC-20 logs), accepted as false for them.
 */
import { describe, expect } from "vitest";
import { deliveryTest } from "../testing/delivery-fixtures.ts";
import { alice, BTC, call, countRows, create, ETH, latestChange, URL_OK } from "../testing/webhook-registry-calls.ts";

deliveryTest.scoped({ deliverySettings: { EVM_CHAINS: JSON.stringify([{ name: "polygon" }]) } });
const it = deliveryTest;

describe("all_tokens", () => {
  it("defaults to false; stored on create and PUT for ETH and a configured EVM chain, carried to the scanner", async ({
    edge,
    watchFeed: observer,
  }) => {
    const plain = await create(edge, alice, { coin: "ETH", webhook_url: URL_OK, addresses: [ETH] });
    expect(plain.body.data).toMatchObject({ all_tokens: false });
    const { status, body } = await create(edge, alice, { coin: "POLYGON", webhook_url: URL_OK, addresses: [ETH], all_tokens: true });
    expect(status).toBe(201);
    const id = body.data!.id as number;
    expect((await call(edge, "GET", `/api/v1/webhooks/${id}`, alice)).body.data).toMatchObject({ coin: "POLYGON", all_tokens: true });
    await expect.poll(() => latestChange(observer, id), { timeout: 10_000 }).toMatchObject({ all_tokens: true });
    const put = await call(edge, "PUT", `/api/v1/webhooks/${plain.body.data!.id as number}`, alice, { all_tokens: true });
    expect(put.body.data).toMatchObject({ all_tokens: true, include_tokens: false });
    await expect.poll(() => latestChange(observer, plain.body.data!.id as number)?.all_tokens, { timeout: 10_000 }).toBe(true);
  });

  it("422 in the spec's shape for true on BTC and TRX, and for a non-boolean; false accepted", async ({ edge, database }) => {
    const TRX = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
    const before = await countRows(database, "webhooks");
    for (const [coin, address] of [
      ["BTC", BTC],
      ["TRX", TRX],
    ] as const) {
      const refusal = `The all tokens field must be false for ${coin} webhooks: only EVM chains have ERC-20 transfers.`;
      const refused = await create(edge, alice, { coin, webhook_url: URL_OK, addresses: [address], all_tokens: true });
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({ message: refusal, errors: { all_tokens: [refusal] } });
    }
    const notBoolean = await create(edge, alice, { coin: "ETH", webhook_url: URL_OK, addresses: [ETH], all_tokens: 1 });
    expect(notBoolean.body.errors).toEqual({ all_tokens: ["The all tokens field must be true or false."] });
    expect(await countRows(database, "webhooks")).toBe(before);
    const btc = await create(edge, alice, { coin: "BTC", webhook_url: URL_OK, addresses: [BTC], all_tokens: false });
    expect(btc.status).toBe(201);
    const put = await call(edge, "PUT", `/api/v1/webhooks/${btc.body.data!.id as number}`, alice, { all_tokens: true });
    expect(put.status).toBe(422);
  });
});
