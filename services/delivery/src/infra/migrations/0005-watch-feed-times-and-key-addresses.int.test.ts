/**
 * Migration 0005 over a registry written by the previous release (real Postgres): every watched
 * address is kept as the client's own (none is lost, a later PUT of `xpub_ids` drops none), outbox
 * rows queued before it take their webhook's creation time, so the watermark cannot pass them before
 * they are relayed, and the keys live webhooks name are queued for their history.
 */
import { createDatabase, migrateToLatest } from "@chaingate/db";
import { silentLogger } from "@chaingate/testing";
import { describe, expect } from "vitest";
import { deliveryTest } from "../../testing/delivery-fixtures.ts";
import { DELIVERY_SCHEMA, type DeliveryDatabase } from "../database-schema.ts";
import { createWebhookRepository } from "../webhook-repository.ts";
import { readRegistryTime } from "../../workers/webhook-watermark-publisher.ts";
import { deliveryMigrations } from "./index.ts";

const ADDRESSES = ["0x" + "1".repeat(40), "0x" + "2".repeat(40), "0x" + "3".repeat(40)];
const CREATED_AT = new Date("2026-11-01T10:00:00.123Z");

/** The previous release's schema (migrations before 0005) over the file's database, with a webhook of its: its id. */
const it = deliveryTest.extend<{ previousRelease: number }>({
  previousRelease: [
    async ({ database }, use) => {
      const previous = createDatabase({ connectionString: database.connectionString, schema: DELIVERY_SCHEMA, logger: silentLogger });
      const before = Object.fromEntries(Object.entries(deliveryMigrations).filter(([name]) => name < "0005"));
      await migrateToLatest(previous.db, DELIVERY_SCHEMA, before);
      await previous.close();
      // A webhook naming key 9 whose third address came from it (auto-watch): the previous release kept no difference.
      const webhookId = Number(
        (
          await database.query<{ id: string }>(
            `insert into delivery.webhooks (account_id, coin, webhook_url, secret, is_active, xpub_ids, created_at) values (1, 'ETH', 'http://93.184.216.34/', 'whsec_00', 1, '{9}', $1) returning id`,
            [CREATED_AT],
          )
        )[0]!.id,
      );
      await database.query(`insert into delivery.webhook_addresses (webhook_id, address) select $1, unnest($2::text[])`, [
        webhookId,
        ADDRESSES,
      ]);
      await use(webhookId);
    },
    { scope: "file" },
  ],
});

describe("migration 0005", () => {
  it("dates the queued outbox rows with their webhook's creation, keeps every address as the client's own, and a later PUT of xpub_ids drops none", async ({
    previousRelease: webhookId,
    database,
  }) => {
    const queued = Number((await database.query(`select count(*) as n from delivery.webhook_changes`))[0]!.n);
    expect(queued).toBeGreaterThan(0);
    const current = createDatabase<DeliveryDatabase>({
      connectionString: database.connectionString,
      schema: DELIVERY_SCHEMA,
      logger: silentLogger,
    });
    try {
      expect(await migrateToLatest(current.db, DELIVERY_SCHEMA, deliveryMigrations)).toEqual([
        "0005-watch-feed-times-and-key-addresses",
        "0006-test-event-times",
        "0007-fair-delivery",
        "0008-key-holders",
        "0009-event-sequence",
        "0010-watch-inactive-webhooks",
        "0011-operational-events",
        "0012-heartbeats",
        "0013-secret-overlap",
        "0014-issued-address-index",
        "0015-clock-heartbeats",
        "0016-pending-events",
        "0017-configured-chains",
        "0018-all-tokens",
      ]);
      const times = (await database.query<{ created_at: Date }>(`select created_at from delivery.webhook_changes`)).map((row) =>
        row.created_at.getTime(),
      );
      expect(times).toEqual(Array.from({ length: queued }, () => CREATED_AT.getTime()));
      // The watermark stays at the oldest queued change until the relay has published it.
      expect((await readRegistryTime(current.db)).getTime()).toBe(CREATED_AT.getTime());
      const listed = await database.query<{ address: string; listed: boolean }>(
        `select address, listed from delivery.webhook_addresses where webhook_id = $1 order by address`,
        [webhookId],
      );
      expect(listed).toEqual(ADDRESSES.map((address) => ({ address, listed: true })));
      expect((await database.query(`select active_since from delivery.webhooks where id = $1`, [webhookId]))[0]!.active_since).toEqual(
        CREATED_AT,
      );
      // The key it names is queued for its history, as named since the webhook's creation.
      expect(await database.query(`select xpub_id, account_id, coin, requested_at, done_at from delivery.key_backfills`)).toEqual([
        { xpub_id: "9", account_id: "1", coin: "ETH", requested_at: CREATED_AT, done_at: null },
      ]);

      const repository = createWebhookRepository(current.db);
      expect(await repository.update(1, webhookId, { xpub_ids: [] })).toBe(true);
      const watched: string[] = [];
      for await (const chunk of repository.addressChunks(webhookId)) watched.push(...chunk);
      expect(watched).toEqual(ADDRESSES);
      // New writes are dated by the database clock.
      const rows = await database.query<{ newest: Date }>(`select max(created_at) as newest from delivery.webhook_changes`);
      expect(rows[0]!.newest.getTime()).toBeGreaterThan(Date.now() - 60_000);
    } finally {
      await current.close();
    }
  });
});
