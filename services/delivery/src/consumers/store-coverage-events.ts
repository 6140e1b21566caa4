/**
 * Stores coverage events (block and clock heartbeats alike) so that they come after what they cover:
 * first the `transfer.matched` consumer must have acknowledged everything the TRANSFERS stream holds
 * now (the scanner published every transfer of a processed block before the block), then the events
 * are numbered in one transaction, with whatever else the caller writes in it.
 */
import type { Bus } from "@chaingate/bus";
import { transferMatched } from "@chaingate/contracts";
import type { Kysely, Transaction } from "kysely";
import type { coverageEventBody } from "../domain/coverage-heartbeats.ts";
import type { DeliveryDatabase } from "../infra/database-schema.ts";
import { storeNumberedJobs } from "../infra/store-numbered-jobs.ts";
import { TRANSFER_MATCHED_CONSUMER } from "./store-matched-transfers.ts";

/** Past this the caller fails and tries again later (the transfer consumer is stuck: a database outage). */
export const COVERAGE_PROGRESS_WAIT_MS = 20_000;
/** How often the transfer consumer's progress is read while waiting for it. */
const PROGRESS_POLL_MS = 100;

/** How many were queued to be sent (an inactive webhook's are held). */
export async function storeCoverageEvents(
  db: Kysely<DeliveryDatabase>,
  bus: Pick<Bus, "waitUntilConsumed">,
  events: ReadonlyArray<{ webhookId: number; body: ReturnType<typeof coverageEventBody> }>,
  alsoInTransaction: (trx: Transaction<DeliveryDatabase>) => Promise<void> = async () => {},
): Promise<number> {
  await bus.waitUntilConsumed(transferMatched, TRANSFER_MATCHED_CONSUMER, {
    timeoutMs: COVERAGE_PROGRESS_WAIT_MS,
    pollMs: PROGRESS_POLL_MS,
  });
  const { queued } = await db.transaction().execute(async (trx) => {
    const stored = await storeNumberedJobs(
      trx,
      events.map(({ webhookId, body }) => ({ webhookId, eventId: body.event_id, body, traceparent: null })),
    );
    await alsoInTransaction(trx);
    return stored;
  });
  return queued;
}
