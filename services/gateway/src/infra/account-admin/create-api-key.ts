import { sql } from "kysely";
import { apiKeyPrefix, generateApiKey, hashApiKey } from "../../domain/api-key.ts";
import { apiKeyQuotaError } from "../../domain/api-key-quota.ts";
import { API_KEYS_CHANNEL } from "../database-schema.ts";
import type { AccountAdminContext } from "./account-admin-context.ts";
import { AccountAdminError } from "./account-admin-error.ts";
import { activeKeyCount } from "./active-key-count.ts";

const PREFIX_COLLISION_RETRIES = 5;
/** First key of the gateway's two-key advisory locks (pg_advisory_xact_lock(int, int)): "gate". */
const ACCOUNT_LOCK_NAMESPACE = 0x67617465;

export interface CreatedApiKey {
  id: number;
  accountId: number;
  prefix: string;
  /** The whole key: shown once, never stored. */
  key: string;
}

/**
 * A new key of the account. With `maxActiveKeys` (the account's own creates; the operator is not
 * held to it) the account's active keys are counted under a per-account lock held to the
 * commit, so parallel creates on any replicas never both take the last slot; past it the
 * ValidationError of apiKeyQuotaError.
 */
export async function createApiKey(
  { db, options }: AccountAdminContext,
  accountId: number,
  name: string | null = null,
  limits: { maxActiveKeys?: number } = {},
): Promise<CreatedApiKey> {
  const account = await db.selectFrom("accounts").select("id").where("id", "=", accountId).executeTakeFirst();
  if (!account) throw new AccountAdminError(`No account with id ${accountId}.`);
  const { maxActiveKeys } = limits;
  for (let attempt = 0; attempt < PREFIX_COLLISION_RETRIES; attempt++) {
    const key = generateApiKey();
    const prefix = apiKeyPrefix(key);
    const created = await db.transaction().execute(async (trx) => {
      if (maxActiveKeys !== undefined) {
        await sql`select pg_advisory_xact_lock(${ACCOUNT_LOCK_NAMESPACE}, (${accountId}::bigint % 2147483647)::int)`.execute(trx);
        if ((await activeKeyCount(trx, accountId)) >= maxActiveKeys) throw apiKeyQuotaError(maxActiveKeys);
      }
      const row = await trx
        .insertInto("api_keys")
        .values({ account_id: accountId, prefix, secret_hash: hashApiKey(key), name })
        .onConflict((oc) => oc.column("prefix").doNothing())
        .returning("id")
        .executeTakeFirst();
      // A gateway may hold a negative cache entry for this prefix.
      if (row) await sql`select pg_notify(${API_KEYS_CHANNEL}, ${prefix})`.execute(trx);
      return row;
    });
    if (created) {
      options.onKeyChanged?.(prefix);
      return { id: created.id, accountId, prefix, key };
    }
  }
  throw new AccountAdminError("Could not find a free key prefix; try again.");
}
