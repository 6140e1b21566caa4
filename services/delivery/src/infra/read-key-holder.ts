/** The account holding a key the operator moved, as of the newest `key.moved` applied (see apply-key-move.ts). */
import type { Kysely } from "kysely";
import type { KeyHolder } from "../domain/owner-of-issued-address.ts";
import type { DeliveryDatabase } from "./database-schema.ts";

/** Undefined for a key never moved. Read under the key's lock (lockKeys), so no move lands in between. */
export async function readKeyHolder(
  executor: Kysely<DeliveryDatabase>,
  xpubId: number,
): Promise<(KeyHolder & { move_id: number }) | undefined> {
  return executor
    .selectFrom("key_holders")
    .select(["account_id", "next_index", "move_id"])
    .where("xpub_id", "=", xpubId)
    .executeTakeFirst();
}
