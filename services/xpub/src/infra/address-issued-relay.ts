/**
 * Relays issued addresses to JetStream as `address.issued.<coin>` (the delivery service adds them to
 * the webhooks that auto-watch their key). Rows are the outbox: unpublished ones are claimed with
 * `FOR UPDATE SKIP LOCKED` (replicas share the work), published with the contract's deterministic
 * Nats-Msg-Id (a republish after a crash is dropped as a duplicate), then stamped in the same
 * transaction. While NATS is down issuing goes on; the relay backs off and catches up.
 */
import { addressIssued, type EventPayload } from "@chaingate/contracts";
import { startOutboxRelay, type OutboxRelay } from "@chaingate/service-kit";
import type { Logger } from "@chaingate/logger";
import type { Kysely, Transaction } from "kysely";
import type { XpubDatabase } from "./database-schema.ts";

/** Rows claimed per transaction. */
export const RELAY_BATCH_SIZE = 500;

/** What the relay needs from the bus (packages/bus's Bus satisfies it). */
export interface AddressIssuedPublisher {
  publish(contract: typeof addressIssued, payload: EventPayload<typeof addressIssued>): Promise<unknown>;
}

/** `wake()` after issuing commits; `drain()` publishes what is pending now (tests). */
export type AddressIssuedRelay = OutboxRelay;

export interface AddressIssuedRelayOptions {
  db: Kysely<XpubDatabase>;
  /** Resolves once the bus is connected; called again after a failure. */
  publisher: () => Promise<AddressIssuedPublisher>;
  logger: Pick<Logger, "warn" | "info">;
}

export function startAddressIssuedRelay(options: AddressIssuedRelayOptions): AddressIssuedRelay {
  return startOutboxRelay({
    name: "address.issued relay",
    logger: options.logger,
    publisher: options.publisher,
    relayBatch: (publisher) =>
      options.db.transaction().execute(async (trx) => {
        const published = await relayBatch(trx, publisher);
        return { published, more: published === RELAY_BATCH_SIZE };
      }),
  });
}

/** Claims, publishes and stamps one batch; the number of rows it published. */
async function relayBatch(trx: Transaction<XpubDatabase>, publisher: AddressIssuedPublisher): Promise<number> {
  const rows = await trx
    .selectFrom("issued_addresses as a")
    .innerJoin("extended_keys as k", "k.id", "a.key_id")
    .select(["a.key_id", "a.index", "a.address", "a.account_id", "a.created_at", "k.chain", "k.kind"])
    .where("a.published_at", "is", null)
    .orderBy("a.key_id")
    .orderBy("a.index")
    .limit(RELAY_BATCH_SIZE)
    .forUpdate("a")
    .skipLocked()
    .execute();
  for (const row of rows) {
    await publisher.publish(addressIssued, {
      account_id: row.account_id,
      xpub_id: row.key_id,
      coin: row.chain,
      // EVM webhooks match lower case (the contract says so); Bitcoin addresses as issued.
      address: row.kind === "evm" ? row.address.toLowerCase() : row.address,
      index: row.index,
      issued_at: row.created_at.toISOString(),
    });
  }
  for (const row of rows) {
    await trx
      .updateTable("issued_addresses")
      .set({ published_at: new Date() })
      .where("key_id", "=", row.key_id)
      .where("index", "=", row.index)
      .execute();
  }
  return rows.length;
}
