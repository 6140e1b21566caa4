/** The webhook registry's answers: a webhook, a page of webhooks, a page of a webhook's addresses. */
import { z } from "../../zod.ts";
import { anyCoinField } from "./webhook-fields.ts";
import { DEFAULT_CONFIRMATIONS } from "../../webhook-settings.ts";
import { WEBHOOK_LIST_ADDRESS_CAP } from "./webhook-limits.ts";

export const webhookSchema = z
  .object({
    id: z.number().int(),
    user_id: z.number().int().openapi({ description: "The owning account." }),
    coin: anyCoinField,
    webhook_url: z.string(),
    addresses: z.array(z.string()).openapi({
      description: `Every watched address (the webhook's own list plus the addresses issued by its \`xpub_ids\`), in address order. In the list answer (\`GET /api/v1/webhooks\`) at most the first ${WEBHOOK_LIST_ADDRESS_CAP}: compare with \`address_count\` and page the rest with \`GET /api/v1/webhooks/{webhook}/addresses\`. Every other answer carries them all (streamed by the service).`,
    }),
    address_count: z.number().int().openapi({ description: "How many addresses the webhook watches (a chaingate addition)." }),
    secret: z.string().openapi({ description: "`whsec_` + 64 hex characters; the whole string is the HMAC key.", example: "whsec_3f0c…" }),
    is_active: z
      .union([z.boolean(), z.literal(0), z.literal(1)])
      .openapi({ description: "The boolean sent in the create answer; 0 or 1 in every other answer (v1 compatibility)." }),
    xpub_ids: z.array(z.number().int()).openapi({ description: "Extended-key records auto-watched (a chaingate addition)." }),
    confirmations: z
      .number()
      .int()
      .openapi({ description: `Block depth at which transfers are notified (a chaingate addition; default ${DEFAULT_CONFIRMATIONS}).` }),
    include_tokens: z
      .boolean()
      .openapi({ description: "Whether token transfers are notified (a chaingate addition): ETH as chosen, BTC false, TRX true." }),
    all_tokens: z.boolean().openapi({
      description:
        "Whether every ERC-20 transfer is notified, unlisted tokens by contract address (a chaingate addition; default false, always false for BTC and TRX).",
    }),
    heartbeat_blocks: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Coverage heartbeats every this many blocks (a chaingate addition); null: none." }),
    heartbeat_seconds: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Coverage heartbeats every this many seconds (a chaingate addition); null: none." }),
    pending: z.boolean().openapi({
      description:
        "Whether mempool transfers are notified as `pending` events before their block (a chaingate addition; default false, always false for TRX).",
    }),
    last_sequence: z.number().int().openapi({
      description: "The newest event's sequence (a chaingate addition; 0 before the first): compare it with the last one you handled.",
    }),
    last_triggered_at: z.null(),
    deleted_at: z.null(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .openapi("Webhook");
export type Webhook = z.infer<typeof webhookSchema>;

export const webhookPageSchema = z
  .object({
    data: z.array(webhookSchema),
    meta: z.object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int(), last_page: z.number().int() }),
  })
  .openapi("WebhookPage");

export const webhookAddressPageSchema = z
  .object({
    data: z.array(
      z.object({
        address: z.string(),
        listed: z
          .boolean()
          .openapi({ description: "true: in the webhook's own list; false: watched only because a key in its `xpub_ids` issued it." }),
      }),
    ),
    meta: z.object({
      current_page: z.number().int(),
      per_page: z.number().int(),
      total: z.number().int(),
      last_page: z.number().int(),
      next_after: z.string().nullable().openapi({
        description:
          "The page's last address when the page is full (send it as `after` for the next page); null when it is not, so no page follows.",
      }),
    }),
  })
  .openapi("WebhookAddressPage");
