/** The delivery service's settings, from the environment. */
import { databaseSettings, env, natsSettings, serviceSettings } from "@chaingate/config";
import { z } from "zod";
import { bitcoinNetworkSettings } from "@chaingate/bitcoin";
import { evmChainsSetting } from "@chaingate/chain-registry";
import { parseAllowCidrs } from "./domain/forbidden-address.ts";
import { DEFAULT_REGISTRY_QUOTAS } from "./domain/registry-quotas.ts";

export const deliveryConfigSchema = z.object({
  // Listening (internal: only the gateway calls it), logging, shutdown, the internal token
  ...serviceSettings(8103),
  ...databaseSettings(),
  // Events: consumes address.issued, publishes webhook.changed (from the outbox)
  ...natsSettings(),

  // Registry
  // Which Bitcoin address forms webhooks accept.
  ...bitcoinNetworkSettings(),
  // The EVM chains beside Ethereum that webhooks may be made for (coin = the name in capitals).
  EVM_CHAINS: evmChainsSetting(),
  WEBHOOK_ALLOW_CIDRS: z
    .string()
    .default("")
    .refine((text) => {
      try {
        parseAllowCidrs(text);
        return true;
      } catch {
        return false;
      }
    }, "must be comma-separated CIDRs such as 127.0.0.1/32")
    .describe("Comma-separated CIDRs webhook URLs may reach although not public (tests, labs); empty by default."),

  XPUB_URL: z
    .url()
    .optional()
    .describe(
      "The xpub service's internal URL (as the gateway's XPUB_URL): the registry reads, once per key a webhook names (and once more for its new account when the operator moves the key), the addresses it issued before the registry recorded `address.issued`. Unset: those earlier addresses are not watched (the ones recorded since migration 0005 are).",
    ),
  WATCH_WATERMARK_INTERVAL_MS: env
    .positiveInt(1_000)
    .describe(
      "How often the registry publishes its watch-feed watermark (`webhook.watermark`, also right after relaying changes). The scanner waits for a watermark newer than a block before matching it, so this bounds the idle part of its notification latency.",
    ),

  // Quotas (see domain/registry-quotas.ts): a write past one is a 422 naming it, a test event past its rate a 429
  QUOTA_WEBHOOKS_PER_ACCOUNT: env
    .positiveInt(DEFAULT_REGISTRY_QUOTAS.webhooksPerAccount)
    .describe("Live webhooks one account may have (422 past it)."),
  QUOTA_WEBHOOK_ADDRESSES_PER_ACCOUNT: env
    .positiveInt(DEFAULT_REGISTRY_QUOTAS.addressesPerAccount)
    .describe(
      "Addresses watched over one account's webhooks: its own lists and the addresses its keys issued, which count but are never refused (422 past it).",
    ),
  WEBHOOK_SECRET_OVERLAP_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .default(86_400)
    .describe(
      "After `POST /webhooks/{id}/secret` the replaced secret keeps signing deliveries beside the new one this long (a second Standard Webhooks signature, and X-Service-Signature-Previous), so receivers switch keys without refusing one; 0: the new secret alone at once.",
    ),
  QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE: env
    .positiveInt(DEFAULT_REGISTRY_QUOTAS.testEventsPerWebhookPerMinute)
    .describe("Test events (`POST /webhooks/{id}/test`) one webhook may queue in any 60 seconds (429 past it)."),

  // Delivery
  DELIVERY_RETRY_SCALE: z.coerce
    .number()
    .positive()
    .max(1)
    .default(1)
    .describe("Multiplies every retry delay (1 = the documented schedule; 0.001 in tests turns 5 min into 300 ms)."),
  DELIVERY_TIMEOUT_MS: env.positiveInt(15_000).describe("One attempt's whole time budget (connect, send, answer)."),
  DELIVERY_PER_WEBHOOK_CONCURRENCY: env
    .positiveInt(8)
    .describe("Attempts in flight per webhook: a slow subscriber holds at most this many slots."),
  DELIVERY_LEASE_MARGIN_MS: env
    .positiveInt(15_000)
    .describe("A claimed job whose process died is due again this long after its attempt's timeout."),
  DELIVERY_RETENTION_DAYS: env
    .positiveInt(30)
    .describe(
      "Finished deliveries (and their attempts) are kept this long for the log, replay and the event cursor, then deleted (at start-up and hourly); a webhook's numbered events go oldest first, never past one still pending.",
    ),
  DELIVERY_CONCURRENCY: env.positiveInt(256).describe("Attempts in flight in this process."),
  DELIVERY_PER_ACCOUNT_CONCURRENCY: env
    .positiveInt(64)
    .describe(
      "Attempts in flight in this process for the webhooks of one account: one account's dead or slow endpoints leave the other slots to other accounts. Free slots go to the account with the fewest attempts in flight first.",
    ),
  DELIVERY_BREAKER_THRESHOLD: env
    .positiveInt(5)
    .describe(
      "Attempts in a row that got no answer (timeout, connection failure) after which a webhook's circuit breaker opens: one attempt in flight at a time, each after a cool-down. Any HTTP answer closes it; retry counts and auto-disable are unchanged.",
    ),
  DELIVERY_BREAKER_COOL_DOWN_MS: env
    .positiveInt(30_000)
    .describe("While a webhook's breaker is open, the pause between the end of one attempt and the start of the next."),
});

export type DeliveryConfig = z.infer<typeof deliveryConfigSchema>;
