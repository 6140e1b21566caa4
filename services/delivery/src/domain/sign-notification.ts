/**
 * Both signatures of a notification, with the same key: the whole secret string (`whsec_…`,
 * UTF-8 bytes), as the spec says.
 * - The spec's scheme (Events 3): `X-Service-Timestamp` = unix seconds, `X-Service-Signature` =
 *   lower-case hex of HMAC-SHA256(secret, timestamp + "." + raw body).
 * - Standard Webhooks: `webhook-id` = the event id (stable across retries), `webhook-timestamp`,
 *   `webhook-signature` = `v1,` + base64 of HMAC-SHA256(secret, id + "." + timestamp + "." + body);
 *   the `standardwebhooks` library verifies it with `new Webhook(secret, { format: "raw" })`.
 */
import { createHmac } from "node:crypto";

export const TIMESTAMP_HEADER = "x-service-timestamp";
export const SIGNATURE_HEADER = "x-service-signature";

export function signNotification(secret: string, eventId: string, body: string, nowSeconds: number): Record<string, string> {
  const timestamp = String(nowSeconds);
  const hmac = (message: string) => createHmac("sha256", secret).update(message);
  return {
    [TIMESTAMP_HEADER]: timestamp,
    [SIGNATURE_HEADER]: hmac(`${timestamp}.${body}`).digest("hex"),
    "webhook-id": eventId,
    "webhook-timestamp": timestamp,
    "webhook-signature": `v1,${hmac(`${eventId}.${timestamp}.${body}`).digest("base64")}`,
  };
}
