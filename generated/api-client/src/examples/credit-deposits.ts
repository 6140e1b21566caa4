import { createEventSubscriber, type ApiClient, type Notification } from "@chaingate/api-client";

/**
 * A webhook receiver's handler that credits every event once, oldest first: the pushes it missed are
 * read through the cursor when the next push shows the gap. Store `lastSequence` with what you credit.
 */
export function createDepositHandler(
  client: ApiClient,
  webhook: { id: number; secret: string; lastSequence: number },
  credit: (event: Notification) => Promise<void>,
) {
  const subscriber = createEventSubscriber({ client, webhookId: webhook.id, secret: webhook.secret, lastSequence: webhook.lastSequence });
  return {
    /** Call with the request's headers and raw body; answer 2xx once it resolves. */
    async handle(headers: Record<string, string>, rawBody: string): Promise<number> {
      for (const event of await subscriber.receive(headers, rawBody)) await credit(event);
      return subscriber.lastSequence;
    },
    /** At start and now and then (say, after a coverage event you did not expect): whatever is left. */
    async catchUp(): Promise<number> {
      for (const event of await subscriber.catchUp()) await credit(event);
      return subscriber.lastSequence;
    },
  };
}
