import { sql, type Kysely } from "kysely";

/**
 * The account that holds each extended key the operator moved (`key.moved`, issue #27), as of the
 * newest move applied: moves are applied in their order and a redelivered or older one is
 * ignored, and an `address.issued` published before a move but consumed after it is recorded as
 * the holder's (the whole record moved). Keys never moved have no row: their account is the one
 * `address.issued` carries. Expand only: a release without it ignores the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table key_holders (
      xpub_id bigint primary key,
      account_id bigint not null,
      move_id bigint not null,
      next_index integer not null,
      moved_at timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table key_holders`.execute(db);
}
