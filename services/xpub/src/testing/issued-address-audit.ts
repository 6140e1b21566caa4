/** What the database holds after issuing: the facts a duplicate-address check needs. */
import pg from "pg";
import { XPUB_SCHEMA } from "../infra/database-schema.ts";

export interface IssuedAddressAudit {
  /** Rows in issued_addresses for the key. */
  rows: number;
  distinctIndexes: number;
  distinctAddresses: number;
  minIndex: number | null;
  maxIndex: number | null;
  /** The key's counter. */
  nextIndex: number;
}

/** Counts one key's issued rows straight from Postgres (not through the API under test). */
export async function auditIssuedAddresses(databaseUrl: string, keyId: number): Promise<IssuedAddressAudit> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, string | null>>(
      `select count(*) as rows, count(distinct a.index) as distinct_indexes, count(distinct a.address) as distinct_addresses,
              min(a.index) as min_index, max(a.index) as max_index, k.next_index
         from ${XPUB_SCHEMA}.extended_keys k left join ${XPUB_SCHEMA}.issued_addresses a on a.key_id = k.id
        where k.id = $1 group by k.next_index`,
      [keyId],
    );
    const row = rows[0];
    if (!row) throw new Error(`no xpub record ${keyId}`);
    const num = (value: string | null | undefined) => (value === null || value === undefined ? null : Number(value));
    return {
      rows: num(row.rows) ?? 0,
      distinctIndexes: num(row.distinct_indexes) ?? 0,
      distinctAddresses: num(row.distinct_addresses) ?? 0,
      minIndex: num(row.min_index),
      maxIndex: num(row.max_index),
      nextIndex: num(row.next_index) ?? 0,
    };
  } finally {
    await client.end();
  }
}
