/**
 * Relays the registry outbox to the watch feed (stream WEBHOOK_FEED): for each webhook with queued
 * changes, the buckets the rows name (`webhook.addresses.<id>.<bits>.<bucket>`, each bucket's whole
 * current list) and then its meta (`webhook.changed.<id>`).
 *
 * Invariants:
 * - A bucket's addresses, the webhook's version and its level are read in ONE statement (one
 *   snapshot), so every message is a state the registry really had at that version.
 * - A webhook is relayed by one relay at a time (a transaction-scoped advisory lock), and every
 *   message goes out with `publishIfNewer`, so no subject of the compacted stream ever goes back to
 *   an older version, even when a stalled relay publishes late.
 * - A change's buckets are published before its meta, and a level raise publishes every bucket of
 *   the new level before the meta that announces it (then removes the lower levels' messages; a
 *   deleted webhook's bucket messages are removed after its final meta). Removed message by
 *   message, never by a stream purge (see Bus.removeSubjects).
 * - The outbox rows of a webhook are claimed (deleted) in the publishing transaction: a crash
 *   before the commit leaves them for the next run, which republishes the current state with the
 *   same deterministic message ids.
 * While NATS is down the registry keeps working; each webhook backs off on its own, so one that
 * keeps failing never holds the others back.
 */
import { ChaingateError } from "@chaingate/errors";
import { backoffDelayMs, type WakeableSleep } from "@chaingate/backoff";
import type { Bus } from "@chaingate/bus";
import { webhookAddresses, webhookChanged } from "@chaingate/contracts";
import type { Logger } from "@chaingate/logger";
import { OUTBOX_RETRY, startOutboxRelay, type OutboxBatch, type OutboxRelay } from "@chaingate/service-kit";
import { sql, type Kysely } from "kysely";
import type { DeliveryDatabase } from "../infra/database-schema.ts";
import { ALL_BUCKETS, bucketsOfSlot } from "./webhook-changed-relay/outbox-slots.ts";
import { raiseBucketLevel } from "./webhook-changed-relay/raise-bucket-level.ts";
import { readBuckets, readNonEmptyBuckets } from "./webhook-changed-relay/read-buckets.ts";
import { readWebhookMeta } from "./webhook-changed-relay/read-webhook-meta.ts";

export { ALL_BUCKETS } from "./webhook-changed-relay/outbox-slots.ts";

/** Webhooks looked at per round. */
const RELAY_WEBHOOKS_PER_ROUND = 100;
/**
 * Buckets read per statement (about 4,000 addresses at the top level) and published together: the
 * relay's memory peak follows it. A full republish of a 1,000,000-address webhook peaked at
 * 410–435 MB RSS with 64, at 242–261 MB with 4, taking 4.0–4.5 s instead of 3.0 s (`pnpm bench relay-memory`).
 */
const BUCKETS_PER_READ = 4;
/** Advisory lock namespace (the first key) of "this webhook is being relayed". */
export const RELAY_LOCK_NAMESPACE = 0x5ca7f33d;

export type WatchFeedPublisher = Pick<Bus, "publishIfNewer" | "removeSubjects">;

/** `drain()` publishes everything queued now (tests); a webhook that fails stays queued, backing off on its own. */
export type WebhookChangedRelay = OutboxRelay;

/** The level changed while a webhook was being published: roll back and start over. */
class LevelChangedError extends ChaingateError {
  override name = "LevelChangedError";
  constructor(message: string) {
    super("webhook_level_changed", message, { retryable: true });
  }
}

/** The earliest of the times given. */
function earliest(first: Date, ...others: Array<Date | undefined>): Date {
  return others.reduce<Date>((min, time) => (time && time < min ? time : min), first);
}

/** Publishes what the webhook's queued rows name. False when another relay holds it. */
async function relayWebhook(db: Kysely<DeliveryDatabase>, bus: WatchFeedPublisher, webhookId: number): Promise<boolean> {
  await raiseBucketLevel(db, webhookId);
  return db.transaction().execute(async (trx) => {
    const { rows: locked } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_xact_lock(${RELAY_LOCK_NAMESPACE}, (${webhookId}::bigint % 2147483647)::int) as locked`.execute(trx);
    if (!locked[0]!.locked) return false;
    // Per slot, its earliest change; `activated_at`: set when the change that started the webhook
    // being watched (created or activated again: its meta row and active_since share one now()) is among them.
    const { rows: claimed } = await sql<{ slot: number | null; since: Date; activated_at: Date | null }>`
      with claimed as (delete from webhook_changes where webhook_id = ${webhookId} returning slot, created_at)
      select slot, min(created_at) as since,
             max(created_at) filter (where slot is null and created_at = (select active_since from webhooks where id = ${webhookId})) as activated_at
        from claimed group by slot`.execute(trx);
    if (claimed.length === 0) return true;
    const meta = await readWebhookMeta(trx, webhookId);
    if (!meta) return true;
    if (meta.deleted) {
      await bus.publishIfNewer(webhookChanged, meta, (m) => m.version);
      await bus.removeSubjects(webhookAddresses, `webhook.addresses.${webhookId}.>`);
      return true;
    }
    const bits = meta.bucket_bits;
    const slots = claimed.filter((row): row is typeof row & { slot: number } => row.slot !== null);
    const everyBucketSince = slots.find((row) => row.slot === ALL_BUCKETS)?.since;
    const sinceOf = new Map<number, Date>(
      (everyBucketSince ? await readNonEmptyBuckets(trx, webhookId, bits) : []).map((bucket) => [bucket, everyBucketSince!]),
    );
    for (const { slot, since } of slots) {
      if (slot === ALL_BUCKETS) continue;
      for (const bucket of bucketsOfSlot(slot, bits)) sinceOf.set(bucket, earliest(since, sinceOf.get(bucket), everyBucketSince));
    }
    const ordered = [...sinceOf.keys()].sort((a, b) => a - b);
    for (let start = 0; start < ordered.length; start += BUCKETS_PER_READ) {
      const read = await readBuckets(trx, webhookId, ordered.slice(start, start + BUCKETS_PER_READ));
      if (read.some((row) => row.bucket_bits !== bits))
        throw new LevelChangedError(`webhook ${webhookId} changed level while being relayed`);
      await Promise.all(
        read.map((row) =>
          bus.publishIfNewer(
            webhookAddresses,
            {
              webhook_id: webhookId,
              coin: meta.coin,
              bucket_bits: bits,
              bucket: row.bucket,
              version: Number(row.version),
              addresses: row.addresses,
              since: earliest(sinceOf.get(row.bucket)!, row.late_since ?? undefined).toISOString(),
            },
            (p) => p.version,
          ),
        ),
      );
    }
    // Read after the buckets, so the meta is at least as new as every bucket just published.
    const current = (await readWebhookMeta(trx, webhookId))!;
    if (current.bucket_bits !== bits) throw new LevelChangedError(`webhook ${webhookId} changed level while being relayed`);
    const activatedAt = claimed.find((row) => row.slot === null)?.activated_at;
    await bus.publishIfNewer(
      webhookChanged,
      current.is_active && activatedAt ? { ...current, since: activatedAt.toISOString() } : current,
      (m) => m.version,
    );
    if (everyBucketSince)
      for (let lower = 0; lower < bits; lower++) await bus.removeSubjects(webhookAddresses, `webhook.addresses.${webhookId}.${lower}.>`);
    return true;
  });
}

/**
 * `onRelayed`: called after a round that published something (the watermark follows it at once).
 * `wakeups`: the doorbell registry writes ring (made before the relay; default its own).
 */
export function startWebhookChangedRelay(
  db: Kysely<DeliveryDatabase>,
  publisher: () => Promise<WatchFeedPublisher>,
  logger: Logger,
  onRelayed: () => void = () => {},
  wakeups?: WakeableSleep,
): WebhookChangedRelay {
  /** Webhooks whose last attempt failed, and when they may be tried again. */
  const backoff = new Map<number, { failures: number; until: number }>();

  /** Webhooks with queued rows, oldest first, leaving out those backing off. */
  async function pendingWebhooks(): Promise<number[]> {
    const now = Date.now();
    const waiting = [...backoff].filter(([, state]) => state.until > now).map(([id]) => id);
    const { rows } = await sql<{ webhook_id: number }>`
      select webhook_id from webhook_changes where webhook_id <> all(${waiting}::bigint[])
       group by webhook_id order by min(id) limit ${RELAY_WEBHOOKS_PER_ROUND}`.execute(db);
    return rows.map((row) => Number(row.webhook_id));
  }

  /**
   * One round: every webhook with queued rows (up to RELAY_WEBHOOKS_PER_ROUND) that is not backing
   * off. A webhook that fails backs off on its own and the round still succeeds: failing it would
   * put the whole relay into back-off (up to 10 s), so every other webhook's changes would wait
   * for the one that keeps failing.
   */
  async function relayBatch(bus: WatchFeedPublisher): Promise<OutboxBatch> {
    const webhookIds = await pendingWebhooks();
    let relayed = 0;
    for (const webhookId of webhookIds) {
      try {
        if (await relayWebhook(db, bus, webhookId)) relayed++;
        backoff.delete(webhookId);
      } catch (error) {
        if (error instanceof LevelChangedError) continue;
        const failures = (backoff.get(webhookId)?.failures ?? 0) + 1;
        backoff.set(webhookId, { failures, until: Date.now() + backoffDelayMs(failures, OUTBOX_RETRY) });
        logger.warn({ err: error, webhookId, failures }, "watch feed relay failed for a webhook; retrying it later");
      }
    }
    if (relayed > 0) onRelayed();
    return { published: relayed, more: webhookIds.length === RELAY_WEBHOOKS_PER_ROUND && relayed > 0 };
  }

  return startOutboxRelay({ name: "watch feed relay", logger, publisher, relayBatch, wakeups });
}
