/**
 * The webhook registry in Postgres. Every change inserts a `webhook_changes` row in the same
 * transaction (the outbox), so a committed change always reaches the watch feed, even when the
 * process dies before publishing; the buckets an address write touches are queued by triggers on
 * webhook_addresses (migration 0003), in that same transaction.
 *
 * A webhook watches the union of the client's own list (`listed` rows) and the addresses issued by
 * the keys in its `xpub_ids` (`issued_addresses`, recorded from every `address.issued` consumed):
 * `webhook_addresses` holds that union, so the feed, the counts and the bucket cap see exactly what
 * is watched. A PUT of `addresses` replaces the client's list only; changing `xpub_ids` adds the
 * addresses the new keys issued before and drops those of removed keys (unless listed). A key the
 * operator moved to another account takes its addresses along (apply-key-move.ts).
 */
import type { Kysely } from "kysely";
import type { DeliveryDatabase } from "./database-schema.ts";
import { DEFAULT_REGISTRY_QUOTAS, type RegistryQuotas } from "../domain/registry-quotas.ts";
import { changeWebhookAddresses } from "./webhook-repository/change-webhook-addresses.ts";
import { createWebhook, type NewWebhook } from "./webhook-repository/create-webhook.ts";
import { findWebhook } from "./webhook-repository/find-webhook.ts";
import { listWebhookPage } from "./webhook-repository/list-webhook-page.ts";
import { readAddressChunks } from "./webhook-repository/read-address-chunks.ts";
import { readAddressPage } from "./webhook-repository/read-address-page.ts";
import { readCappedAddresses } from "./webhook-repository/read-capped-addresses.ts";
import { readRegistryUsage } from "./webhook-repository/read-registry-usage.ts";
import { softDeleteWebhook } from "./webhook-repository/soft-delete-webhook.ts";
import { updateWebhook, type WebhookUpdate } from "./webhook-repository/update-webhook.ts";
import { watchIssuedAddress, type IssuedAddress } from "./webhook-repository/watch-issued-address.ts";
import type { WebhookRecord } from "./webhook-repository/webhook-record.ts";
import type { WebhookRepositoryContext } from "./webhook-repository/webhook-repository-context.ts";

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;

/**
 * The registry over `db`: each operation lives in webhook-repository/, named by what it does.
 * `onChange` is rung after every committed write; the writes enforce `quotas`.
 */
export function createWebhookRepository(
  db: Kysely<DeliveryDatabase>,
  onChange: () => void = () => {},
  quotas: RegistryQuotas = DEFAULT_REGISTRY_QUOTAS,
) {
  const context: WebhookRepositoryContext = { db, onChange, quotas };
  return {
    find: (accountId: number, webhookId: number): Promise<WebhookRecord | undefined> => findWebhook(db, accountId, webhookId),
    create: (accountId: number, webhook: NewWebhook): Promise<WebhookRecord> => createWebhook(context, accountId, webhook),
    usage: (accountId: number) => readRegistryUsage(db, accountId),
    listPage: (accountId: number, offset: number, limit: number) => listWebhookPage(db, accountId, offset, limit),
    cappedAddresses: (webhooks: ReadonlyArray<Pick<WebhookRecord, "id" | "address_count">>, cap: number) =>
      readCappedAddresses(db, webhooks, cap),
    addressChunks: (webhookId: number) => readAddressChunks(db, webhookId),
    addressPage: (webhookId: number, offset: number, limit: number, after?: string) => readAddressPage(db, webhookId, offset, limit, after),
    update: (accountId: number, webhookId: number, update: WebhookUpdate) => updateWebhook(context, accountId, webhookId, update),
    softDelete: (accountId: number, webhookId: number) => softDeleteWebhook(context, accountId, webhookId),
    changeAddresses: (accountId: number, webhookId: number, addresses: string[], add: boolean) =>
      changeWebhookAddresses(context, accountId, webhookId, addresses, add),
    watchIssuedAddress: (issued: IssuedAddress) => watchIssuedAddress(context, issued),
  };
}
