import { sql } from "kysely";
import { API_KEYS_CHANNEL } from "../database-schema.ts";
import type { AccountAdminContext } from "./account-admin-context.ts";

/** Deactivates by id or by prefix; true when a key changed. */
export async function deactivateApiKey({ db, options }: AccountAdminContext, idOrPrefix: number | string): Promise<boolean> {
  const column = typeof idOrPrefix === "number" ? "id" : "prefix";
  const changed = await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("api_keys")
      .set({ active: false, deactivated_at: new Date() })
      .where(column, "=", idOrPrefix)
      .where("active", "=", true)
      .returning("prefix")
      .executeTakeFirst();
    if (row) await sql`select pg_notify(${API_KEYS_CHANNEL}, ${row.prefix})`.execute(trx);
    return row;
  });
  if (options.onKeyChanged) {
    // An already inactive key is forgotten too: a cached copy may predate a deactivation whose NOTIFY this gateway missed.
    const found = changed ?? (await db.selectFrom("api_keys").select("prefix").where(column, "=", idOrPrefix).executeTakeFirst());
    if (found) options.onKeyChanged(found.prefix);
  }
  return Boolean(changed);
}
