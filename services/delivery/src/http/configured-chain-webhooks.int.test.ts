/**
 * Webhooks for the EVM chains of EVM_CHAINS (issue 31) at the registry's internal edge, over real
 * Postgres and NATS: a configured chain is a coin like ETH (its name in capitals, EVM addresses
 * stored lower case, tokens the webhook's choice, its own maximum confirmations); a chain this
 * deployment does not configure is the spec's "selected coin is invalid".
 */
import { describe, expect } from "vitest";
import { deliveryTest } from "../testing/delivery-fixtures.ts";
import { alice, call, create, ETH, URL_OK } from "../testing/webhook-registry-calls.ts";

deliveryTest.scoped({
  deliverySettings: { EVM_CHAINS: JSON.stringify([{ name: "polygon" }, { name: "devnet", chain_id: 31338, symbol: "DEV" }]) },
});
const it = deliveryTest;

describe("webhooks of configured EVM chains", () => {
  it("creates a POLYGON webhook as an ETH one: addresses lower case, include_tokens the webhook's choice, read back and listed", async ({
    edge,
  }) => {
    const { status, body } = await create(edge, alice, { coin: "POLYGON", webhook_url: URL_OK, addresses: [ETH], include_tokens: true });
    expect(status).toBe(201);
    expect(body.data).toMatchObject({
      coin: "POLYGON",
      addresses: [ETH.toLowerCase()],
      include_tokens: true,
      confirmations: 1,
      pending: false,
    });
    const read = await call(edge, "GET", `/api/v1/webhooks/${body.data!.id}`, alice);
    expect(read.body.data).toMatchObject({ coin: "POLYGON", addresses: [ETH.toLowerCase()] });
    const plain = await create(edge, alice, { coin: "DEVNET", webhook_url: URL_OK, addresses: [ETH] });
    expect(plain.body.data).toMatchObject({ coin: "DEVNET", include_tokens: false });
  });

  it("holds a configured chain to its own maximum confirmations and address form", async ({ edge }) => {
    expect(await create(edge, alice, { coin: "POLYGON", webhook_url: URL_OK, addresses: [ETH], confirmations: 256 })).toMatchObject({
      status: 201,
    });
    expect(await create(edge, alice, { coin: "POLYGON", webhook_url: URL_OK, addresses: [ETH], confirmations: 257 })).toEqual({
      status: 422,
      body: {
        message: "The confirmations field must not be greater than 256 for POLYGON webhooks.",
        errors: { confirmations: ["The confirmations field must not be greater than 256 for POLYGON webhooks."] },
      },
    });
    const tron = await create(edge, alice, { coin: "POLYGON", webhook_url: URL_OK, addresses: ["TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"] });
    expect(tron.status).toBe(422);
    expect(tron.body.errors).toEqual({ "addresses.0": ["The addresses.0 field must be a valid POLYGON address."] });
  });

  it("refuses a chain this deployment does not configure, and a coin written otherwise, as the spec's invalid coin", async ({ edge }) => {
    for (const coin of ["BSC", "polygon", "Polygon"]) {
      const refused = await create(edge, alice, { coin, webhook_url: URL_OK, addresses: [ETH] });
      expect({ coin, ...refused }).toEqual({
        coin,
        status: 422,
        body: { message: "The selected coin is invalid.", errors: { coin: ["The selected coin is invalid."] } },
      });
    }
  });
});
