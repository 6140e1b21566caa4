/**
 * Relays the operator's record moves to JetStream as `key.moved.<coin>` (the delivery service hands
 * the key's addresses to the new account's webhooks). `key_moves` rows are the outbox, relayed as
 * address-issued-relay.ts relays addresses: claimed with `FOR UPDATE SKIP LOCKED`, published with the
 * contract's deterministic Nats-Msg-Id, stamped in the same transaction. The move is written by
 * `xpub-admin`, another process that cannot ring this one: the relay's idle poll finds it.
 */
import { keyMoved, type EventPayload } from "@chaingate/contracts";
import { startOutboxRelay, type OutboxRelay } from "@chaingate/service-kit";
import type { Logger } from "@chaingate/logger";
import type { Kysely, Transaction } from "kysely";
import type { XpubDatabase } from "./database-schema.ts";

/** Rows claimed per transaction (moves are rare: a batch is a backlog after a long NATS outage). */
export const KEY_MOVE_BATCH_SIZE = 100;

/** What the relay needs from the bus (packages/bus's Bus satisfies it). */
export interface KeyMovedPublisher {
  publish(contract: typeof keyMoved, payload: EventPayload<typeof keyMoved>): Promise<unknown>;
}

export interface KeyMovedRelayOptions {
  db: Kysely<XpubDatabase>;
  /** Resolves once the bus is connected; called again after a failure. */
  publisher: () => Promise<KeyMovedPublisher>;
  logger: Pick<Logger, "warn" | "info">;
}

export function startKeyMovedRelay(options: KeyMovedRelayOptions): OutboxRelay {
  return startOutboxRelay({
    name: "key.moved relay",
    logger: options.logger,
    publisher: options.publisher,
    relayBatch: (publisher) =>
      options.db.transaction().execute(async (trx) => {
        const published = await relayBatch(trx, publisher);
        return { published, more: published === KEY_MOVE_BATCH_SIZE };
      }),
  });
}

/** Claims, publishes (in move order) and stamps one batch; the number of moves it published. */
async function relayBatch(trx: Transaction<XpubDatabase>, publisher: KeyMovedPublisher): Promise<number> {
  const rows = await trx
    .selectFrom("key_moves as m")
    .innerJoin("extended_keys as k", "k.id", "m.key_id")
    .select(["m.id", "m.key_id", "m.from_account_id", "m.to_account_id", "m.next_index", "m.moved_at", "k.chain"])
    .where("m.published_at", "is", null)
    .orderBy("m.id")
    .limit(KEY_MOVE_BATCH_SIZE)
    .forUpdate("m")
    .skipLocked()
    .execute();
  for (const row of rows) {
    await publisher.publish(keyMoved, {
      move_id: row.id,
      xpub_id: row.key_id,
      coin: row.chain,
      from_account_id: row.from_account_id,
      to_account_id: row.to_account_id,
      next_index: row.next_index,
      moved_at: row.moved_at.toISOString(),
    });
  }
  const ids = rows.map((row) => row.id);
  if (ids.length) await trx.updateTable("key_moves").set({ published_at: new Date() }).where("id", "in", ids).execute();
  return rows.length;
}
