/**
 * Runs delivery jobs: claims the due ones from the job store, sends each on its own (no batch waits
 * for its slowest member), at most `perWebhook` at a time per webhook, `perAccount` per account and
 * `total` overall, so a slow or dead subscriber only ever holds its own slots and one account's
 * endpoints leave slots to the others (the claim shares free slots fairly between accounts, and a
 * webhook whose circuit breaker is open gets one at a time: see the job store). The outcome and the next schedule
 * (domain/attempt-outcome.ts) are stored with the attempt's log row before the slot is freed.
 * Failed jobs are published as `delivery.failed`, operational events fanned out to the account's
 * webhooks; finished jobs are pruned past retention.
 *
 * Each attempt is a span whose parent is the context stored with the job (the consumer span of its
 * `transfer.matched` message); the POST's client span is its child and sends `traceparent` on.
 */
import { createWakeableSleep, type WakeableSleep } from "@chaingate/backoff";
import type { Logger } from "@chaingate/logger";
import { noObserver, type DeliveryObserver } from "../infra/delivery-metrics.ts";
import type { ClaimedJob, DeliveryJobStore } from "../infra/delivery-job-store.ts";
import type { SendNotification } from "../infra/send-notification.ts";
import { attemptDelivery, type DeliveryAttemptContext } from "./delivery-worker/attempt-delivery.ts";
import { countDown, countUp } from "./delivery-worker/in-flight-counts.ts";
import { publishFailedJobs, type DeliveryFailedPublisher } from "./delivery-worker/publish-failed-jobs.ts";

const IDLE_POLL_MS = 200;
const ERROR_BACKOFF_MS = 1_000;
const FAILURE_CHECK_INTERVAL_MS = 1_000;
const PRUNE_INTERVAL_MS = 3_600_000;
/** Operational events (delivery.exhausted, webhook.disabled) fanned out per check at most. */
const OPERATIONAL_EVENT_BATCH = 100;

export interface DeliveryWorkerOptions {
  jobs: DeliveryJobStore;
  send: SendNotification;
  logger: Logger;
  /** Resolves the bus (for `delivery.failed`). */
  publisher: () => Promise<DeliveryFailedPublisher>;
  retryScale: number;
  perWebhook: number;
  /** Attempts in flight per account in this process. */
  perAccount: number;
  total: number;
  leaseMs: number;
  /** Deletes finished deliveries past retention; run every PRUNE_INTERVAL_MS. */
  prune: () => Promise<number>;
  /** After a webhook's state changed (auto-disable): the registry outbox relay should run. */
  onWebhookChanged: () => void;
  /** Told of every attempt, failed job and disabled webhook (the service's metrics). */
  observer?: DeliveryObserver;
  /** The doorbell rung when jobs are queued (made before the worker; default its own). */
  wakeups?: WakeableSleep;
}

export interface DeliveryWorker {
  wake(): void;
  stop(): Promise<void>;
}

export function startDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { jobs, logger } = options;
  const observer = options.observer ?? noObserver;
  const attemptContext: DeliveryAttemptContext = { ...options, observer };
  const inFlight = new Map<number, number>();
  const accountInFlight = new Map<number, number>();
  let running = 0;
  let stopped = false;
  const pause = options.wakeups ?? createWakeableSleep();
  const sending = new Set<Promise<void>>();

  function launch(job: ClaimedJob): void {
    running++;
    countUp(inFlight, job.webhook_id);
    countUp(accountInFlight, job.account_id);
    const task = attemptDelivery(attemptContext, job)
      .catch((error: unknown) =>
        logger.warn({ err: error, jobId: job.id }, "delivery attempt not recorded; the job is due again after its lease"),
      )
      .finally(() => {
        running--;
        countDown(inFlight, job.webhook_id);
        countDown(accountInFlight, job.account_id);
        sending.delete(task);
        pause.wake();
      });
    sending.add(task);
  }

  const loop = (async () => {
    let lastFailureCheck = 0;
    let lastPrune = 0;
    while (!stopped) {
      let claimed = 0;
      try {
        const due = await jobs.claim({
          free: options.total - running,
          inFlight,
          accountInFlight,
          perWebhook: options.perWebhook,
          perAccount: options.perAccount,
          leaseMs: options.leaseMs,
        });
        claimed = due.length;
        for (const job of due) launch(job);
        if (Date.now() - lastFailureCheck > FAILURE_CHECK_INTERVAL_MS) {
          lastFailureCheck = Date.now();
          await publishFailedJobs(jobs, options.publisher);
          if (await jobs.fanOutOperationalEvents(OPERATIONAL_EVENT_BATCH)) pause.wake();
        }
        if (Date.now() - lastPrune > PRUNE_INTERVAL_MS) {
          lastPrune = Date.now();
          const pruned = await options.prune();
          if (pruned) logger.info({ pruned }, "deliveries past retention deleted");
        }
      } catch (error) {
        logger.warn({ err: error }, "delivery loop failed; backing off");
        await pause.sleep(ERROR_BACKOFF_MS);
        continue;
      }
      if (stopped) break;
      if (claimed > 0 && running < options.total) continue;
      await pause.sleep(IDLE_POLL_MS);
    }
  })();

  return {
    wake: pause.wake,
    async stop() {
      stopped = true;
      pause.wake();
      await loop;
      await Promise.all([...sending]);
    },
  };
}
