import { Webhook } from "svix";

/** Throws a WebhookVerificationError unless the notification is authentic. The secret is passed as it was issued (`whsec_…`), no options. */
export function verifySvixWebhook(secret: string, headers: Record<string, string>, rawBody: string): void {
  new Webhook(secret).verify(rawBody, headers);
}
