/**
 * The webhook registry's requests: the create, update and address-batch bodies, and the paging
 * queries of its lists.
 */
import { z } from "../../zod.ts";
import { DEFAULT_PER_PAGE, FIRST_PAGE, MAX_PER_PAGE, pageNumber } from "../xpub.ts";
import {
  addressesField,
  coinField,
  confirmationsField,
  heartbeatBlocksField,
  heartbeatSecondsField,
  heldEventsField,
  includeTokensField,
  allTokensField,
  isActiveField,
  pendingField,
  urlField,
  xpubIdsField,
} from "./webhook-fields.ts";
import { WEBHOOK_ADDRESS_MAX_CHARS, WEBHOOK_ADDRESS_PAGE_DEFAULT, WEBHOOK_ADDRESS_PAGE_MAX, WEBHOOK_MAX_PAGE } from "./webhook-limits.ts";

export const createWebhookRequestSchema = z
  .object({
    coin: coinField,
    webhook_url: urlField,
    addresses: addressesField,
    is_active: isActiveField.optional(),
    xpub_ids: xpubIdsField.optional(),
    confirmations: confirmationsField.optional(),
    include_tokens: includeTokensField.optional(),
    all_tokens: allTokensField.optional(),
    heartbeat_blocks: heartbeatBlocksField.optional(),
    heartbeat_seconds: heartbeatSecondsField.optional(),
    pending: pendingField.optional(),
  })
  .openapi("CreateWebhookRequest");
export type CreateWebhookRequest = z.infer<typeof createWebhookRequestSchema>;

/**
 * PUT is a partial update: each field sent replaces the stored one (addresses: the webhook's whole
 * own list; the addresses its `xpub_ids` issued stay watched), a field left out is kept. `coin` cannot change (the addresses belong to it).
 */
export const updateWebhookRequestSchema = z
  .object({
    webhook_url: urlField.optional(),
    addresses: addressesField.optional(),
    is_active: isActiveField.optional(),
    held_events: heldEventsField.optional(),
    xpub_ids: xpubIdsField.optional(),
    confirmations: confirmationsField.optional(),
    include_tokens: includeTokensField.optional(),
    all_tokens: allTokensField.optional(),
    heartbeat_blocks: heartbeatBlocksField.optional(),
    heartbeat_seconds: heartbeatSecondsField.optional(),
    pending: pendingField.optional(),
  })
  .superRefine((body, context) => {
    if (body.held_events !== undefined && body.is_active !== true)
      context.addIssue({ code: "custom", path: ["held_events"], message: "The held events field is only allowed when is active is true." });
  })
  .openapi("UpdateWebhookRequest");
export type UpdateWebhookRequest = z.infer<typeof updateWebhookRequestSchema>;

export const webhookAddressBatchSchema = z.object({ addresses: addressesField }).openapi("WebhookAddressBatch");

/** `page`, 1 to WEBHOOK_MAX_PAGE. */
const registryPage = () =>
  pageNumber("page", FIRST_PAGE, WEBHOOK_MAX_PAGE).openapi({
    description: `Page number, starting at ${FIRST_PAGE}, at most ${WEBHOOK_MAX_PAGE}. A page past the last answers an empty \`data\` with the real \`meta\`.`,
  });

/** Webhook list paging: the xpub address history's `per_page` (default 50, at most 500), `page` at most WEBHOOK_MAX_PAGE. */
export const webhookListQuerySchema = z.object({
  page: registryPage(),
  per_page: pageNumber("per_page", DEFAULT_PER_PAGE, MAX_PER_PAGE).openapi({
    description: `Items per page, 1 to ${MAX_PER_PAGE} (default ${DEFAULT_PER_PAGE}).`,
  }),
});

export const webhookAddressPageQuerySchema = z.object({
  page: registryPage(),
  per_page: pageNumber("per_page", WEBHOOK_ADDRESS_PAGE_DEFAULT, WEBHOOK_ADDRESS_PAGE_MAX).openapi({
    description: `Addresses per page, 1 to ${WEBHOOK_ADDRESS_PAGE_MAX} (default ${WEBHOOK_ADDRESS_PAGE_DEFAULT}).`,
  }),
  after: z
    .string()
    .min(1, { error: "The after field must not be empty." })
    .max(WEBHOOK_ADDRESS_MAX_CHARS, { error: `The after field must not be greater than ${WEBHOOK_ADDRESS_MAX_CHARS} characters.` })
    .optional()
    .openapi({
      description:
        "Start after this address in address order: pass the previous page's `meta.next_after` to read on at the same cost however deep (a `page` number makes the database skip every earlier address). `page` then counts on from there; `current_page` and `last_page` count from the start of the list only without it.",
    }),
});
