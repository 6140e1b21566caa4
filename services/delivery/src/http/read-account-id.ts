/** The caller's account, as the gateway authenticated it. */
import { ChaingateError } from "@chaingate/errors";
import { ACCOUNT_ID_HEADER } from "@chaingate/http";
import type { Request } from "express";

/** Thrown when a request did not come through the gateway (the header is the only identity here). */
export class MissingAccountError extends ChaingateError {
  override name = "MissingAccountError" as const;
  constructor() {
    super("missing_account", `The request carries no ${ACCOUNT_ID_HEADER} header; call this service through the gateway.`);
  }
}

/** @throws MissingAccountError when absent or not a positive integer. */
export function readAccountId(req: Request): number {
  const raw = req.get(ACCOUNT_ID_HEADER);
  const accountId = raw !== undefined && /^[0-9]{1,15}$/.test(raw) ? Number(raw) : 0;
  if (accountId < 1) throw new MissingAccountError();
  return accountId;
}

/** Unknown id and another account's id get this same error, so a caller cannot learn that another account's webhook exists. */
export class WebhookNotFoundError extends ChaingateError {
  override name = "WebhookNotFoundError" as const;
  constructor(id: string) {
    super("webhook_not_found", `No webhook with id ${id} was found.`);
  }
}

/** A delivery id that is not one of this webhook's deliveries. */
export class DeliveryNotFoundError extends ChaingateError {
  override name = "DeliveryNotFoundError" as const;
  constructor(id: string) {
    super("delivery_not_found", `No delivery with id ${id} was found.`);
  }
}
