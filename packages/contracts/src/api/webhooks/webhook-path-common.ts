/** What the webhook and delivery paths of the OpenAPI document share: the id parameter, the tag and the common answers. */
import { z } from "../../zod.ts";
import { json } from "../../openapi/openapi-registry.ts";
import { messageErrorSchema, validationErrorSchema } from "../error-bodies.ts";

export const webhookIdParam = z.object({
  webhook: z.number().int().nonnegative().openapi({ description: "Webhook id (digits; anything else is a routing miss).", example: 1 }),
});
export const NOT_FOUND = json(
  "No webhook with this id belongs to the caller's account (also for non-numeric ids, as a routing miss).",
  messageErrorSchema,
);
export const VALIDATION = json("`{message, errors}`: the field-by-field reasons.", validationErrorSchema);
const QUOTAS =
  "Also a quota, named with its value: `errors.webhooks` when the account has QUOTA_WEBHOOKS_PER_ACCOUNT live webhooks (default 1,000), `errors.addresses` when the write would leave the account watching more than QUOTA_WEBHOOK_ADDRESSES_PER_ACCOUNT addresses over its webhooks (default 1,000,000; addresses issued by `xpub_ids` keys count but are never refused).";
export const VALIDATION_OR_QUOTA = json(`\`{message, errors}\`: the field-by-field reasons. ${QUOTAS}`, validationErrorSchema);
export const TAG = ["Webhooks"];
export const dataOf = (schema: z.ZodType) => z.object({ data: schema });
