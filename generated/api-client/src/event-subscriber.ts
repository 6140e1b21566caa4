/**
 * A webhook subscriber that never misses an event (issue #30): verify a push, notice a gap in its
 * `sequence`, and read what is missing through the cursor (`GET /api/v1/webhooks/{webhook}/events`),
 * in one call. Keep `lastSequence` where you keep what you credited (in the same transaction), and
 * start the subscriber from it after a restart.
 *
 *   const subscriber = createEventSubscriber({ client, webhookId, secret, lastSequence: await loadCursor() });
 *   // in your webhook handler, with the raw body:
 *   for (const event of await subscriber.receive(request.headers, rawBody)) await credit(event); // oldest first
 *   await saveCursor(subscriber.lastSequence);
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { ApiClient } from "./create-api-client.ts";
import type { components } from "./schema.ts";

type Schemas = components["schemas"];
/** Every body chaingate POSTs (the OpenAPI document's `webhooks`). */
export type Notification =
  | Schemas["TransferNotification"]
  | Schemas["CoverageNotification"]
  | Schemas["DeliveryExhaustedNotification"]
  | Schemas["WebhookDisabledNotification"]
  | Schemas["TestNotification"];

export type Headers = Record<string, string | string[] | undefined>;

/** A push or a cursor item whose signature does not verify (wrong secret, tampered body, stale timestamp). */
export class SignatureError extends Error {
  override name = "SignatureError";
}

/** The events after the cursor were deleted after the retention period; `oldestSequence` is the oldest kept. */
export class EventsPrunedError extends Error {
  override name = "EventsPrunedError";
  readonly oldestSequence: number;
  constructor(message: string, oldestSequence: number) {
    super(message);
    this.oldestSequence = oldestSequence;
  }
}

export interface EventSubscriberOptions {
  client: ApiClient;
  webhookId: number;
  /** The webhook's signing secret (`whsec_…`) as issued. */
  secret: string;
  /** The newest sequence already handled (0 for none). */
  lastSequence: number;
  /** How old a signature's timestamp may be (default 300 s). */
  toleranceSeconds?: number;
  /** Events per cursor page (default 500, the most the API gives). */
  pageSize?: number;
}

export interface EventSubscriber {
  /** The newest sequence handed out so far. */
  readonly lastSequence: number;
  /**
   * Verifies a push and returns, oldest first, what is new: the events missing before it (read by
   * cursor) and the push itself. A push already handed out (a retry, a replay) returns nothing; a
   * test event (not numbered) is returned alone. Concurrent calls run one after another.
   * @throws SignatureError, EventsPrunedError, or an Error for an unexpected API answer
   */
  receive(headers: Headers, rawBody: string): Promise<Notification[]>;
  /** Everything after `lastSequence`, oldest first (run it at start and now and then). */
  catchUp(): Promise<Notification[]>;
}

export function createEventSubscriber(options: EventSubscriberOptions): EventSubscriber {
  const { client, webhookId, secret } = options;
  const tolerance = options.toleranceSeconds ?? 300;
  const pageSize = options.pageSize ?? 500;
  let lastSequence = options.lastSequence;
  // Pushes arrive concurrently: each call waits for the one before, so a gap is read once.
  let queue: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.then(work, work);
    queue = result.catch(() => undefined);
    return result;
  };

  /** Reads every event after `lastSequence` up to `through` (all when undefined), verified, oldest first. */
  async function readAfter(through?: number): Promise<Notification[]> {
    const events: Notification[] = [];
    for (;;) {
      const after = lastSequence;
      const { data, error, response } = await client.GET("/api/v1/webhooks/{webhook}/events", {
        params: { path: { webhook: webhookId }, query: { after, limit: pageSize } },
      });
      if (response.status === 410) {
        const pruned = error as { message: string; oldest_sequence: number };
        throw new EventsPrunedError(pruned.message, pruned.oldest_sequence);
      }
      if (!data) throw new Error(`reading the events after ${after} answered ${response.status}: ${JSON.stringify(error)}`);
      for (const item of data.data) {
        if (through !== undefined && item.sequence > through) return events;
        events.push(verified(item.headers, item.body));
        lastSequence = item.sequence;
      }
      if (!data.meta.has_more || !data.data.length) return events;
    }
  }

  function verified(headers: Headers, rawBody: string): Notification {
    if (!verifySignature(secret, headers, rawBody, tolerance)) throw new SignatureError("the notification's signature does not verify");
    return JSON.parse(rawBody) as Notification;
  }

  return {
    get lastSequence() {
      return lastSequence;
    },
    receive: (headers, rawBody) =>
      oneAtATime(async () => {
        const event = verified(headers, rawBody);
        if (!("sequence" in event)) return [event];
        if (event.sequence <= lastSequence) return [];
        const missing = event.sequence > lastSequence + 1 ? await readAfter(event.sequence - 1) : [];
        lastSequence = event.sequence;
        return [...missing, event];
      }),
    catchUp: () => oneAtATime(() => readAfter()),
  };
}

/** The spec's scheme: hex HMAC-SHA256(secret, timestamp + "." + raw body), the timestamp within the tolerance. */
function verifySignature(secret: string, headers: Headers, rawBody: string, toleranceSeconds: number): boolean {
  const header = (name: string) => {
    const value = headers[name] ?? headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  };
  const timestamp = header("x-service-timestamp") ?? "";
  const signature = header("x-service-signature") ?? "";
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const expected = createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex");
  return signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
}
