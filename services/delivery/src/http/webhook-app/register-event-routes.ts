import { webhookEventsQuerySchema } from "@chaingate/contracts";
import { ValidationError } from "@chaingate/errors";
import { parseRequest, type HttpApp } from "@chaingate/http";
import { checkCursor, EventsPrunedError, sequenceHeader } from "../../domain/event-sequence.ts";
import { signNotification } from "../../domain/sign-notification.ts";
import { readOwnedWebhook } from "./read-owned-webhook.ts";
import type { WebhookAppOptions } from "./webhook-app-options.ts";
import { ONE_WEBHOOK_PATH } from "./webhook-paths.ts";

/** A webhook's numbered events by cursor, each signed as a push of it would be now. */
export function registerEventRoutes(http: HttpApp, options: WebhookAppOptions): void {
  const { repository, events } = options;

  http.route("get", `${ONE_WEBHOOK_PATH}/events`, async (req, res) => {
    const { webhookId, record } = await readOwnedWebhook(req, repository);
    const { after, limit } = parseRequest(webhookEventsQuerySchema, req.query);
    const { newest, prunedThrough } = await events.bounds(webhookId);
    const cursor = checkCursor(after, prunedThrough, newest);
    if (!cursor.ok && cursor.reason === "pruned") throw new EventsPrunedError(after, cursor.oldestKept);
    if (!cursor.ok)
      throw new ValidationError({ after: [`The after field must not be greater than the newest sequence, ${cursor.newest}.`] });
    const page = await events.read(webhookId, after, limit);
    const now = Math.floor(Date.now() / 1000);
    const nextAfter = page.at(-1)?.sequence ?? after;
    res.json({
      data: page.map((event) => ({
        sequence: event.sequence,
        event_id: event.event_id,
        delivery_id: event.delivery_id,
        status: event.status,
        created_at: event.created_at.toISOString(),
        body: event.body,
        headers: { ...signNotification(record.secret, event.event_id, event.body, now), ...sequenceHeader(event.sequence) },
      })),
      meta: { after, next_after: nextAfter, newest_sequence: newest, oldest_sequence: prunedThrough + 1, has_more: newest > nextAfter },
    });
  });
}
