/** The webhook API's not-found answers. */
import { ChaingateError } from "@chaingate/errors";

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
