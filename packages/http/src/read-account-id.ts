/** The caller's account, as the gateway authenticated it: what every service behind the gateway reads. */
import { ChaingateError } from "@chaingate/errors";
import type { Request } from "express";
import { ACCOUNT_ID_HEADER } from "./internal-headers.ts";

export const MISSING_ACCOUNT_MESSAGE = `The request carries no ${ACCOUNT_ID_HEADER} header; call this service through the gateway.`;

/** Thrown when a request did not come through the gateway (the header is the only identity here). */
export class MissingAccountError extends ChaingateError {
  override name = "MissingAccountError" as const;
  constructor() {
    super("missing_account", MISSING_ACCOUNT_MESSAGE);
  }
}

/**
 * Reads the account id the gateway set (it strips any client-sent copy, so it can be trusted).
 * @throws MissingAccountError when absent or not a positive integer.
 */
export function readAccountId(req: Request): number {
  const raw = req.get(ACCOUNT_ID_HEADER);
  const accountId = raw !== undefined && /^[0-9]{1,15}$/.test(raw) ? Number(raw) : 0;
  if (accountId < 1) throw new MissingAccountError();
  return accountId;
}
