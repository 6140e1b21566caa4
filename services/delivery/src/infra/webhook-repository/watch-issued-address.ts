import type { addressIssued, EventPayload } from "@chaingate/contracts";
import { ownerOfIssuedAddress } from "../../domain/owner-of-issued-address.ts";
import { readKeyHolder } from "../read-key-holder.ts";
import { lockKeys } from "./lock-keys.ts";
import { lockWebhooksNamingKey } from "./lock-webhooks-naming-key.ts";
import { markWebhookChanged } from "./mark-webhook-changed.ts";
import { committed, type WebhookRepositoryContext } from "./webhook-repository-context.ts";

/** What the registry needs of an `address.issued` event. */
export type IssuedAddress = Pick<EventPayload<typeof addressIssued>, "account_id" | "xpub_id" | "coin" | "address" | "index" | "issued_at">;

/**
 * `address.issued`: records it for its key (setting `xpub_ids` later includes it) and watches it
 * on every live webhook of the account that names the key, since its issuance (the outbox row
 * takes that time, so the feed's `since` covers blocks paid while it travelled). The account is
 * the key's holder when the address was issued before a move the registry applied already.
 */
export async function watchIssuedAddress(context: WebhookRepositoryContext, issued: IssuedAddress): Promise<number> {
  return committed(context, async (trx) => {
    const issuedAt = new Date(issued.issued_at);
    await lockKeys(trx, [issued.xpub_id]);
    const key = { ...issued, account_id: ownerOfIssuedAddress(await readKeyHolder(trx, issued.xpub_id), issued) };
    await trx
      .insertInto("issued_addresses")
      .values({
        xpub_id: key.xpub_id,
        address: key.address,
        account_id: key.account_id,
        coin: key.coin,
        issued_at: issuedAt,
        address_index: key.index,
      })
      // A row recorded before indexes were kept gets its index now.
      .onConflict((c) => c.columns(["xpub_id", "address"]).doUpdateSet({ address_index: (eb) => eb.ref("excluded.address_index") }))
      .execute();
    let watched = 0;
    for (const id of await lockWebhooksNamingKey(trx, key)) {
      const result = await trx
        .insertInto("webhook_addresses")
        .values({ webhook_id: id, address: issued.address, listed: false, watched_since: issuedAt })
        .onConflict((c) => c.doNothing())
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) {
        await markWebhookChanged(trx, id);
        watched++;
      }
    }
    return watched;
  });
}
