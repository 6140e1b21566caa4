/**
 * What chaingate POSTs to a webhook's URL: one schema per event type, published as the OpenAPI
 * document's `webhooks` so an integrator reads the bodies there, not in the services' code. Every
 * numbered event carries `sequence` (also in `X-Service-Sequence`); test events are not numbered.
 */
import { blockTransferSchema, chainIdSchema, mempoolTransferSchema, TRANSFER_DIRECTIONS } from "../../events/transfer-matched.ts";
import { anyCoinField } from "./webhook-fields.ts";
import { z } from "../../zod.ts";

/**
 * The version of the bodies chaingate POSTs. A new field is added without a new version; a field
 * removed or changed in meaning raises it. Bodies stored before versions existed (still readable by
 * cursor within the retention) have no `version`, `direction`, `chain` or `xpub`.
 */
export const NOTIFICATION_VERSION = 1;

const versionField = z.literal(NOTIFICATION_VERSION).openapi({
  description: "The body's version (see the event contract in docs/events.md): fields are only ever added within one version.",
});

const chainField = chainIdSchema.nullable().openapi({
  description:
    "The chain as a CAIP-2 id, read from the node's own identity: `bip122:000000000019d6689c085ae165831e93` (Bitcoin mainnet), `eip155:1` (Ethereum mainnet), `tron:0x2b6653dc` (Tron mainnet); a testnet or regtest has its own. Null only for an event the scanner published before it said its chain.",
  example: "eip155:1",
});

const sequenceField = z.number().int().positive().openapi({
  description:
    "The event's number in this webhook's history: 1, 2, 3, … without gaps, the same on every retry and replay (also the `X-Service-Sequence` header). A jump means events were missed: read them with `GET /api/v1/webhooks/{webhook}/events?after=`.",
});

const directionField = z.enum(TRANSFER_DIRECTIONS).openapi({
  description:
    '"in": the watched address received (it is `to`); "out": it sent (it is `from`): notified, never a credit. A webhook watching both sides gets one event, "in".',
});

const xpubField = z
  .object({
    id: z.number().int().positive().openapi({ description: "The extended key's id (`/api/v1/xpub/…` answers it)." }),
    index: z.number().int().nonnegative().nullable().openapi({
      description: "The address's derivation index; null for an address issued before the registry kept indexes.",
    }),
  })
  .nullable()
  .openapi({
    description: "The extended key that issued `watched_address`, when chaingate issued it; null for an address listed by hand.",
  });

/** What delivery adds to every transfer event of the scanner (see transferNotificationBody). */
const deliveredFields = { version: versionField, chain: chainField, direction: directionField, xpub: xpubField };

/** The transfer fields of a notification: the scanner's event as delivery completes it (see transferNotificationBody). */
const transferNotificationFields = blockTransferSchema.extend(deliveredFields);

export const transferNotificationSchema = transferNotificationFields.extend({ sequence: sequenceField }).openapi("TransferNotification", {
  description:
    '`type` "transfer": a transfer to (or, for the spec\'s `from`, from) a watched address is in a block `confirmations` deep. "reverted": a transfer notified earlier left the best chain; the same transfer fields, a new event id. The last word on a transfer (txid, position, currency) is its event with the highest `generation`, and within one generation "reverted" comes after "transfer".',
});

export const testNotificationSchema = transferNotificationFields
  .omit({ type: true })
  .extend({
    type: z.literal("test"),
    test: z.literal(true),
    created_at: z.iso.datetime(),
  })
  .openapi("TestNotification", {
    description:
      'Sent by `POST /api/v1/webhooks/{webhook}/test`, also to an inactive webhook; not numbered. Shaped like a transfer (every field a crediting code reads: the webhook\'s first address, amount "0", a zero txid and block) so that code can be exercised, but `type` "test" and `test` true.',
  });

export const mempoolNotificationSchema = mempoolTransferSchema
  .extend({ ...deliveredFields, sequence: sequenceField })
  .openapi("MempoolNotification", {
    description:
      'Only for a webhook with `pending` on (BTC and ETH). "pending": a transaction paying (or, for the spec\'s `from`, spent by) a watched address is in the node\'s mempool, in no block yet: show it, never credit it. Then exactly one outcome: the ordinary "transfer" when it is mined (at the webhook\'s confirmations), or "replaced" (`conflicting_txid` took its place in the mempool and may pay less or nothing), "double_spent" (`conflicting_txid`, spending the same inputs, was mined), or "dropped" (it left the mempool without a block, see docs/events.md). A transaction first seen in a block gets no "pending". Within one `generation`, "pending" ranks below its outcome, which ranks below "transfer" and "reverted".',
  });

const operationalFields = {
  version: versionField,
  event_id: z.string().openapi({ description: "This copy's id (`evt_op_…`), also `webhook-id`: deduplicate by it." }),
  webhook_id: z.number().int().openapi({ description: "The webhook receiving this copy." }),
  sequence: sequenceField,
  created_at: z.iso.datetime().openapi({ description: "When it happened." }),
};

export const deliveryExhaustedNotificationSchema = z
  .object({
    ...operationalFields,
    type: z.literal("delivery.exhausted"),
    subject: z.object({
      webhook_id: z.number().int().openapi({ description: "The webhook whose delivery ran out of attempts." }),
      coin: anyCoinField,
      event_id: z.string().openapi({ description: "The event that was not delivered." }),
      sequence: z.number().int().nullable().openapi({ description: "Its number in that webhook's history: read it there by cursor." }),
      attempts: z.number().int(),
      last_status: z.number().int().nullable().openapi({ description: "The last answer's HTTP status; null when none came." }),
      last_error: z.string().nullable(),
    }),
  })
  .openapi("DeliveryExhaustedNotification", {
    description:
      "A transfer's (or revert's) delivery used up its attempts (about 28 hours). Sent to the account's other webhooks; not after a 410, which is the receiver's own way to stop one event's retries.",
  });

export const webhookDisabledNotificationSchema = z
  .object({
    ...operationalFields,
    type: z.literal("webhook.disabled"),
    subject: z.object({
      webhook_id: z.number().int().openapi({ description: "The webhook that was disabled." }),
      coin: anyCoinField,
      failed_deliveries: z.number().int().openapi({ description: "Deliveries in a row that ran out of attempts." }),
      last_sequence: z.number().int().openapi({ description: "Its newest event's sequence when it was disabled." }),
    }),
  })
  .openapi("WebhookDisabledNotification", {
    description:
      "A webhook was disabled after 20 deliveries in a row ran out of attempts. Sent to the account's other webhooks, and kept (held) in the disabled webhook's own history: it is pushed there with the rest of its backlog when the webhook is enabled again with `held_events: push`. While disabled the webhook's transfers are still matched and held.",
  });

export const coverageNotificationSchema = z
  .object({
    event_id: z.string(),
    type: z.literal("coverage"),
    version: versionField,
    webhook_id: z.number().int(),
    sequence: sequenceField,
    coin: anyCoinField,
    chain: chainField,
    block: z
      .object({ height: z.number().int(), hash: z.string(), time: z.iso.datetime() })
      .openapi({ description: "The block the scanner processed." }),
    confirmed_height: z.number().int().openapi({
      description:
        "Every transfer the scanner had found in blocks up to this height (the block's height − confirmations + 1) was sent before this event, with a lower sequence.",
    }),
  })
  .openapi("CoverageNotification", {
    description:
      "An opt-in heartbeat (`heartbeat_blocks`): at every processed block whose height is a multiple of it, this event says that nothing before it was skipped. If your newest handled sequence is `sequence - 1`, you have everything up to `confirmed_height`; otherwise read the gap by cursor. A block that leaves the chain and a new one at the same height give a second coverage event (another hash).",
  });

/** Every body chaingate POSTs, by `type`. */
export const notificationSchema = z.discriminatedUnion("type", [
  transferNotificationSchema,
  mempoolNotificationSchema,
  testNotificationSchema,
  deliveryExhaustedNotificationSchema,
  webhookDisabledNotificationSchema,
  coverageNotificationSchema,
]);
export type Notification = z.infer<typeof notificationSchema>;
