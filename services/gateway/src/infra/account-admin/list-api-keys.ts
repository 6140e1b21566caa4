import type { AccountAdminContext } from "./account-admin-context.ts";

export interface ApiKeyListing {
  id: number;
  account_id: number;
  prefix: string;
  name: string | null;
  active: boolean;
  created_at: Date;
  deactivated_at: Date | null;
}

/** Rows per statement of the CLI's key listing. */
const KEY_LISTING_BATCH = 1000;

/** Every key (or the account's), by id, read a thousand rows after the last one at a time: the CLI's memory does not grow with the list. */
export async function* listApiKeys({ db }: AccountAdminContext, accountId?: number): AsyncGenerator<ApiKeyListing> {
  for (let afterId = 0; ; ) {
    let query = db
      .selectFrom("api_keys")
      .select(["id", "account_id", "prefix", "name", "active", "created_at", "deactivated_at"])
      .where("id", ">", afterId)
      .orderBy("id")
      .limit(KEY_LISTING_BATCH);
    if (accountId !== undefined) query = query.where("account_id", "=", accountId);
    const rows = await query.execute();
    yield* rows;
    if (rows.length < KEY_LISTING_BATCH) return;
    afterId = rows.at(-1)!.id;
  }
}
