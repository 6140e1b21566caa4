/**
 * The registry refuses addresses chosen to collide in one watch-feed bucket (whose message would
 * outgrow NATS's payload limit), at the service's internal edge over real Postgres and NATS; addresses
 * spread by the hash are never affected.
 */
import { randomBytes } from "node:crypto";
import { bucketBitsFor, bucketHash, bucketOf, MAX_ADDRESSES_PER_BUCKET } from "@chaingate/contracts";
import type { InternalEdge, TestDatabase } from "@chaingate/testing";
import { describe, expect } from "vitest";
import { deliveryTest } from "../testing/delivery-fixtures.ts";

const URL_OK = "http://93.184.216.34/hook";
/** The account the gateway would have authenticated. */
const ACCOUNT_ID = 1;

const it = deliveryTest;

/** `count` distinct ETH addresses (stored form) whose bucket at the level of `level` addresses is bucket 0: ground, as an attacker would. */
function colliding(count: number, level = count): string[] {
  const bits = bucketBitsFor(level);
  const found = new Set<string>();
  while (found.size < count) {
    const address = `0x${randomBytes(20).toString("hex")}`;
    if (bucketOf(bucketHash(address), bits) === 0) found.add(address);
  }
  return [...found];
}
const randomAddresses = (count: number) => Array.from({ length: count }, () => `0x${randomBytes(20).toString("hex")}`);

async function call(
  edge: InternalEdge,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${edge.url}${path}`, {
    method,
    headers: { ...edge.headersFor(ACCOUNT_ID), accept: "application/json", "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}
async function storedAddresses(database: TestDatabase, webhookId?: number): Promise<number> {
  const rows = await database.query<{ n: string }>(
    `select count(*) as n from delivery.webhook_addresses${webhookId === undefined ? "" : " where webhook_id = $1"}`,
    webhookId === undefined ? [] : [webhookId],
  );
  return Number(rows[0]!.n);
}

const REFUSED = `More than ${MAX_ADDRESSES_PER_BUCKET} of this webhook's addresses fall into one bucket of the watch feed; spread these addresses over several webhooks.`;

describe("addresses that collide in one watch-feed bucket", () => {
  it("are refused past the cap on create (422, nothing stored) and on a batch add (422, the webhook unchanged); at the cap they are accepted", async ({
    edge,
    database,
  }) => {
    const before = await storedAddresses(database);
    const tooMany = await call(edge, "POST", "/api/v1/webhooks", {
      coin: "ETH",
      webhook_url: URL_OK,
      addresses: colliding(MAX_ADDRESSES_PER_BUCKET + 1),
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body).toEqual({ message: REFUSED, errors: { addresses: [REFUSED] } });
    expect(await storedAddresses(database)).toBe(before);

    const atCap = colliding(MAX_ADDRESSES_PER_BUCKET + 1);
    const created = await call(edge, "POST", "/api/v1/webhooks", {
      coin: "ETH",
      webhook_url: URL_OK,
      addresses: atCap.slice(0, MAX_ADDRESSES_PER_BUCKET),
    });
    expect(created.status).toBe(201);
    const id = (created.body.data as { id: number }).id;
    const added = await call(edge, "POST", `/api/v1/webhooks/${id}/addresses`, { addresses: atCap.slice(MAX_ADDRESSES_PER_BUCKET) });
    expect(added).toEqual({ status: 422, body: { message: REFUSED, errors: { addresses: [REFUSED] } } });
    expect(await storedAddresses(database, id)).toBe(MAX_ADDRESSES_PER_BUCKET);
  });

  it("never concern addresses spread by the hash: 10,000 random ones, then 10,000 more, are accepted", async ({ edge }) => {
    const created = await call(edge, "POST", "/api/v1/webhooks", { coin: "ETH", webhook_url: URL_OK, addresses: randomAddresses(10_000) });
    expect(created.status).toBe(201);
    const id = (created.body.data as { id: number }).id;
    expect(await call(edge, "POST", `/api/v1/webhooks/${id}/addresses`, { addresses: randomAddresses(10_000) })).toMatchObject({
      status: 200,
      body: { data: { added: 10_000, total: 20_000 } },
    });
  });
});
