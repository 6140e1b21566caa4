import { sql, type Kysely } from "kysely";

/**
 * Issue #31: the projection keeps each webhook's `all_tokens` setting (every ERC-20 Transfer, of
 * any contract), and `token_decimals` what each unlisted token's contract answered to `decimals()`:
 * read once per chain and contract, so every replica and every replay of a block reports the same
 * amounts. Null: the contract has no `decimals()` (amounts in raw units).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhooks add column all_tokens boolean not null default false`.execute(db);
  await db.schema
    .createTable("token_decimals")
    .addColumn("coin", "text", (c) => c.notNull())
    .addColumn("contract", "text", (c) => c.notNull())
    .addColumn("decimals", "integer")
    .addColumn("read_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("token_decimals_pkey", ["coin", "contract"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("token_decimals").execute();
  await sql`alter table webhooks drop column all_tokens`.execute(db);
}
