import type { FieldErrors } from "@chaingate/errors";
import { checkRequest } from "@chaingate/http";
import type { z } from "zod";
import { checkWebhookUrl } from "../../domain/check-webhook-url.ts";
import type { WebhookAppOptions } from "./webhook-app-options.ts";

/**
 * The schema's verdict and the URL's own checks, which need no other field: they run even when
 * the schema refused other fields, so one 422 names every invalid field. `body` is undefined when
 * the schema refused the request.
 */
export async function checkWebhookBody<Schema extends z.ZodType<{ webhook_url?: string | undefined }>>(
  schema: Schema,
  input: unknown,
  urlChecks: Pick<WebhookAppOptions, "resolveHost" | "allowCidrs">,
): Promise<{ body: z.infer<Schema> | undefined; errors: FieldErrors }> {
  const checked = checkRequest(schema, input);
  const errors: FieldErrors = checked.ok ? {} : checked.fieldErrors;
  const url = checked.ok ? checked.data.webhook_url : (input as { webhook_url?: unknown } | null)?.webhook_url;
  if (typeof url === "string" && !errors.webhook_url) {
    const reason = await checkWebhookUrl(url, urlChecks.resolveHost, urlChecks.allowCidrs);
    if (reason) errors.webhook_url = [reason];
  }
  return { body: checked.ok ? checked.data : undefined, errors };
}
