import { deliveryFailed, type EventPayload } from "@chaingate/contracts";
import type { DeliveryJobStore } from "../../infra/delivery-job-store.ts";

/** Failed jobs published per check at most. */
const FAILURE_BATCH = 100;

/** Where `delivery.failed` goes (the bus). */
export interface DeliveryFailedPublisher {
  publish(contract: typeof deliveryFailed, payload: EventPayload<typeof deliveryFailed>): Promise<unknown>;
}

/** Publishes `delivery.failed` for the failed jobs not published yet, marking each once published. */
export async function publishFailedJobs(jobs: DeliveryJobStore, publisher: () => Promise<DeliveryFailedPublisher>): Promise<void> {
  const failed = await jobs.unpublishedFailures(FAILURE_BATCH);
  if (!failed.length) return;
  const bus = await publisher();
  for (const { id, ...payload } of failed) {
    await bus.publish(deliveryFailed, payload);
    await jobs.markFailurePublished(id);
  }
}
