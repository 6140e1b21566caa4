import { Webhook } from "standardwebhooks";

/** The verified payload, or a thrown WebhookVerificationError. The secret is passed as it was issued (`whsec_…`), no options. */
export function verifyStandardWebhook(secret: string, headers: Record<string, string>, rawBody: string): unknown {
  return new Webhook(secret).verify(rawBody, headers);
}
