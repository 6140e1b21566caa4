/**
 * Defence in depth behind the NetworkPolicy: an internal service answers only requests that carry
 * the gateway's internal token, so a pod that reaches it by mistake cannot claim an account with
 * `x-chaingate-account-id`. Probes and metrics scrapes need no token (they carry no account).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { RequestHandler } from "express";
import { INTERNAL_TOKEN_HEADER } from "./internal-headers.ts";

/** Long enough to resist guessing over the network; checked at start-up by the config schema. */
export const MIN_INTERNAL_TOKEN_LENGTH = 32;
const OPEN_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);
export const INTERNAL_TOKEN_REFUSED_MESSAGE = "This service answers only requests forwarded by the gateway.";

const digest = (value: string) => createHash("sha256").update(value).digest();

export function requireInternalToken(token: string): RequestHandler {
  const expected = digest(token);
  return (req, res, next) => {
    if (OPEN_PATHS.has(req.path)) return next();
    const sent = req.headers[INTERNAL_TOKEN_HEADER];
    // Compared as fixed-length digests: constant time whatever the length sent.
    if (typeof sent === "string" && timingSafeEqual(digest(sent), expected)) return next();
    res.status(401).json({ message: INTERNAL_TOKEN_REFUSED_MESSAGE });
  };
}
