/**
 * The watermark loop when NATS fails (real Postgres, a publisher that throws): it keeps ticking,
 * logs a failure only now and then, and publishes again once NATS answers.
 */
import { createDatabase } from "@chaingate/db";
import { createLogger } from "@chaingate/logger";
import { describe, expect, vi } from "vitest";
import { DELIVERY_SCHEMA, type DeliveryDatabase } from "../infra/database-schema.ts";
import { deliveryTest } from "../testing/delivery-fixtures.ts";
import { readRegistryTime, startWebhookWatermarkPublisher, type WatermarkPublisher } from "./webhook-watermark-publisher.ts";

const INTERVAL_MS = 10;

const it = deliveryTest;

describe("the watermark publisher", () => {
  it("keeps ticking while publishing fails, logs 1 failure in 30, and publishes again once NATS answers", async ({ deliveryDb: db }) => {
    const logger = createLogger({ service: "test", level: "silent" });
    const warn = vi.spyOn(logger, "warn");
    let failing = true;
    let attempts = 0;
    const published: string[] = [];
    const publisher: WatermarkPublisher = {
      publish: async (_contract, payload) => {
        attempts++;
        if (failing) throw new Error("TIMEOUT");
        published.push((payload as { registry_time: string }).registry_time);
        return { duplicate: false, sequence: published.length };
      },
    };
    const loop = startWebhookWatermarkPublisher(db.db, async () => publisher, logger, INTERVAL_MS);
    try {
      await expect.poll(() => attempts, { timeout: 10_000 }).toBeGreaterThanOrEqual(61);
      failing = false;
      const failures = attempts;
      await expect.poll(() => published.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
      // The first failure, then every 30th: at most 1 + failures / 30 lines for all of them.
      expect(warn.mock.calls.length).toBeGreaterThanOrEqual(2);
      expect(warn.mock.calls.length).toBeLessThanOrEqual(1 + Math.ceil(failures / 30));
      expect(published.map(Date.parse)).toEqual(published.map(Date.parse).toSorted((a, b) => a - b));
    } finally {
      await loop.stop();
    }
  });

  it("retries a failed publish soon, not an interval later: a long interval must not hold the watermark back after one failure", async ({
    deliveryDb: db,
  }) => {
    // A start under load: the bus's first JetStream call times out once, then NATS answers.
    let attempts = 0;
    const published: string[] = [];
    const publisher: WatermarkPublisher = {
      publish: async (_contract, payload) => {
        if (++attempts === 1) throw new Error("TIMEOUT");
        published.push((payload as { registry_time: string }).registry_time);
        return { duplicate: false, sequence: published.length };
      },
    };
    const loop = startWebhookWatermarkPublisher(db.db, async () => publisher, createLogger({ service: "test", level: "silent" }), 600_000);
    try {
      await expect.poll(() => published.length, { timeout: 5_000 }).toBe(1);
    } finally {
      await loop.stop();
    }
  });

  it("never passes the start of a registry write still in flight: its change is not visible yet, but its time is taken", async ({
    database,
    deliveryDb: db,
  }) => {
    const webhook = await db.db
      .insertInto("webhooks")
      .values({ account_id: 1, coin: "ETH", webhook_url: "https://example.com/hook", secret: "whsec_00", is_active: 1, xpub_ids: [] })
      .returning("id")
      .executeTakeFirstOrThrow();
    let changeTime = 0;
    let readWhileOpen = 0;
    // The writer is another session than the publisher's pool (another replica, an operator's SQL).
    const writer = createDatabase<DeliveryDatabase>({
      connectionString: database.connectionString,
      schema: DELIVERY_SCHEMA,
      applicationName: "an operator's psql",
      logger: createLogger({ service: "test", level: "silent" }),
    });
    await writer.db.transaction().execute(async (trx) => {
      await trx.insertInto("webhook_changes").values({ webhook_id: webhook.id }).execute();
      const change = await trx
        .selectFrom("webhook_changes")
        .select("created_at")
        .where("webhook_id", "=", webhook.id)
        .executeTakeFirstOrThrow();
      changeTime = change.created_at.getTime();
      // The writer is slow to commit (a large address list, a busy database): the watermark ticks meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 50));
      readWhileOpen = (await readRegistryTime(db.db)).getTime();
    });
    await writer.close();
    expect(readWhileOpen).toBeLessThanOrEqual(changeTime);
  });
});
