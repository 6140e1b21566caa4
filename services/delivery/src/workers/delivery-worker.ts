/**
 * Runs delivery jobs: claims the due ones from the job store, sends each on its own (no batch waits
 * for its slowest member), at most `perWebhook` at a time per webhook, `perAccount` per account and
 * `total` overall, so a slow or dead subscriber only ever holds its own slots and one account's
 * endpoints leave slots to the others (the claim shares free slots fairly between accounts, and a
 * webhook whose circuit breaker is open gets one at a time: see the job store). The outcome and the next schedule
 * (domain/attempt-outcome.ts) are stored with the attempt's log row before the slot is freed.
 * Failed jobs are published as `delivery.failed`; finished ones are pruned past retention.
 *
 * Each attempt is a span whose parent is the context stored with the job (the consumer span of its
 * `transfer.matched` message); the POST's client span is its child and sends `traceparent` on.
 */
import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { deliveryFailed, type EventPayload } from "@chaingate/contracts";
import type { Logger } from "@chaingate/logger";
import { AUTO_DISABLE_FAILURES, decideAttempt, shouldSkipJob } from "../domain/attempt-outcome.ts";
import { signNotification } from "../domain/sign-notification.ts";
import { noObserver, type DeliveryObserver } from "../infra/delivery-metrics.ts";
import type { ClaimedJob, DeliveryJobStore } from "../infra/delivery-job-store.ts";
import { contextOfTraceparent } from "../infra/job-trace-context.ts";
import type { SendNotification } from "../infra/send-notification.ts";
import { createWakeableSleep, type WakeableSleep } from "@chaingate/backoff";

const IDLE_POLL_MS = 200;
const ERROR_BACKOFF_MS = 1_000;
const FAILURE_BATCH = 100;
const FAILURE_CHECK_INTERVAL_MS = 1_000;
const PRUNE_INTERVAL_MS = 3_600_000;

const tracer = trace.getTracer("@chaingate/delivery");

export interface DeliveryWorkerOptions {
  jobs: DeliveryJobStore;
  send: SendNotification;
  logger: Logger;
  /** Resolves the bus (for `delivery.failed`). */
  publisher: () => Promise<{ publish(contract: typeof deliveryFailed, payload: EventPayload<typeof deliveryFailed>): Promise<unknown> }>;
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
  const inFlight = new Map<number, number>();
  const accountInFlight = new Map<number, number>();
  let running = 0;
  let stopped = false;
  const pause = options.wakeups ?? createWakeableSleep();
  const sending = new Set<Promise<void>>();

  async function attempt(job: ClaimedJob): Promise<void> {
    if (shouldSkipJob({ eventId: job.event_id, isActive: job.is_active === 1, deleted: job.deleted })) {
      await jobs.markSkipped(job.id);
      return;
    }
    const headers = signNotification(job.secret, job.event_id, job.body, Math.floor(Date.now() / 1000));
    const parent = contextOfTraceparent(job.traceparent);
    const span = tracer.startSpan(
      "webhook delivery attempt",
      {
        kind: SpanKind.INTERNAL,
        attributes: { "chaingate.webhook_id": job.webhook_id, "chaingate.event_id": job.event_id, "chaingate.attempt": job.attempts + 1 },
      },
      parent,
    );
    try {
      const result = await context.with(trace.setSpan(parent, span), () => options.send(job.webhook_url, job.body, headers));
      if (result.statusCode !== null) span.setAttribute("http.response.status_code", result.statusCode);
      if (result.error !== null) span.setStatus({ code: SpanStatusCode.ERROR, message: result.error });
      // The address is the operator's to see; the delivery log says only that it was not allowed.
      if (result.refusedAddress !== undefined)
        logger.warn(
          { webhookId: job.webhook_id, jobId: job.id, address: result.refusedAddress },
          "delivery refused by the connect-time address check",
        );
      const decision = decideAttempt(result, job.attempts + 1, options.retryScale, Date.now());
      if (decision.status === "delivered") {
        await jobs.recordDelivered(job, result);
        observer.attempt(job.coin, decision.outcome, result.latencyMs / 1000);
        return;
      }
      const { disabled } = await jobs.recordUndelivered(job, result, decision);
      observer.attempt(job.coin, decision.outcome, result.latencyMs / 1000);
      if (decision.status === "failed") observer.jobFailed(job.coin);
      if (disabled) {
        logger.warn({ webhookId: job.webhook_id }, `webhook disabled after ${AUTO_DISABLE_FAILURES} consecutive failed deliveries`);
        observer.webhookDisabled(job.coin);
        options.onWebhookChanged();
      }
    } finally {
      span.end();
    }
  }

  function launch(job: ClaimedJob): void {
    running++;
    countUp(inFlight, job.webhook_id);
    countUp(accountInFlight, job.account_id);
    const task = attempt(job)
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

  async function publishFailures(): Promise<void> {
    const failed = await jobs.unpublishedFailures(FAILURE_BATCH);
    if (!failed.length) return;
    const bus = await options.publisher();
    for (const { id, ...payload } of failed) {
      await bus.publish(deliveryFailed, payload);
      await jobs.markFailurePublished(id);
    }
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
          await publishFailures();
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

function countUp(counts: Map<number, number>, key: number): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function countDown(counts: Map<number, number>, key: number): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
