/**
 * Migration 0003 over a registry written by the previous release: existing webhooks get their
 * settings, counts and bucket hashes, and are republished on the bucketed watch feed by the next
 * start (real Postgres, NATS and delivery service).
 */
import { bucketHash } from "@chaingate/contracts";
import { createDatabase, migrateToLatest } from "@chaingate/db";
import { silentLogger, type TestDatabase } from "@chaingate/testing";
import { describe, expect } from "vitest";
import type { DeliveryService } from "../../create-delivery-service.ts";
import { startTestDelivery } from "../../testing/index.ts";
import { deliveryTest } from "../../testing/delivery-fixtures.ts";
import { DELIVERY_SCHEMA } from "../database-schema.ts";
import { deliveryMigrations } from "./index.ts";

const BTC = ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"];
const TRX = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const ETH_COUNT = 3_000;
const ethAddress = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;

type WebhookIds = Record<"btc" | "trx" | "eth" | "deleted" | "empty", number>;

/** The previous release's schema (migrations 0001 and 0002) over the database, with its data. */
async function writePreviousRelease(database: TestDatabase): Promise<WebhookIds> {
  const previous = createDatabase({ connectionString: database.connectionString, schema: DELIVERY_SCHEMA, logger: silentLogger });
  const { "0001-registry": registry, "0002-delivery-jobs": jobs } = deliveryMigrations;
  await migrateToLatest(previous.db, DELIVERY_SCHEMA, { "0001-registry": registry!, "0002-delivery-jobs": jobs! });
  await previous.close();
  const insert = async (coin: string, deleted = false) =>
    Number(
      (
        await database.query<{ id: string }>(
          `insert into delivery.webhooks (account_id, coin, webhook_url, secret, is_active, deleted_at) values (1, $1, 'http://93.184.216.34/', 'whsec_00', 1, $2) returning id`,
          [coin, deleted ? new Date() : null],
        )
      )[0]!.id,
    );
  const ids: WebhookIds = {
    btc: await insert("BTC"),
    trx: await insert("TRX"),
    eth: await insert("ETH"),
    deleted: await insert("ETH", true),
    empty: await insert("BTC"),
  };
  for (const address of BTC) await database.query(`insert into delivery.webhook_addresses values ($1, $2)`, [ids.btc, address]);
  await database.query(`insert into delivery.webhook_addresses values ($1, $2)`, [ids.trx, TRX]);
  await database.query(`insert into delivery.webhook_addresses select $1, '0x' || lpad(to_hex(g), 40, '0') from generate_series(1, $2) g`, [
    ids.eth,
    ETH_COUNT,
  ]);
  await database.query(`insert into delivery.webhook_addresses values ($1, $2)`, [ids.deleted, ethAddress(1)]);
  // The deletion was committed but not yet published when the old release stopped.
  await database.query(`insert into delivery.webhook_changes (webhook_id) values ($1)`, [ids.deleted]);
  return ids;
}

/**
 * The previous release's registry, then this release started over it. `stopDelivery` stops the
 * service for good; the file's end stops it if still running.
 */
const it = deliveryTest.extend<{ upgraded: { ids: WebhookIds; stopDelivery(): Promise<void> } }>({
  upgraded: [
    async ({ database, deliveryEnv }, use) => {
      const ids = await writePreviousRelease(database);
      let delivery: DeliveryService | undefined = await startTestDelivery(database.connectionString, deliveryEnv);
      const stopDelivery = async () => {
        await delivery?.close();
        delivery = undefined;
      };
      try {
        await use({ ids, stopDelivery });
      } finally {
        await stopDelivery();
      }
    },
    { scope: "file" },
  ],
});

describe("migration 0003", () => {
  it("republishes every live webhook on the watch feed: all its addresses, its settings, at the level its size needs", async ({
    upgraded: { ids },
    watchFeed: observer,
    database,
  }) => {
    await expect.poll(() => observer.stateOf(ids.eth).addresses.length, { timeout: 20_000 }).toBe(ETH_COUNT);
    expect(observer.stateOf(ids.eth).addresses).toEqual(Array.from({ length: ETH_COUNT }, (_, i) => ethAddress(i + 1)).sort());
    expect(observer.stateOf(ids.eth).meta).toMatchObject({
      coin: "ETH",
      address_count: ETH_COUNT,
      bucket_bits: 2,
      confirmations: 1,
      include_tokens: false,
      is_active: true,
      deleted: false,
    });
    await expect.poll(() => observer.stateOf(ids.btc).addresses, { timeout: 10_000 }).toEqual([...BTC].sort());
    expect(observer.stateOf(ids.btc).meta).toMatchObject({ address_count: 2, bucket_bits: 0, include_tokens: false });
    await expect.poll(() => observer.stateOf(ids.trx).meta, { timeout: 10_000 }).toMatchObject({ address_count: 1, include_tokens: true });
    expect(observer.stateOf(ids.trx).addresses).toEqual([TRX]);
    // A webhook with no address still gets its (empty) level-0 bucket, which clears what a scanner kept.
    await expect
      .poll(() => observer.buckets(ids.empty), { timeout: 10_000 })
      .toEqual([expect.objectContaining({ bucket_bits: 0, bucket: 0, addresses: [] })]);
    // The pending deletion goes out as a final meta; nothing of the deleted webhook's addresses.
    await expect.poll(() => observer.stateOf(ids.deleted).meta?.deleted, { timeout: 10_000 }).toBe(true);
    expect(observer.buckets(ids.deleted)).toEqual([]);
    expect(Math.max(...observer.messages.map((m) => m.bytes))).toBeLessThan(1_000_000);
    await expect
      .poll(async () => Number((await database.query(`select count(*) as n from delivery.webhook_changes`))[0]!.n), { timeout: 10_000 })
      .toBe(0);
  });

  it("stores each address's bucket hash as @chaingate/contracts computes it, and keeps address_count with every write, plain SQL included", async ({
    upgraded: { ids, stopDelivery },
    database,
  }) => {
    // No relay from here on: the queued rows stay where the test can read them.
    await stopDelivery();
    const rows = await database.query<{ address: string; bucket_hash: number }>(
      `select address, bucket_hash from delivery.webhook_addresses where webhook_id = any($1)`,
      [[ids.btc, ids.trx, ids.eth]],
    );
    expect(rows).toHaveLength(ETH_COUNT + 3);
    expect(rows.filter((row) => row.bucket_hash !== bucketHash(row.address))).toEqual([]);
    const count = async (id: number) =>
      Number((await database.query(`select address_count from delivery.webhooks where id = $1`, [id]))[0]!.address_count);
    expect(await count(ids.eth)).toBe(ETH_COUNT);
    await database.query(`delete from delivery.webhook_addresses where webhook_id = $1 and address in ($2, $3)`, [
      ids.eth,
      ethAddress(1),
      ethAddress(2),
    ]);
    expect(await count(ids.eth)).toBe(ETH_COUNT - 2);
    // The write queued exactly the buckets of the two addresses (as slots, the hash's top 10 bits).
    const slots = (
      await database.query<{ slot: number }>(`select slot from delivery.webhook_changes where webhook_id = $1 order by slot`, [ids.eth])
    ).map((row) => row.slot);
    expect(slots).toEqual([...new Set([bucketHash(ethAddress(1)) >> 6, bucketHash(ethAddress(2)) >> 6])].sort((a, b) => a - b));
  });
});
