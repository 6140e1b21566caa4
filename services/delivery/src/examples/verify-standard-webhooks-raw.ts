import { Webhook } from "standardwebhooks";

/** The form documented before stock verification worked: the whole `whsec_…` string as raw key bytes (still signed for). */
export function verifyStandardWebhookRawKey(secret: string, headers: Record<string, string>, rawBody: string): unknown {
  return new Webhook(secret, { format: "raw" }).verify(rawBody, headers);
}
