/**
 * `key.moved` in the registry (issue #27): the operator moved an extended-key record to its rightful
 * account, with every address it issued, so the addresses the registry recorded for the key become
 * the new account's. Its webhooks that name the key watch them all; the other accounts' webhooks
 * that name it stop watching the ones they had only through the key (an address their client
 * listed stays). Both sides reach the scanner through the watch-feed outbox.
 *
 * Invariant: the key's `key_holders` row is its newest move applied, and every `issued_addresses`
 * row of the key names that holder's account. Moves are applied under the key's lock in their order
 * (move ids); a redelivered or overtaken one changes nothing, since the newer move already gave
 * every address to its own holder and took them off every other account's webhooks.
 */
import type { keyMoved, EventPayload } from "@chaingate/contracts";
import { sql, type Transaction } from "kysely";
import type { DeliveryDatabase } from "./database-schema.ts";
import { readKeyHolder } from "./read-key-holder.ts";
import { lockKeys } from "./webhook-repository/lock-keys.ts";
import { markWebhookChanged } from "./webhook-repository/mark-webhook-changed.ts";
import { watchKeyAddresses } from "./webhook-repository/watch-key-addresses.ts";

/** What the registry needs of a `key.moved` event. */
export type KeyMove = Pick<EventPayload<typeof keyMoved>, "move_id" | "xpub_id" | "coin" | "to_account_id" | "next_index" | "moved_at">;

/** `applied` false: a move not newer than the one applied (redelivered, or overtaken by a later move). */
export interface AppliedKeyMove {
  applied: boolean;
  /** Webhooks whose watched addresses changed (each queued for the watch feed). */
  changedWebhooks: number;
}

/** Applies the move in `trx` unless a move as new or newer was applied to the key. */
export async function applyKeyMove(trx: Transaction<DeliveryDatabase>, move: KeyMove): Promise<AppliedKeyMove> {
  const movedAt = new Date(move.moved_at);
  // Before reading the key's addresses or its webhooks, as every writer of either does (see lockKeys).
  await lockKeys(trx, [move.xpub_id]);
  const holder = await readKeyHolder(trx, move.xpub_id);
  if (holder !== undefined && holder.move_id >= move.move_id) return { applied: false, changedWebhooks: 0 };
  const newHolder = { account_id: move.to_account_id, move_id: move.move_id, next_index: move.next_index, moved_at: movedAt };
  await trx
    .insertInto("key_holders")
    .values({ xpub_id: move.xpub_id, ...newHolder })
    .onConflict((c) => c.column("xpub_id").doUpdateSet(newHolder))
    .execute();
  await trx
    .updateTable("issued_addresses")
    .set({ account_id: move.to_account_id })
    .where("xpub_id", "=", move.xpub_id)
    .where("account_id", "<>", move.to_account_id)
    .execute();

  // Every account's live webhooks naming the key, locked at once in id order (as the consumer and the backfill lock theirs).
  const webhooks = await trx
    .selectFrom("webhooks")
    .select(["id", "account_id"])
    .where("coin", "=", move.coin)
    .where("deleted_at", "is", null)
    .where(sql<boolean>`xpub_ids @> array[${move.xpub_id}]::bigint[]`)
    .orderBy("id")
    .forUpdate()
    .execute();
  let changedWebhooks = 0;
  for (const webhook of webhooks) {
    const changed =
      webhook.account_id === move.to_account_id
        ? (await watchKeyAddresses(trx, webhook.id, movedAt)).length > 0
        : (await unwatchKeyAddresses(trx, webhook.id, move.xpub_id)) > 0;
    if (changed) {
      await markWebhookChanged(trx, webhook.id);
      changedWebhooks++;
    }
  }

  // The new account's view of the key's whole history: what was issued before the registry
  // recorded issuances may be missing here, and a backfill that ran for this account before the move
  // read nothing (the record was not its). Read once more, as the new account, watched since the move.
  await sql`
    insert into key_backfills (xpub_id, account_id, coin, requested_at)
    values (${move.xpub_id}, ${move.to_account_id}, ${move.coin}, ${movedAt})
    on conflict (xpub_id, account_id, coin) do update
      set requested_at = case when key_backfills.done_at is null then least(key_backfills.requested_at, excluded.requested_at)
                              else excluded.requested_at end,
          done_at = null`.execute(trx);
  return { applied: true, changedWebhooks };
}

/**
 * Stops watching on the webhook the addresses it watched only through key `xpubId`, now another
 * account's (the issued rows were relabelled first): one the client listed stays, and so does one
 * another current key of the webhook's own account issued. Returns how many were dropped.
 */
async function unwatchKeyAddresses(trx: Transaction<DeliveryDatabase>, webhookId: number, xpubId: number): Promise<number> {
  const deleted = await sql`
    delete from webhook_addresses a using webhooks w, issued_addresses k
     where w.id = ${webhookId} and a.webhook_id = w.id and not a.listed
       and k.xpub_id = ${xpubId} and k.address = a.address
       and not exists (select 1 from issued_addresses i
          where i.xpub_id = any(w.xpub_ids) and i.address = a.address and i.account_id = w.account_id and i.coin = w.coin)`.execute(trx);
  return Number(deleted.numAffectedRows ?? 0);
}
