/**
 * Relays issued addresses to JetStream as `address.issued.<coin>` (the delivery service adds them to
 * the webhooks that auto-watch their key). Rows are the outbox: unpublished ones are claimed with
 * `FOR UPDATE SKIP LOCKED` (replicas share the work), published with the contract's deterministic
 * Nats-Msg-Id (a republish after a crash is dropped as a duplicate), then stamped in the same
 * transaction. While NATS is down issuing goes on; the relay backs off and catches up.
 */
import { addressIssued, type EventPayload } from "@chaingate/contracts";
import type { Kysely } from "kysely";
import type { XpubDatabase } from "./database-schema.ts";

/** Rows claimed per transaction. */
export const RELAY_BATCH_SIZE = 500;
/** How often an idle relay looks for new rows (issuing also wakes it at once). */
const IDLE_POLL_MS = 1_000;
const FIRST_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 10_000;

/** What the relay needs from the bus (packages/bus's Bus satisfies it). */
export interface AddressIssuedPublisher {
  publish(contract: typeof addressIssued, payload: EventPayload<typeof addressIssued>): Promise<unknown>;
}

export interface RelayLogger {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

export interface AddressIssuedRelay {
  /** Issuing calls this after a commit: the new rows go out without waiting for the poll. */
  wake(): void;
  /** Publishes what is pending now (tests); resolves with how many rows were published. */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

/** How long stop() waits for a relay still waiting on NATS. */
const STOP_TIMEOUT_MS = 2_000;

export interface AddressIssuedRelayOptions {
  db: Kysely<XpubDatabase>;
  /** Resolves once the bus is connected; called again after a failure. */
  publisher: () => Promise<AddressIssuedPublisher>;
  logger: RelayLogger;
}

export function startAddressIssuedRelay(options: AddressIssuedRelayOptions): AddressIssuedRelay {
  const { db, logger } = options;
  let stopped = false;
  let wakeUp: (() => void) | undefined;
  let failures = 0;

  /** Claims, publishes and stamps one batch; the number of rows it published. */
  async function relayBatch(publisher: AddressIssuedPublisher): Promise<number> {
    return db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom("issued_addresses as a")
        .innerJoin("extended_keys as k", "k.id", "a.key_id")
        .select(["a.key_id", "a.index", "a.address", "a.account_id", "a.created_at", "k.chain"])
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
          // Ethereum webhooks match lower case (the contract says so); Bitcoin addresses as issued.
          address: row.chain === "ETH" ? row.address.toLowerCase() : row.address,
          index: row.index,
          issued_at: row.created_at.toISOString(),
        });
      }
      for (const row of rows) {
        await trx.updateTable("issued_addresses").set({ published_at: new Date() }).where("key_id", "=", row.key_id).where("index", "=", row.index).execute();
      }
      return rows.length;
    });
  }

  async function drain(): Promise<number> {
    const publisher = await options.publisher();
    let total = 0;
    for (;;) {
      const published = await relayBatch(publisher);
      total += published;
      if (published < RELAY_BATCH_SIZE) return total;
    }
  }

  const loop = (async () => {
    while (!stopped) {
      let delay = IDLE_POLL_MS;
      try {
        await drain();
        if (failures > 0) logger.info({ after_failures: failures }, "address.issued relay caught up");
        failures = 0;
      } catch (error) {
        failures++;
        delay = Math.min(FIRST_RETRY_DELAY_MS * 2 ** (failures - 1), MAX_RETRY_DELAY_MS);
        logger.warn({ err: error, retry_in_ms: delay }, "address.issued relay failed; addresses stay queued");
      }
      await new Promise<void>((resolve) => {
        wakeUp = resolve;
        setTimeout(resolve, delay).unref();
      });
    }
  })();

  return {
    wake: () => wakeUp?.(),
    drain,
    async stop() {
      stopped = true;
      wakeUp?.();
      // A relay still waiting for NATS to come up has nothing to finish.
      await Promise.race([loop, new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS).unref())]);
    },
  };
}
