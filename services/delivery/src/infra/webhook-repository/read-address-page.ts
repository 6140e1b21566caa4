import type { Kysely } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";

/** A watched address as its page shows it: `listed` false when only a key in `xpub_ids` put it there. */
export interface WatchedAddress {
  address: string;
  listed: boolean;
}

/** One page of the webhook's addresses in address order (`GET /webhooks/{id}/addresses`), after `after` when given. */
export async function readAddressPage(
  db: Kysely<DeliveryDatabase>,
  webhookId: number,
  offset: number,
  limit: number,
  after?: string,
): Promise<WatchedAddress[]> {
  let query = db.selectFrom("webhook_addresses").select(["address", "listed"]).where("webhook_id", "=", webhookId);
  if (after !== undefined) query = query.where("address", ">", after);
  return query.orderBy("address").offset(offset).limit(limit).execute();
}
