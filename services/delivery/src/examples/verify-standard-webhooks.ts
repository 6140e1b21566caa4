import { Webhook } from "standardwebhooks";

/** The verified payload, or a thrown WebhookVerificationError. The key is the whole `whsec_…` string, raw. */
export function verifyStandardWebhook(secret: string, headers: Record<string, string>, rawBody: string): unknown {
  return new Webhook(secret, { format: "raw" }).verify(rawBody, headers);
}
