/**
 * The gap-proof drill's subscriber: the generated client's `createEventSubscriber`, used with its
 * defaults, one per webhook, behind a receiver that misbehaves as the drill says: down (503 to
 * every push), refusing one webhook's pushes (503), and silently losing a seeded share of the rest
 * (200, nothing kept). What the client hands out is recorded per webhook, with whether it came in
 * the push or was read by cursor.
 */
import { createApiClient, createEventSubscriber, type EventSubscriber, type Notification } from "@chaingate/api-client";
import type { LocalReceiver } from "@chaingate/delivery/testing";
import type { SeededRandom } from "@chaingate/testing";

export interface HandledEvent {
  notification: Notification;
  /** "push": the pushed body itself; "cursor": read through `GET …/events` (a gap, or the final catch-up). */
  via: "push" | "cursor";
}

export interface SubscriberCounts {
  pushes: number;
  /** Answered 503 while the receiver was down or refusing the webhook. */
  refused: number;
  /** Answered 200 and dropped. */
  lostSilently: number;
  /** Pushes the client handed out nothing for (a retry or replay of what it had). */
  alreadyHad: number;
}

export interface DrillSubscriber {
  /** Every event the client handed out, per webhook, in the order it handed them out. */
  handled: Map<number, HandledEvent[]>;
  counts: SubscriberCounts;
  /** Errors the client threw (a signature that did not verify, an API answer it did not expect). */
  errors: string[];
  /** While true every push is answered 503. */
  down: boolean;
  /** Webhooks whose pushes are answered 503. */
  refusing: Set<number>;
  /** Reads, for every webhook, what is left after its newest handled sequence (the final reconciliation). */
  catchUp(): Promise<void>;
}

export interface DrillSubscriberOptions {
  receiver: LocalReceiver;
  path: string;
  gatewayUrl: string;
  apiKey: string;
  webhooks: ReadonlyArray<{ id: number; secret: string }>;
  random: SeededRandom;
  lossRate: number;
}

export function startDrillSubscriber(options: DrillSubscriberOptions): DrillSubscriber {
  const client = createApiClient({ baseUrl: options.gatewayUrl, apiKey: options.apiKey });
  const subscribers = new Map<number, EventSubscriber>(
    options.webhooks.map(({ id, secret }) => [id, createEventSubscriber({ client, webhookId: id, secret, lastSequence: 0 })]),
  );
  const state: DrillSubscriber = {
    handled: new Map(options.webhooks.map(({ id }) => [id, []])),
    counts: { pushes: 0, refused: 0, lostSilently: 0, alreadyHad: 0 },
    errors: [],
    down: false,
    refusing: new Set(),
    async catchUp() {
      for (const [id, subscriber] of subscribers)
        for (const notification of await subscriber.catchUp()) state.handled.get(id)!.push({ notification, via: "cursor" });
    },
  };
  options.receiver.on(options.path, (request, response) => {
    state.counts.pushes++;
    const pushed = JSON.parse(request.body) as { webhook_id: number; sequence?: number };
    if (state.down || state.refusing.has(pushed.webhook_id)) {
      state.counts.refused++;
      return void response.writeHead(503).end();
    }
    if (options.random.next() < options.lossRate) {
      state.counts.lostSilently++;
      return void response.writeHead(200).end("ok");
    }
    subscribers
      .get(pushed.webhook_id)!
      .receive(request.headers, request.body)
      .then(
        (events) => {
          if (!events.length) state.counts.alreadyHad++;
          for (const notification of events)
            state.handled.get(pushed.webhook_id)!.push({
              notification,
              via: "sequence" in notification && notification.sequence === pushed.sequence ? "push" : "cursor",
            });
          response.writeHead(200).end("ok");
        },
        (error: unknown) => {
          state.errors.push(error instanceof Error ? error.message : String(error));
          response.writeHead(500).end();
        },
      );
  });
  return state;
}
