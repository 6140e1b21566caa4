/**
 * The migrations on a database that already holds Bitcoin records from before chains existed:
 * those rows become BTC records, their addresses count as published, and uniqueness is per
 * account + chain afterwards.
 */
import { migrateToLatest } from "@chaingate/db";
import { sql, type Kysely } from "kysely";
import { expect } from "vitest";
import { XPUB_SCHEMA } from "../database-schema.ts";
import { xpubTest as it } from "../../testing/xpub-fixtures.ts";
import { xpubMigrations } from "./index.ts";

const query = <Row>(db: Kysely<unknown>, statement: ReturnType<typeof sql<Row>>) => statement.execute(db).then((result) => result.rows);

it("turns existing records into BTC records, their addresses into published ones, and makes uniqueness per account and chain", async ({
  xpubDb,
}) => {
  const db = xpubDb.db as unknown as Kysely<unknown>;
  const { "0001-keys-and-addresses": first } = xpubMigrations;
  await migrateToLatest(db, XPUB_SCHEMA, { "0001-keys-and-addresses": first! });
  await sql`insert into extended_keys (id, account_id, zpub, key_material, fingerprint, xpub_preview) values (100, 7, 'zpub-old', 'material', 'ab12cd34', 'zpub…old')`.execute(
    db,
  );
  await sql`insert into issued_addresses (key_id, account_id, index, address) values (100, 7, 0, 'bc1q-zero'), (100, 7, 1, 'bc1q-one')`.execute(
    db,
  );

  expect(await migrateToLatest(db, XPUB_SCHEMA, xpubMigrations)).toEqual([
    "0002-chain-per-record",
    "0003-address-outbox",
    "0004-one-account-per-key",
    "0005-key-moves",
    "0006-key-move-outbox",
    "0007-evm-chains",
  ]);

  expect(await query(db, sql<{ id: number; chain: string }>`select id, chain from extended_keys`)).toEqual([{ id: 100, chain: "BTC" }]);
  expect(
    await query(db, sql<{ unpublished: number }>`select count(*)::int as unpublished from issued_addresses where published_at is null`),
  ).toEqual([{ unpublished: 0 }]);
  // The same key material may now exist once per chain for the account, and still only once per chain.
  await sql`insert into extended_keys (account_id, chain, zpub, key_material, fingerprint, xpub_preview) values (7, 'ETH', 'xpub-new', 'material', 'ab12cd34', 'xpub…new')`.execute(
    db,
  );
  await expect(
    sql`insert into extended_keys (account_id, chain, zpub, key_material, fingerprint, xpub_preview) values (7, 'BTC', 'zpub-again', 'material', 'ab12cd34', 'zpub…again')`.execute(
      db,
    ),
  ).rejects.toThrow(/extended_keys_account_chain_key_material/);
  await expect(
    sql`insert into extended_keys (account_id, chain, zpub, key_material, fingerprint, xpub_preview) values (7, 'polygon', 'x', 'other', 'ab12cd34', 'x')`.execute(
      db,
    ),
  ).rejects.toThrow(/extended_keys_chain_coin/);
  // A configured EVM chain's record (0007) is of the EVM kind: the ETH record's key cannot hold a second one.
  await expect(
    sql`insert into extended_keys (account_id, chain, zpub, key_material, fingerprint, xpub_preview) values (8, 'POLYGON', 'xpub-new', 'material', 'ab12cd34', 'xpub…new')`.execute(
      db,
    ),
  ).rejects.toThrow(/extended_keys_kind_key_material_holder/);
  expect(await query(db, sql<{ chain: string; kind: string }>`select chain, kind from extended_keys order by chain`)).toEqual([
    { chain: "BTC", kind: "bitcoin" },
    { chain: "ETH", kind: "evm" },
  ]);
});
