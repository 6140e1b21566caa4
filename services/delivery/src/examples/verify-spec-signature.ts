import { createHmac, timingSafeEqual } from "node:crypto";

/** True when a chaingate notification is authentic: HMAC-SHA256(secret, timestamp + "." + raw body). */
export function verifyChaingateSignature(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  rawBody: string,
  toleranceSeconds = 300,
): boolean {
  const timestamp = String(headers["x-service-timestamp"] ?? "");
  const signature = String(headers["x-service-signature"] ?? "");
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const expected = createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex");
  return signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
}
