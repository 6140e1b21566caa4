/**
 * The watch-feed relay when one webhook keeps failing to publish (real Postgres, a publisher that
 * refuses that webhook): it backs off that webhook alone, and the others' changes still go out
 * within the idle poll, not after the whole relay's backoff.
 */
import type { Database } from "@chaingate/db";
import { createLogger } from "@chaingate/logger";
import { describe, expect } from "vitest";
import type { DeliveryDatabase } from "../infra/database-schema.ts";
import { markWebhookChanged } from "../infra/webhook-repository/mark-webhook-changed.ts";
import { deliveryTest } from "../testing/delivery-fixtures.ts";
import { startWebhookChangedRelay, type WatchFeedPublisher } from "./webhook-changed-relay.ts";

const it = deliveryTest;

async function createWebhook(db: Database<DeliveryDatabase>, address: string): Promise<number> {
  return db.db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto("webhooks")
      .values({ account_id: 1, coin: "ETH", webhook_url: "https://example.com/hook", secret: "whsec_00", is_active: 1, xpub_ids: [] })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx.insertInto("webhook_addresses").values({ webhook_id: id, address }).execute();
    await markWebhookChanged(trx, id);
    return id;
  });
}

/** A change committed by another replica or plain SQL: nothing rings this relay's doorbell. */
async function changeQuietly(db: Database<DeliveryDatabase>, webhookId: number): Promise<void> {
  await db.db.transaction().execute((trx) => markWebhookChanged(trx, webhookId));
}

describe("the watch-feed relay", () => {
  it("keeps relaying the other webhooks on time while one keeps failing", async ({ deliveryDb: db }) => {
    const failing = await createWebhook(db, `0x${"1".repeat(40)}`);
    const healthy = await createWebhook(db, `0x${"2".repeat(40)}`);
    const versions = new Map<number, number[]>();
    const publisher: WatchFeedPublisher = {
      publishIfNewer: async (_contract, payload) => {
        const { webhook_id: webhookId, version } = payload as { webhook_id: number; version: number };
        if (webhookId === failing) throw new Error("TIMEOUT");
        versions.set(webhookId, [...(versions.get(webhookId) ?? []), version]);
        return { published: true };
      },
      removeSubjects: async () => 0,
    };
    const relay = startWebhookChangedRelay(db.db, async () => publisher, createLogger({ service: "test", level: "silent" }));
    try {
      await expect.poll(() => versions.get(healthy)?.length ?? 0, { timeout: 5_000 }).toBeGreaterThan(0);
      // Long enough for the failing webhook's retries to have grown past seconds.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      for (let change = 0; change < 3; change++) {
        const before = versions.get(healthy)!.length;
        const changedAt = Date.now();
        await changeQuietly(db, healthy);
        await expect.poll(() => versions.get(healthy)!.length, { timeout: 10_000 }).toBeGreaterThan(before);
        // The idle poll is 1 s; the whole relay backing off would take up to 10 s.
        expect(Date.now() - changedAt).toBeLessThan(2_500);
      }
    } finally {
      await relay.stop();
    }
  }, 60_000);
});
