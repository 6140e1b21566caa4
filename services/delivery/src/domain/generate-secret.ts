/** Webhook signing secrets: `whsec_` + 64 hex characters (32 bytes from the CSPRNG). */
import { randomBytes } from "node:crypto";

export const SECRET_PREFIX = "whsec_";

export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("hex");
}
