/**
 * The transactional outbox's relay, whatever the table: rows written in the same transaction as
 * the change they announce are claimed, published and marked (or deleted) in one transaction per
 * batch, by one background loop per process (replicas share the work through row locks). The bus
 * is asked for on every round, so the service starts and keeps writing while NATS is down; the
 * relay backs off and catches up. A crash between publish and commit republishes the batch, which
 * the stream drops as duplicates (deterministic message ids) or `publishIfNewer` ignores.
 */
import type { BackoffSchedule, WakeableSleep } from "@chaingate/backoff";
import type { Logger } from "@chaingate/logger";
import { startBackgroundLoop } from "./background-loop.ts";

/** How often an idle relay looks for new rows (the writer also wakes it at once). */
export const OUTBOX_IDLE_POLL_MS = 1_000;
/** A failed round retries after 0.5 s, doubling up to 10 s. */
export const OUTBOX_RETRY: BackoffSchedule = { firstMs: 500, maxMs: 10_000 };

export interface OutboxBatch {
  /** Rows (or units of work) published by this batch. */
  published: number;
  /** More is waiting: the next batch runs at once. */
  more: boolean;
}

export interface OutboxRelayOptions<Publisher> {
  /** Names the relay in its log lines, e.g. "address.issued relay". */
  name: string;
  logger: Pick<Logger, "warn" | "info">;
  /** Resolves once the bus is connected; called again on every round after a failure. */
  publisher: () => Promise<Publisher>;
  /** Claims, publishes and marks one batch in one transaction. A throw leaves the rows queued. */
  relayBatch(publisher: Publisher): Promise<OutboxBatch>;
  idleMs?: number;
  retry?: BackoffSchedule;
  /** The doorbell the writer rings after its commit (see `startBackgroundLoop`). */
  wakeups?: WakeableSleep;
}

export interface OutboxRelay {
  /** The writer calls this after its commit: the new rows go out without waiting for the poll. */
  wake(): void;
  /** Publishes everything queued now (tests); resolves with how many were published. */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

export function startOutboxRelay<Publisher>(options: OutboxRelayOptions<Publisher>): OutboxRelay {
  async function drain(): Promise<number> {
    const publisher = await options.publisher();
    let total = 0;
    for (;;) {
      const { published, more } = await options.relayBatch(publisher);
      total += published;
      if (!more) return total;
    }
  }
  const loop = startBackgroundLoop({
    name: options.name,
    logger: options.logger,
    round: async () => (await drain(), false),
    idleMs: options.idleMs ?? OUTBOX_IDLE_POLL_MS,
    retry: options.retry ?? OUTBOX_RETRY,
    wakeups: options.wakeups,
  });
  return { wake: loop.wake, drain, stop: loop.stop };
}
