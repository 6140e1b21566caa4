import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Logger } from "@chaingate/logger";
import { AUTO_DISABLE_FAILURES, decideAttempt, unsentStatus } from "../../domain/attempt-outcome.ts";
import { sequenceHeader } from "../../domain/event-sequence.ts";
import { signNotification } from "../../domain/sign-notification.ts";
import type { DeliveryObserver } from "../../infra/delivery-metrics.ts";
import type { ClaimedJob, DeliveryJobStore } from "../../infra/delivery-job-store.ts";
import { contextOfTraceparent } from "../../infra/job-trace-context.ts";
import type { SendNotification } from "../../infra/send-notification.ts";

const tracer = trace.getTracer("@chaingate/delivery");

/** What one attempt needs of the worker. */
export interface DeliveryAttemptContext {
  jobs: DeliveryJobStore;
  send: SendNotification;
  logger: Logger;
  retryScale: number;
  observer: DeliveryObserver;
  /** After a webhook's state changed (auto-disable): the registry outbox relay should run. */
  onWebhookChanged: () => void;
}

/**
 * Sends the claimed job once (or skips it), as a span under the context stored with the job, and
 * stores the outcome and the job's next state; disables the webhook after its last failed job.
 */
export async function attemptDelivery(worker: DeliveryAttemptContext, job: ClaimedJob): Promise<void> {
  const { jobs, logger, observer } = worker;
  const unsent = unsentStatus({ eventId: job.event_id, isActive: job.is_active === 1, deleted: job.deleted });
  if (unsent === "skipped") return jobs.markSkipped(job.id);
  if (unsent === "held") return jobs.markHeld(job.id, job.webhook_id);
  const headers = {
    ...signNotification(job.secret, job.event_id, job.body, Math.floor(Date.now() / 1000), job.previous_secret),
    ...sequenceHeader(job.sequence),
  };
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
    const result = await context.with(trace.setSpan(parent, span), () => worker.send(job.webhook_url, job.body, headers));
    if (result.statusCode !== null) span.setAttribute("http.response.status_code", result.statusCode);
    if (result.error !== null) span.setStatus({ code: SpanStatusCode.ERROR, message: result.error });
    // The address is the operator's to see; the delivery log says only that it was not allowed.
    if (result.refusedAddress !== undefined)
      logger.warn(
        { webhookId: job.webhook_id, jobId: job.id, address: result.refusedAddress },
        "delivery refused by the connect-time address check",
      );
    const decision = decideAttempt(result, job.attempts + 1, worker.retryScale, Date.now());
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
      worker.onWebhookChanged();
    }
  } finally {
    span.end();
  }
}
