import type { ChainRegistry } from "@chaingate/chain-registry";
import type { FieldErrors } from "@chaingate/errors";
import { checkRequest } from "@chaingate/http";
import type { z } from "zod";
import { checkWebhookUrl } from "../../domain/check-webhook-url.ts";
import type { WebhookAppOptions } from "./webhook-app-options.ts";
import { COIN_INVALID_MESSAGE } from "@chaingate/contracts";

/**
 * The schema's verdict, and the checks that need no other field: the coin is one this deployment
 * serves (the chain registry), the URL's own. They run even when the schema refused other fields,
 * so one 422 names every invalid field, in the body's order. `body` is undefined when the schema
 * refused the request.
 */
export async function checkWebhookBody<Schema extends z.ZodType<{ webhook_url?: string | undefined }>>(
  schema: Schema,
  input: unknown,
  checks: Pick<WebhookAppOptions, "resolveHost" | "allowCidrs">,
  /** The deployment's chains, for a body that names its coin (create). */
  coins?: ChainRegistry,
): Promise<{ body: z.infer<Schema> | undefined; errors: FieldErrors }> {
  const checked = checkRequest(schema, input);
  const coin = (input as { coin?: unknown } | null)?.coin;
  const unknownCoin = coins !== undefined && typeof coin === "string" && coins.chain(coin) === undefined;
  const schemaErrors: FieldErrors = checked.ok ? {} : checked.fieldErrors;
  const errors: FieldErrors = unknownCoin && !schemaErrors.coin ? { coin: [COIN_INVALID_MESSAGE], ...schemaErrors } : schemaErrors;
  const url = checked.ok ? checked.data.webhook_url : (input as { webhook_url?: unknown } | null)?.webhook_url;
  if (typeof url === "string" && !errors.webhook_url) {
    const reason = await checkWebhookUrl(url, checks.resolveHost, checks.allowCidrs);
    if (reason) errors.webhook_url = [reason];
  }
  return { body: checked.ok && !unknownCoin ? checked.data : undefined, errors };
}
