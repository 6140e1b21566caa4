/**
 * The signatures of a notification.
 * - The spec's scheme (Events 3): `X-Service-Timestamp` = unix seconds, `X-Service-Signature` =
 *   lower-case hex of HMAC-SHA256(secret, timestamp + "." + raw body), the key being the whole
 *   secret string (`whsec_…`, UTF-8 bytes), as the spec says.
 * - Standard Webhooks: `webhook-id` = the event id (stable across retries), `webhook-timestamp`,
 *   `webhook-signature` = `v1,` + base64 of HMAC-SHA256(key, id + "." + timestamp + "." + body),
 *   twice, space separated (the scheme allows several): once with the whole secret string as key
 *   (what `new Webhook(secret, { format: "raw" })` checks, the form integrators already use), once
 *   with the base64 decoding of what follows `whsec_` (how every stock library reads a secret given
 *   without options; our 64 hex characters are valid base64). A verifier accepts when any matches.
 * - During a rotation's overlap the replaced secret signs too: two more Standard Webhooks
 *   signatures, and `X-Service-Signature-Previous` for the spec's scheme (its header stays the new
 *   secret's), so a receiver still holding the old secret accepts the delivery.
 */
import { createHmac } from "node:crypto";
import { SECRET_PREFIX } from "./generate-secret.ts";

export const TIMESTAMP_HEADER = "x-service-timestamp";
export const SIGNATURE_HEADER = "x-service-signature";
export const PREVIOUS_SIGNATURE_HEADER = "x-service-signature-previous";

export function signNotification(
  secret: string,
  eventId: string,
  body: string,
  nowSeconds: number,
  previousSecret: string | null = null,
): Record<string, string> {
  const timestamp = String(nowSeconds);
  const hmac = (key: string | Buffer, message: string) => createHmac("sha256", key).update(message);
  const standardMessage = `${eventId}.${timestamp}.${body}`;
  const standardSignatures = (key: string) =>
    `v1,${hmac(key, standardMessage).digest("base64")} v1,${hmac(standardLibraryKey(key), standardMessage).digest("base64")}`;
  return {
    [TIMESTAMP_HEADER]: timestamp,
    [SIGNATURE_HEADER]: hmac(secret, `${timestamp}.${body}`).digest("hex"),
    ...(previousSecret === null ? {} : { [PREVIOUS_SIGNATURE_HEADER]: hmac(previousSecret, `${timestamp}.${body}`).digest("hex") }),
    "webhook-id": eventId,
    "webhook-timestamp": timestamp,
    "webhook-signature":
      previousSecret === null ? standardSignatures(secret) : `${standardSignatures(secret)} ${standardSignatures(previousSecret)}`,
  };
}

/** The key a Standard Webhooks library derives from a secret given without options. */
function standardLibraryKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
}
