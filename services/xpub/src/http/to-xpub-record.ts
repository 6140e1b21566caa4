/** The API form of a stored key record. */
import type { XpubRecord } from "@chaingate/contracts";
import type { ExtendedKeyRow } from "../infra/xpub-repository.ts";

/** Row → response body; the full key never leaves the database. */
export function toXpubRecord(row: ExtendedKeyRow): XpubRecord {
  return {
    id: row.id,
    chain: row.chain,
    fingerprint: row.fingerprint,
    label: row.label,
    xpub_preview: row.xpub_preview,
    next_index: row.next_index,
    // Every index below next_index is issued and stored (one transaction does both), so the
    // counter is also the count; reading it avoids a COUNT(*) per registration.
    issued_count: row.next_index,
    created_at: row.created_at.toISOString(),
  };
}
