/**
 * Brings the addresses a key issued before the registry recorded `address.issued` (releases before
 * migration 0005, or events still on their way): for every queued key (`key_backfills`, written when
 * a webhook names a key), reads its whole history from the xpub service once, records it in
 * `issued_addresses`, then watches it on every live webhook naming the key, as watched since the key
 * was first named (`requested_at`, so the feed's `since` covers the time the backfill took).
 *
 * Invariant: a key is marked done only after its whole history is recorded, in the transaction
 * that adds it to the webhooks; a failure (xpub service down) leaves it queued, retried with a
 * back-off. Later issuances reach the registry through `address.issued`, so one read per key suffices.
 * A key the operator moved is queued again for its new account (apply-key-move.ts); a history read
 * as the old account before the move is recorded as the holder's, like a late `address.issued`.
 */
import type { BackoffSchedule, WakeableSleep } from "@chaingate/backoff";
import { startBackgroundLoop } from "@chaingate/service-kit";
import type { Logger } from "@chaingate/logger";
import type { Kysely } from "kysely";
import type { DeliveryDatabase } from "../infra/database-schema.ts";
import type { KeyRef, ReadKeyHistory } from "../infra/read-key-history.ts";
import { readKeyHolder } from "../infra/read-key-holder.ts";
import { lockKeys } from "../infra/webhook-repository/lock-keys.ts";
import { lockWebhooksNamingKey } from "../infra/webhook-repository/lock-webhooks-naming-key.ts";
import { markWebhookChanged } from "../infra/webhook-repository/mark-webhook-changed.ts";
import { watchKeyAddresses } from "../infra/webhook-repository/watch-key-addresses.ts";
import { ownerOfIssuedAddress } from "../domain/owner-of-issued-address.ts";

/** Keys looked at per round. */
const KEYS_PER_ROUND = 20;
const IDLE_POLL_MS = 30_000;
/** The xpub service unreachable: 1 s, doubling up to a minute. */
const RETRY: BackoffSchedule = { firstMs: 1_000, maxMs: 60_000 };

export interface KeyHistoryBackfill {
  /** A webhook named a key: look now. */
  wake(): void;
  /** Backfills every queued key now (tests); throws the first failure after trying each. Returns how many were done. */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

export interface KeyHistoryBackfillOptions {
  db: Kysely<DeliveryDatabase>;
  readHistory: ReadKeyHistory;
  logger: Logger;
  /** Webhooks changed (the relay publishes them). */
  onChange: () => void;
  /** The doorbell a webhook naming a key rings (made before the backfill; default its own). */
  wakeups?: WakeableSleep;
}

export function startKeyHistoryBackfill({ db, readHistory, logger, onChange, wakeups }: KeyHistoryBackfillOptions): KeyHistoryBackfill {
  async function backfill(key: KeyRef & { requested_at: Date }): Promise<void> {
    for await (const page of readHistory(key)) {
      if (!page.length) continue;
      await db.transaction().execute(async (trx) => {
        // Under the key's lock: a move applied since the page was read gave its addresses to the holder.
        await lockKeys(trx, [key.xpub_id]);
        const holder = await readKeyHolder(trx, key.xpub_id);
        await trx
          .insertInto("issued_addresses")
          .values(
            page.map((entry) => ({
              xpub_id: key.xpub_id,
              address: entry.address,
              account_id: ownerOfIssuedAddress(holder, { account_id: key.account_id, index: entry.index }),
              coin: key.coin,
              issued_at: entry.issued_at,
              address_index: entry.index,
            })),
          )
          // A row recorded before indexes were kept gets its index now.
          .onConflict((c) => c.columns(["xpub_id", "address"]).doUpdateSet({ address_index: (eb) => eb.ref("excluded.address_index") }))
          .execute();
      });
    }
    const changed = await db.transaction().execute(async (trx) => {
      // After the history is committed: a webhook naming the key now either sees it or is seen here.
      await lockKeys(trx, [key.xpub_id]);
      let changed = 0;
      for (const id of await lockWebhooksNamingKey(trx, key)) {
        if ((await watchKeyAddresses(trx, id, key.requested_at)).length) {
          await markWebhookChanged(trx, id);
          changed++;
        }
      }
      await trx
        .updateTable("key_backfills")
        .set({ done_at: new Date() })
        .where("xpub_id", "=", key.xpub_id)
        .where("account_id", "=", key.account_id)
        .where("coin", "=", key.coin)
        .execute();
      return changed;
    });
    if (changed) onChange();
  }

  async function drain(): Promise<number> {
    const keys = await db
      .selectFrom("key_backfills")
      .select(["xpub_id", "account_id", "coin", "requested_at"])
      .where("done_at", "is", null)
      .orderBy("requested_at")
      .limit(KEYS_PER_ROUND)
      .execute();
    let done = 0;
    let firstError: unknown;
    for (const key of keys) {
      try {
        await backfill({ ...key, xpub_id: Number(key.xpub_id), account_id: Number(key.account_id) });
        done++;
      } catch (error) {
        firstError ??= error;
      }
    }
    if (firstError !== undefined) throw firstError;
    return done;
  }

  const loop = startBackgroundLoop({
    name: "key history backfill",
    logger,
    round: async () => (await drain()) === KEYS_PER_ROUND,
    idleMs: IDLE_POLL_MS,
    retry: RETRY,
    wakeups,
  });

  return { wake: loop.wake, drain, stop: loop.stop };
}
